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
}
