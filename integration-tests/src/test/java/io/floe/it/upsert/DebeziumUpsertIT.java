/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.SparkReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.JsonUtil;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Upsert mode end to end: a Debezium-shaped stream (snapshot reads, updates, deletes with
 * tombstones, creates and primary-key changes, over 4 partitions) into a format v3 table (deletion
 * vectors, keyed by {@code id-columns}) and a format v2 table (position deletes, keyed by the
 * record key's fields), each by its own 2-task connector on 2 workers. First one worker is killed
 * with SIGKILL mid-stream and replaced; then the workers running the two coordinators are killed
 * with SIGKILL inside a commit of their table and replaced: the v3 table's commit held by the
 * catalog after its deletion vectors were written and before it is applied, the v2 table's held
 * once applied, before its coordinator learns so. Both tables end equal to the source table (one
 * row per live key with its last image, no row of a deleted key, never a second row of a key), hold
 * no equality delete, and Apache Spark reads exactly those rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class DebeziumUpsertIT {
  private static final String TOPIC = "customers";
  private static final int PARTITIONS = 4;
  private static final Duration CONVERGE = Duration.ofSeconds(120);
  private static final String CONTRACT =
      String.join(
          "\n",
          "apiVersion: v3.0.2",
          "kind: DataContract",
          "id: customers",
          "version: 1.0.0",
          "schema:",
          "  - name: customers",
          "    logicalType: object",
          "    properties:",
          "      - name: id",
          "        logicalType: integer",
          "        required: true",
          "      - name: name",
          "        logicalType: string",
          "      - name: version",
          "        logicalType: integer",
          "        required: true");

  @RegisterExtension final Services services = Services.closedAfterAll();

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker1;
  private ConnectWorker worker2;
  private KafkaProducer<String, String> producer;
  private Admin admin;

  /** The shared broker; a catalog and workers of its own, which it holds and kills. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
    worker1 = startWorker();
    worker2 = startWorker();
    producer = services.own(broker.stringProducer());
    admin = services.own(broker.admin());
  }

  private ConnectWorker startWorker() {
    return services.own(
        ConnectWorker.start(
            broker,
            PluginInstall.pluginPath(),
            new ConnectWorker.Options()
                .groupId("upsert")
                .workerProperty("consumer.session.timeout.ms", "10000")
                .workerProperty("consumer.heartbeat.interval.ms", "1000")));
  }

  private Map<String, String> connector(String table, int formatVersion) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.floe.connect.IcebergSinkConnector");
    config.put("tasks.max", "2");
    config.put("topics", TOPIC);
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("key.converter.schemas.enable", "true");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables", table);
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.upsert-mode-enabled", "true");
    if (formatVersion >= 3) {
      config.put("iceberg.table." + table + ".id-columns", "id");
    } // else the key is Debezium's key struct, {"id": ...}
    if (formatVersion != 3) {
      config.put(
          "iceberg.tables.auto-create-props.format-version", Integer.toString(formatVersion));
    }
    config.put("iceberg.control.topic", "control-" + table.replace('.', '-'));
    config.put("iceberg.control.commit.interval-ms", "2000");
    config.put("iceberg.control.commit.timeout-ms", "1500");
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    rest.clientProperties().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    return config;
  }

  private void send(List<ProducerRecord<String, String>> records) throws Exception {
    List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
    for (ProducerRecord<String, String> record : records) {
      sent.add(producer.send(record));
    }
    for (var future : sent) {
      future.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void bothTablesMirrorTheSourceAfterWorkersAreKilledMidStreamAndMidCommitAndSparkReadsThem()
      throws Exception {
    broker.createTopic(TOPIC, PARTITIONS);
    Map<String, Integer> tables = Map.of("db.customers_v3", 3, "db.customers_v2", 2);
    tables.forEach(
        (table, version) ->
            worker1.rest().putConnector(table.replace('.', '-'), connector(table, version)));
    for (String table : tables.keySet()) {
      worker1.rest().awaitRunning(table.replace('.', '-'), 2, Duration.ofSeconds(90));
    }

    DebeziumStream stream = new DebeziumStream(TOPIC, PARTITIONS, 20261204L);
    send(stream.snapshot(400));
    // the snapshot is stored before the changes come, so that they must delete stored rows
    for (String table : tables.keySet()) {
      Await.until(
          "table " + table + " to hold the 400 snapshot rows",
          CONVERGE,
          () -> rows(table).size(),
          rows -> rows == 400);
    }
    send(stream.changes(600));
    Thread.sleep(2500); // a commit cycle or so: the kill lands while cycles are under way
    worker2.kill();
    send(stream.changes(600));
    worker2 = startWorker();
    send(stream.changes(400));

    // the coordinators' workers die inside a commit of their table: each connector's next table
    // commit is held at the catalog, v3's before it is applied (its deletion vectors are written),
    // v2's once applied (its position deletes are in the table, the coordinator does not know)
    awaitSettled(tables.keySet().stream().map(table -> table.replace('.', '-')).toList());
    RestCatalogServer.HeldRequest v3Commit = rest.holdUnapplied("/tables/customers_v3");
    RestCatalogServer.HeldRequest v2Commit = rest.holdApplied("/tables/customers_v2");
    Set<ConnectWorker> hosts = new LinkedHashSet<>();
    Map<ConnectWorker, Long> killedAt = new LinkedHashMap<>();
    try {
      send(stream.changes(600));
      v3Commit.awaitHeld(CONVERGE);
      v2Commit.awaitHeld(CONVERGE);
      for (String table : tables.keySet()) {
        String connector = table.replace('.', '-');
        ConnectWorker host =
            Await.until(
                "the worker running the coordinator of " + connector,
                Duration.ofSeconds(30),
                () -> coordinatorHost(connector),
                found -> found != null);
        assertLocatedStoredRows(host, table);
        hosts.add(host);
      }
      for (ConnectWorker worker : List.of(worker1, worker2)) {
        killedAt.put(worker, worker.logFile().mark());
      }
      hosts.forEach(ConnectWorker::kill);
    } finally {
      rest.clearFaults(); // the held requests end with a 500 (v3's never applied)
    }
    // one replacement per killed worker, started side by side
    Map<ConnectWorker, CompletableFuture<ConnectWorker>> replacements = new LinkedHashMap<>();
    hosts.forEach(host -> replacements.put(host, CompletableFuture.supplyAsync(this::startWorker)));
    for (Map.Entry<ConnectWorker, CompletableFuture<ConnectWorker>> entry :
        replacements.entrySet()) {
      ConnectWorker replacement = entry.getValue().get(3, TimeUnit.MINUTES);
      killedAt.remove(entry.getKey());
      killedAt.put(replacement, 0L);
      if (entry.getKey() == worker1) {
        worker1 = replacement;
      } else {
        worker2 = replacement;
      }
    }
    send(stream.changes(400));

    Map<Long, String> expected = expected(stream);
    for (Map.Entry<String, Integer> table : tables.entrySet()) {
      Await.until(
          "table " + table.getKey() + " to mirror the source's " + expected.size() + " rows",
          CONVERGE,
          () -> rows(table.getKey()),
          rows -> rows.equals(expected));
      assertDeletes(table.getKey(), table.getValue());
    }
    // the new coordinator of v2 found the killed one's last commit in the table and skipped it
    Pattern skipped =
        Pattern.compile(
            "Table db\\.customers_v2: \\d+ of \\d+ pending manifests are already committed");
    assertThat(
            killedAt.entrySet().stream()
                .mapToInt(log -> log.getKey().logFile().matches(skipped, log.getValue()).size())
                .sum())
        .as("commits of db.customers_v2 found already applied after the kill")
        .isPositive();

    assertSparkReadsWhatIcebergReads(tables.keySet(), expected.size());
  }

  /**
   * Truncates, enabled: a table truncated at the source, then filled again, holds only what came
   * after the truncate, in v3 (its deletion vectors removed with their data files) and v2; the
   * snapshot says which truncate emptied it, and Spark reads the same rows.
   */
  /**
   * A truncate empties the table and what follows it fills it again; the tables have a contract,
   * and every commit's profile matches the data read back.
   */
  @Test
  void aTruncateEmptiesTheTableAndWhatFollowsItFillsItAgain() throws Exception {
    String topic = "accounts";
    broker.createTopic(topic, 1);
    Map<String, Integer> tables = Map.of("db.accounts_v3", 3, "db.accounts_v2", 2);
    tables.forEach(
        (table, version) -> {
          Map<String, String> config = connector(table, version);
          config.put("topics", topic);
          config.put("tasks.max", "1");
          config.put("iceberg.tables.cdc-truncate-enabled", "true");
          config.put("iceberg.table." + table + ".contract", CONTRACT);
          worker1.rest().putConnector(table.replace('.', '-'), config);
        });
    for (String table : tables.keySet()) {
      worker1.rest().awaitRunning(table.replace('.', '-'), 1, Duration.ofSeconds(90));
    }

    DebeziumStream stream = new DebeziumStream(topic, 1, 20261205L);
    send(stream.snapshot(200));
    for (String table : tables.keySet()) {
      Await.until(
          "table " + table + " to hold the 200 snapshot rows",
          CONVERGE,
          () -> rows(table).size(),
          rows -> rows == 200);
    }
    // changes of stored rows: the table holds deletes when it is truncated
    send(stream.changes(200));
    Map<Long, String> before = expected(stream);
    for (String table : tables.keySet()) {
      Await.until(
          "table " + table + " to hold the " + before.size() + " rows before the truncate",
          CONVERGE,
          () -> rows(table),
          rows -> rows.equals(before));
      assertDeletes(table, tables.get(table));
    }
    // truncated with changes on both sides of it, likely in one commit cycle
    List<ProducerRecord<String, String>> records = new ArrayList<>(stream.changes(100));
    records.add(stream.truncate(0));
    records.addAll(stream.snapshot(150));
    records.addAll(stream.changes(150));
    send(records);

    Map<Long, String> after = expected(stream);
    assertThat(after).isNotEmpty().isNotEqualTo(before);
    for (String table : tables.keySet()) {
      Await.until(
          "table " + table + " to hold the " + after.size() + " rows after the truncate",
          CONVERGE,
          () -> rows(table),
          rows -> rows.equals(after));
      Table iceberg = catalog.loadTable(TableIdentifier.parse(table));
      List<String> truncatedAt = new ArrayList<>();
      iceberg
          .snapshots()
          .forEach(
              snapshot -> {
                String at = snapshot.summary().get("floe.truncated-at");
                if (at != null) {
                  truncatedAt.add(at);
                }
              });
      assertThat(truncatedAt).as("snapshots of %s that truncated it", table).hasSize(1);
      assertThat(truncatedAt.get(0)).startsWith(topic + "-0@");
      assertThat(iceberg.currentSnapshot().summary()).containsEntry("total-equality-deletes", "0");
      assertProfilesMatchTheData(iceberg);
    }
    assertSparkReadsWhatIcebergReads(tables.keySet(), after.size());
    tables.keySet().forEach(table -> worker1.rest().deleteConnector(table.replace('.', '-')));
  }

  /**
   * The coordinator compacts and expires after every cycle while changes flow: files carrying
   * deletion vectors (v3) and position deletes (v2) are rewritten without their deleted rows, the
   * tables still mirror the source exactly, and Spark reads the same rows.
   */
  @Test
  void compactionRewritesFilesCarryingDeletesAndTheTablesStillMirrorTheSource() throws Exception {
    String topic = "members";
    broker.createTopic(topic, 2);
    Map<String, Integer> tables = Map.of("db.members_v3", 3, "db.members_v2", 2);
    Map<ConnectWorker, Long> logStart = new LinkedHashMap<>();
    for (ConnectWorker worker : List.of(worker1, worker2)) {
      logStart.put(worker, worker.logFile().mark());
    }
    tables.forEach(
        (table, version) -> {
          Map<String, String> config = connector(table, version);
          config.put("topics", topic);
          config.put("iceberg.maintenance.interval-ms", "0");
          config.put("iceberg.maintenance.compaction.min-input-files", "2");
          config.put("iceberg.maintenance.compaction.delete-ratio", "0.1");
          config.put("iceberg.maintenance.snapshot-max-age-ms", "0");
          config.put("iceberg.maintenance.min-snapshots-to-keep", "2");
          worker1.rest().putConnector(table.replace('.', '-'), config);
        });
    for (String table : tables.keySet()) {
      worker1.rest().awaitRunning(table.replace('.', '-'), 2, Duration.ofSeconds(90));
    }

    DebeziumStream stream = new DebeziumStream(topic, 2, 20261206L);
    send(stream.snapshot(300));
    for (int round = 0; round < 6; round++) {
      send(stream.changes(200));
      Thread.sleep(2500); // a cycle or so: each round lands in its own commits
    }

    Map<Long, String> expected = expected(stream);
    for (String table : tables.keySet()) {
      Await.until(
          "table " + table + " to mirror the source's " + expected.size() + " rows",
          CONVERGE,
          () -> rows(table),
          rows -> rows.equals(expected));
      Table iceberg = catalog.loadTable(TableIdentifier.parse(table));
      assertThat(iceberg.currentSnapshot().summary())
          .containsEntry("total-equality-deletes", "0")
          .containsKey("floe.commit-id");
    }
    Pattern compacted = Pattern.compile("Table db\\.members_v[23]: compacted [1-9]\\d* partitions");
    assertThat(
            logStart.entrySet().stream()
                .mapToInt(log -> log.getKey().logFile().matches(compacted, log.getValue()).size())
                .sum())
        .as("compactions of the members tables")
        .isPositive();

    assertSparkReadsWhatIcebergReads(tables.keySet(), expected.size());
    tables.keySet().forEach(table -> worker1.rest().deleteConnector(table.replace('.', '-')));
  }

  /** Spark reads each table without error, {@code rows} rows, the same as Iceberg's reader. */
  private void assertSparkReadsWhatIcebergReads(Set<String> tables, int rows) {
    Map<String, SparkReader.View> spark = SparkReader.read(rest, new ArrayList<>(tables));
    for (String table : tables) {
      SparkReader.View view = spark.get(table);
      assertThat(view.readError()).as("Spark reading %s", table).isNull();
      assertThat(view.rows()).as("Spark's rows of %s", table).hasSize(rows);
      assertThat(view.rows()).containsExactlyInAnyOrderElementsOf(rendered(table));
    }
  }

  private static Map<Long, String> expected(DebeziumStream stream) {
    Map<Long, String> expected = new TreeMap<>();
    stream.live().forEach((id, row) -> expected.put(id, row.name() + "@" + row.version()));
    return expected;
  }

  /**
   * Waits until Connect has spread the connectors' tasks over both live workers (the replacement
   * worker took its share, so no task moves any more) and each connector's consumer group is
   * stable, its 2 tasks owning every partition.
   */
  private void awaitSettled(List<String> connectors) throws Exception {
    Await.until(
        "the tasks of " + connectors + " to run on both workers",
        CONVERGE,
        () -> {
          Set<Integer> ports = new HashSet<>();
          for (String connector : connectors) {
            JsonNode tasks = worker1.rest().status(connector).path("tasks");
            if (tasks.size() != 2) {
              return false;
            }
            for (JsonNode task : tasks) {
              String workerId = task.path("worker_id").asText();
              int port = Integer.parseInt(workerId.substring(workerId.lastIndexOf(':') + 1));
              if (!task.path("state").asText().equals("RUNNING")
                  || (port != worker1.restPort() && port != worker2.restPort())) {
                return false;
              }
              ports.add(port);
            }
          }
          return ports.size() == 2;
        });
    for (String connector : connectors) {
      String group = "connect-" + connector;
      Await.until(
          "group " + group + " to be stable with 2 members owning every partition",
          CONVERGE,
          () ->
              admin
                  .describeConsumerGroups(List.of(group))
                  .all()
                  .get(30, TimeUnit.SECONDS)
                  .get(group),
          description ->
              description.groupState() == GroupState.STABLE
                  && description.members().size() == 2
                  && description.members().stream()
                      .allMatch(member -> !member.assignment().topicPartitions().isEmpty())
                  && description.members().stream()
                          .mapToInt(member -> member.assignment().topicPartitions().size())
                          .sum()
                      == PARTITIONS);
    }
  }

  /**
   * The worker running the connector's coordinator: the one running the task whose consumer owns
   * the election partition (partition 0 of the topic), null while Connect reports that task on no
   * live worker. Its log shows that task starting the coordinator.
   */
  private ConnectWorker coordinatorHost(String connector) throws Exception {
    String group = "connect-" + connector;
    TopicPartition election = new TopicPartition(TOPIC, 0);
    MemberDescription owner =
        admin
            .describeConsumerGroups(List.of(group))
            .all()
            .get(30, TimeUnit.SECONDS)
            .get(group)
            .members()
            .stream()
            .filter(member -> member.assignment().topicPartitions().contains(election))
            .findFirst()
            .orElseThrow(() -> new AssertionError("No member of " + group + " owns " + election));
    // Connect names a task's consumer connector-consumer-<connector>-<task>
    String task = owner.clientId().substring(owner.clientId().lastIndexOf('-') + 1);
    for (JsonNode status : worker1.rest().status(connector).path("tasks")) {
      if (!status.path("id").asText().equals(task)) {
        continue;
      }
      for (ConnectWorker worker : List.of(worker1, worker2)) {
        if (status.path("worker_id").asText().endsWith(":" + worker.restPort())) {
          Pattern started =
              Pattern.compile(
                  "Task "
                      + Pattern.quote(connector + "-" + task)
                      + " owns "
                      + Pattern.quote(election.toString())
                      + " and runs the coordinator");
          assertThat(worker.logFile().matches(started, 0))
              .as("%s's coordinator started on %s", connector, worker.rest().baseUrl())
              .isNotEmpty();
          return worker;
        }
      }
    }
    return null; // Connect does not report the task on a live worker yet
  }

  /**
   * The coordinator on {@code host}, blocked in its held commit of {@code table}, last located
   * stored rows of the cycle's keys: the commit being held wrote their deletes before sending it.
   */
  private static void assertLocatedStoredRows(ConnectWorker host, String table) {
    Pattern located =
        Pattern.compile(
            "Table \\S*"
                + Pattern.quote(table)
                + ": located \\d+ of \\d+ retired keys in (\\d+) rows");
    List<Matcher> locates = host.logFile().matches(located, 0);
    assertThat(locates).as("keys located by the coordinator of %s", table).isNotEmpty();
    assertThat(Long.parseLong(locates.get(locates.size() - 1).group(1)))
        .as("stored rows the held commit of %s deletes", table)
        .isPositive();
  }

  /**
   * Each commit's profile against the data read back: its rows and the contract columns' nulls and
   * bounds are those of the data files it added, read whole; its live rows grew by rows -
   * superseded - deleted (a truncating commit counts no deleted rows).
   */
  private static void assertProfilesMatchTheData(Table table) {
    int profiled = 0;
    for (Snapshot snapshot : table.snapshots()) {
      Map<String, String> summary = snapshot.summary();
      if (!summary.containsKey("floe.profile.rows")) {
        continue;
      }
      profiled++;
      long rows = 0;
      long nullNames = 0;
      long minId = Long.MAX_VALUE;
      long maxId = Long.MIN_VALUE;
      for (DataFile file :
          SnapshotChanges.builderFor(table).snapshot(snapshot).build().addedDataFiles()) {
        try (CloseableIterable<Record> records =
            Parquet.read(table.io().newInputFile(file.location()))
                .project(table.schema())
                .createReaderFunc(
                    fileSchema -> GenericParquetReaders.buildReader(table.schema(), fileSchema))
                .build()) {
          for (Record record : records) {
            rows++;
            nullNames += record.getField("name") == null ? 1 : 0;
            minId = Math.min(minId, (Long) record.getField("id"));
            maxId = Math.max(maxId, (Long) record.getField("id"));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      String what = "profile of snapshot " + snapshot.snapshotId() + " of " + table.name();
      assertThat(summary).as(what).containsEntry("floe.profile.rows", Long.toString(rows));
      JsonNode columns;
      try {
        columns = JsonUtil.mapper().readTree(summary.get("floe.profile.columns"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      assertThat(columns.path("id").path("nulls").asLong(-1)).as(what).isZero();
      assertThat(columns.path("id").path("min").asText()).as(what).isEqualTo(Long.toString(minId));
      assertThat(columns.path("id").path("max").asText()).as(what).isEqualTo(Long.toString(maxId));
      assertThat(columns.path("name").path("nulls").asLong(-1)).as(what).isEqualTo(nullNames);
      long superseded = Long.parseLong(summary.get("floe.profile.superseded"));
      if (summary.containsKey("floe.truncated-at")) {
        assertThat(summary).as(what).doesNotContainKey("floe.profile.deleted");
        assertThat(liveRows(table, snapshot.snapshotId())).as(what).isEqualTo(rows - superseded);
      } else if (snapshot.parentId() != null && table.snapshot(snapshot.parentId()) != null) {
        long deleted = Long.parseLong(summary.get("floe.profile.deleted"));
        assertThat(liveRows(table, snapshot.snapshotId()) - liveRows(table, snapshot.parentId()))
            .as(what)
            .isEqualTo(rows - superseded - deleted);
      }
    }
    assertThat(profiled).as("profiled commits of %s", table.name()).isGreaterThanOrEqualTo(3);
  }

  private static long liveRows(Table table, long snapshotId) {
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      long count = 0;
      for (Record ignored : records) {
        count++;
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table's rows as {@code id -> name@version}; fails on a second row of one key. */
  private Map<Long, String> rows(String name) {
    TableIdentifier id = TableIdentifier.parse(name);
    Map<Long, String> rows = new TreeMap<>();
    if (!catalog.tableExists(id)) {
      return rows;
    }
    Table table = catalog.loadTable(id);
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        String previous =
            rows.put(
                (Long) record.getField("id"),
                record.getField("name") + "@" + record.getField("version"));
        assertThat(previous)
            .as("a second row of key %s in %s", record.getField("id"), name)
            .isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private List<String> rendered(String name) {
    List<String> rows = new ArrayList<>();
    Table table = catalog.loadTable(TableIdentifier.parse(name));
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(record -> rows.add(SparkReader.render(record, table.schema())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private void assertDeletes(String name, int formatVersion) {
    Table table = catalog.loadTable(TableIdentifier.parse(name));
    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> deletes.addAll(task.deletes()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(table.schema().identifierFieldNames())
        .as("the identifier fields of %s, from id-columns or the record key", name)
        .containsExactly("id");
    assertThat(deletes).as("live delete files of %s", name).isNotEmpty();
    for (DeleteFile delete : deletes) {
      assertThat(delete.content())
          .as("%s", delete.location())
          .isEqualTo(FileContent.POSITION_DELETES);
      assertThat(delete.format())
          .isEqualTo(formatVersion >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
    }
    assertThat(table.currentSnapshot().summary()).containsEntry("total-equality-deletes", "0");
  }
}
