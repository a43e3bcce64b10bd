/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * A connector that commits one of its two tables to a branch ({@code commit-branch}), the other to
 * main, on the real stack (REST catalog, two Connect workers running the plugin from the zip):
 * every record lands exactly once on the branch and main of that table holds none, across a restart
 * of the connector's tasks mid-stream; the branch, created by the first commit, then fast-forwards
 * main.
 */
class CommitBranchIT extends ExactlyOnceStack {
  private static final String BRANCH = "audit";

  @Test
  void everyRecordLandsOnceOnTheBranchAndNoneOnMainAcrossARestartOfTheTasks() throws Exception {
    String name = "branched";
    String onBranch = "db." + name + "_a";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.table." + onBranch + ".commit-branch", BRANCH);
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name).onBranch(onBranch, BRANCH);

    events.send(name, 4, 0, 2000);
    CompletableFuture<Void> stream =
        CompletableFuture.runAsync(
            () -> {
              for (int batch = 0; batch < 10; batch++) {
                events.send(name, 4, 2000 + batch * 400L, 2000 + (batch + 1) * 400L);
                sleep(300);
              }
            });
    awaitNewCycleCommitted(name);
    worker1.rest().send("POST", "/connectors/" + name + "/restart?includeTasks=true", null);
    stream.get();
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    await("rows on the branch and on main of the other table", oracle::rowCount, 6000, CONVERGE);

    oracle.assertExactlyOnce(admin, "connect-" + name, name, 6000);
    Table table = catalog.loadTable(TableIdentifier.parse(onBranch));
    Snapshot head = table.snapshot(BRANCH);
    assertThat(table.currentSnapshot()).as("main of %s", onBranch).isNull();
    assertThat(head.summary())
        .containsKey("floe.commit-id")
        .containsKey("floe.control-offsets.connect-" + name)
        .containsKey("floe.source-offsets.connect-" + name);
    assertThat(table.properties())
        .containsKey("floe.last-commit.connect-" + name + ".branch_" + BRANCH)
        .doesNotContainKey("floe.last-commit.connect-" + name);
    Table onMain = catalog.loadTable(TableIdentifier.parse("db." + name + "_b"));
    assertThat(onMain.refs()).containsOnlyKeys("main");
    assertThat(onMain.properties()).containsKey("floe.last-commit.connect-" + name);
    worker1.rest().deleteConnector(name);

    // main is an ancestor of the branch (here: it has no snapshot), so it fast-forwards to it
    long rowsOnBranch = Long.parseLong(head.summary().get("total-records"));
    table.manageSnapshots().fastForwardBranch("main", BRANCH).commit();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head.snapshotId());
    assertThat(TableOracle.totalRecords(catalog, List.of(TableIdentifier.parse(onBranch))))
        .isEqualTo(rowsOnBranch);
  }

  /**
   * A configuration that sets every key of the Apache Iceberg sink 1.12 (the list that {@code
   * ApacheSinkCompatibilityTest} reads from its jar), a default commit branch among them, runs on
   * the real stack: both tables are created with the Apache keys' meaning and get every record
   * exactly once on the branch.
   */
  @Test
  void aConfigurationSettingEveryApacheSinkKeyDeliversEveryRecordOnceOnItsBranch()
      throws Exception {
    String name = "apachekeys";
    String a = "db." + name + "_a";
    String b = "db." + name + "_b";
    broker.createTopic(name, 4);
    java.nio.file.Path hadoopConf = java.nio.file.Files.createTempDirectory("hadoop-conf");
    java.nio.file.Files.writeString(
        hadoopConf.resolve("core-site.xml"), "<?xml version=\"1.0\"?><configuration/>\n");
    Map<String, String> config = connector(name, name, 2);
    // iceberg.tables, route-field, route-regex, auto-create-enabled, catalog.*, kafka.*,
    // commit.interval-ms and commit.timeout-ms come from connector(); a's partition-by too
    config.put("iceberg.catalog", "iceberg");
    config.put("iceberg.tables.dynamic-enabled", "false");
    config.put("iceberg.tables.default-id-columns", "id");
    config.put("iceberg.tables.default-partition-by", "kind");
    config.put("iceberg.tables.default-commit-branch", BRANCH);
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    config.put("iceberg.tables.schema-force-optional", "false");
    config.put("iceberg.tables.schema-case-insensitive", "true");
    config.put("iceberg.tables.auto-create-props.format-version", "2");
    config.put("iceberg.tables.write-props.write.parquet.compression-codec", "zstd");
    config.put("iceberg.table." + a + ".id-columns", "id");
    config.put("iceberg.table." + a + ".commit-branch", BRANCH);
    config.put("iceberg.hadoop-conf-dir", hadoopConf.toString());
    config.put("iceberg.hadoop.fs.s3a.connection.maximum", "8");
    config.put("iceberg.control.topic", "control-" + name);
    config.put("iceberg.control.group-id-prefix", "cg-control");
    config.put("iceberg.control.commit.threads", "4");
    config.put("iceberg.control.commit.max-consecutive-failures", "10");
    config.put("iceberg.coordinator.transactional.prefix", name + "-");
    config.put("iceberg.coordinator.transactional.suffix", "-1");
    config.put("iceberg.coordinator-executor-keep-alive-timeout-ms", "120000");
    config.put("iceberg.connect.group-id", "connect-" + name);
    Map<String, String> named = new java.util.HashMap<>(config);
    named.put("name", name);
    assertThat(
            io.floe.it.stack.ConnectRest.errorsByKey(
                worker1.rest().validate("io.floe.connect.IcebergSinkConnector", named)))
        .as("/config/validate")
        .isEmpty();
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name).onBranch(a, BRANCH).onBranch(b, BRANCH);

    events.send(name, 4, 0, 3000);
    await("rows on the branch of both tables", oracle::rowCount, 3000, CONVERGE);

    oracle.assertExactlyOnce(admin, "connect-" + name, name, 3000);
    for (String table : List.of(a, b)) {
      Table loaded = catalog.loadTable(TableIdentifier.parse(table));
      assertThat(loaded.currentSnapshot()).as("main of %s", table).isNull();
      assertThat(loaded.snapshot(BRANCH)).as("%s on %s", table, BRANCH).isNotNull();
      assertThat(loaded.schema().identifierFieldNames()).as(table).containsExactly("id");
      assertThat(
              ((org.apache.iceberg.HasTableOperations) loaded)
                  .operations()
                  .current()
                  .formatVersion())
          .as(table)
          .isEqualTo(2);
    }
    assertThat(catalog.loadTable(TableIdentifier.parse(b)).spec().fields())
        .extracting(field -> field.name())
        .containsExactly("kind");
    worker1.rest().deleteConnector(name);
  }
}
