/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Ports;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Floe's metrics as an operator reads them: over remote JMX from a running Connect worker. The
 * counts match exactly what was sent, the freshness lag grows while the source is quiet and drops
 * with the next commit, the metrics reach Connect's own plugin metrics, and every MBean goes away
 * with the connector.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class MetricsIT {
  private static final Duration CONVERGE = Duration.ofSeconds(120);
  private static final String NAME = "metered";
  private static final String TOPIC = "metered";
  private static final String TABLE = "db.metered";
  private static final long INTERVAL_MS = 3000;

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private RemoteJmx jmx;
  private KafkaProducer<String, String> producer;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = stack.rest();
    catalog = services.catalog("test", rest.clientProperties());
    worker = stack.worker();
    jmx = services.own(RemoteJmx.connect(stack.jmxPort()));
    producer = services.own(broker.stringProducer());
  }

  /** The dead-letter example: {@code topic} into {@code table}, committing every 3 s. */
  private Map<String, String> connector(String topic, String table) {
    Map<String, String> config =
        ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), topic, table);
    config.put("iceberg.control.commit.interval-ms", Long.toString(INTERVAL_MS));
    config.put("iceberg.control.commit.timeout-ms", "2500");
    return config;
  }

  private void send(int partition, String value) throws Exception {
    producer.send(new ProducerRecord<>(TOPIC, partition, "k", value)).get(30, TimeUnit.SECONDS);
  }

  /** Sends valid orders {@code from..to-1}, alternating between the two partitions. */
  private void sendOrders(int from, int to) throws Exception {
    for (int id = from; id < to; id++) {
      send(id % 2, "{\"id\":" + id + ",\"qty\":" + id + "}");
    }
  }

  private long task(String attribute) {
    return jmx.attribute(bean("task-metrics", ",task=0"), attribute).longValue();
  }

  private long table(String attribute) {
    return jmx.attribute(bean("table-metrics", ",table=" + TABLE), attribute).longValue();
  }

  private long coordinator(String attribute) {
    return jmx.attribute(bean("coordinator-metrics", ""), attribute).longValue();
  }

  private static ObjectName bean(String type, String keys) {
    return RemoteJmx.name("io.floe:type=" + type + ",connector=" + NAME + keys);
  }

  /** A metric's value, or null while its MBean is not (yet) registered. */
  private static Long safely(java.util.function.LongSupplier metric) {
    try {
      return metric.getAsLong();
    } catch (IllegalStateException e) {
      return null;
    }
  }

  private static void await(String what, Await.Condition condition) {
    Await.until(what, CONVERGE, condition);
  }

  private static long dataFileBytes(Table table) throws java.io.IOException {
    long bytes = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        bytes += task.file().fileSizeInBytes();
      }
    }
    return bytes;
  }

  @Test
  void theMetricsCountWhatWasSentFollowFreshnessAndLeaveWithTheConnector() throws Exception {
    long logStart = worker.logFile().mark();
    broker.createTopic(TOPIC, 2);
    TableOracle oracle = new TableOracle(catalog, java.util.List.of(TABLE));
    sendOrders(0, 200);
    worker.rest().putConnector(NAME, connector(TOPIC, TABLE));
    worker.rest().awaitRunning(NAME, 1, Duration.ofSeconds(60));
    await("200 rows", () -> oracle.rowCount() == 200);

    // bad records on top: 3 tombstones, 2 orders whose qty is no number (dead-lettered)
    send(0, null);
    send(1, null);
    send(0, null);
    send(0, "{\"id\":-1,\"qty\":\"many\"}");
    send(1, "{\"id\":-2,\"qty\":\"few\"}");
    sendOrders(200, 300);
    await("300 rows", () -> oracle.rowCount() == 300);
    await("the table metrics of the last commit", () -> table("records-committed") == 300);

    Table table = catalog.loadTable(TableIdentifier.parse(TABLE));
    Snapshot snapshot = table.currentSnapshot();
    assertThat(task("records-received")).isEqualTo(305);
    assertThat(task("records-written")).isEqualTo(300);
    assertThat(task("records-skipped")).isEqualTo(3);
    assertThat(task("records-dead-lettered")).isEqualTo(2);
    assertThat(task("conversion-errors")).isEqualTo(2);
    assertThat(task("schema-changes")).isZero();
    assertThat(task("bytes-written")).isEqualTo(dataFileBytes(table));
    assertThat(task("open-files")).isZero();
    assertThat(task("memory-budget-bytes")).isPositive();

    assertThat(table("snapshot-id")).isEqualTo(snapshot.snapshotId());
    long floeSnapshots = 0;
    for (Snapshot s : table.snapshots()) {
      floeSnapshots += s.summary().containsKey("floe.commit-id") ? 1 : 0;
    }
    assertThat(table("commits")).isEqualTo(floeSnapshots);
    assertRetriedAttemptsAndPartialCyclesAreCountedAsLogged(logStart, table);
    assertThat(table("data-files"))
        .isEqualTo(Long.parseLong(snapshot.summary().get("total-data-files")));
    assertThat(table("average-file-bytes")).isPositive();
    assertThat(table("deleted-rows-per-mille")).isZero();
    assertThat(table("last-commit-records"))
        .isEqualTo(Long.parseLong(snapshot.summary().get("added-records")));
    assertThat(table("last-commit-files"))
        .isEqualTo(Long.parseLong(snapshot.summary().get("added-data-files")));
    String group = "connect-" + NAME;
    assertThat(snapshot.summary())
        .containsEntry("floe.connector", NAME)
        .containsKey("floe.commit-id")
        .containsKey("floe.source-offsets." + group)
        .containsKey("floe.control-offsets." + group)
        .containsEntry("floe.valid-through-ms." + group, Long.toString(table("valid-through-ms")));

    assertThat(coordinator("cycles-started")).isGreaterThanOrEqualTo(floeSnapshots);
    assertThat(coordinator("cycles-completed")).isGreaterThanOrEqualTo(floeSnapshots);
    assertThat(coordinator("last-cycle-workers-answered")).isEqualTo(1);
    assertThat(coordinator("last-cycle-partitions-expected")).isEqualTo(2);

    // the same counts in Connect's own metrics (plugin metrics, Kafka 4.1+)
    ObjectName plugin = RemoteJmx.name("kafka.connect:type=plugins,connector=" + NAME + ",task=0");
    assertThat(jmx.attribute(plugin, "records-received").longValue()).isEqualTo(305);
    assertThat(jmx.attribute(plugin, "records-dead-lettered").longValue()).isEqualTo(2);

    // one log line per table commit, with the snapshot and its source offset ranges
    assertThat(worker.logFile().textSince(logStart))
        .contains(
            "Committed table "
                + TABLE
                + ": snapshot "
                + snapshot.snapshotId()
                + ", commit "
                + snapshot.summary().get("floe.commit-id"))
        .containsPattern("source offsets metered-0 \\[\\d+, \\d+\\)");

    // the source stops: the watermark stays, so the freshness lag grows
    long watermark = table("valid-through-ms");
    long quietLag = table("freshness-lag-ms");
    long cycles = coordinator("cycles-completed");
    Ports.sleep(Duration.ofMillis(2 * INTERVAL_MS));
    // evidence that commit cycles ran in the quiet time, before asserting that nothing moved
    await("a commit cycle without new records", () -> coordinator("cycles-completed") > cycles);
    long laterLag = table("freshness-lag-ms");
    assertThat(table("valid-through-ms")).isEqualTo(watermark);
    assertThat(laterLag).isGreaterThanOrEqualTo(quietLag + 2 * INTERVAL_MS - 500);

    // new records: the next commit moves the watermark and the lag drops
    long commits = table("commits");
    sendOrders(300, 350);
    await("350 rows", () -> oracle.rowCount() == 350);
    await("the commit of the new records", () -> table("records-committed") == 350);
    assertThat(table("commits")).isGreaterThan(commits);
    assertThat(table("valid-through-ms")).isGreaterThan(watermark);
    assertThat(table("freshness-lag-ms")).isLessThan(laterLag);
    assertThat(task("records-received")).isEqualTo(355);

    // a restarted task: new counts, the same MBeans, the table's last commit shown at once
    long lastWatermark = table("valid-through-ms");
    long lastSnapshot = table("snapshot-id");
    assertThat(worker.rest().send("POST", "/connectors/" + NAME + "/tasks/0/restart", null).ok())
        .isTrue();
    await(
        "the restarted task", () -> Long.valueOf(0).equals(safely(() -> task("records-received"))));
    await(
        "the restarted coordinator",
        () -> Long.valueOf(lastSnapshot).equals(safely(() -> table("snapshot-id"))));
    assertThat(table("valid-through-ms")).isEqualTo(lastWatermark);
    assertThat(table("commits")).isZero();
    assertThat(jmx.names("io.floe:connector=" + NAME + ",*")).hasSize(3);

    // the connector goes: so do its MBeans, Floe's and Connect's
    worker.rest().deleteConnector(NAME);
    await(
        "the connector's MBeans to go",
        () ->
            jmx.names("io.floe:connector=" + NAME + ",*").isEmpty()
                && jmx.names("kafka.connect:type=plugins,connector=" + NAME + ",*").isEmpty());
  }

  /**
   * A commit attempt may fail and be retried (a conflict, or a catalog slow to answer on a loaded
   * machine), and a cycle may time out and commit what arrived; neither loses or duplicates a row
   * (the caller counts them). Each failed attempt is counted once and logged once, and the cycle it
   * tried to commit is in the table: a commit that failed for good is not. Manifests are found
   * already committed only after an attempt whose outcome was unknown. Each partial commit is
   * counted and its log line says so.
   */
  private void assertRetriedAttemptsAndPartialCyclesAreCountedAsLogged(long logStart, Table table) {
    long failures = table("commit-failures");
    long partial = table("partial-commits");
    Pattern failedAttempt =
        Pattern.compile("Commit (\\S+) of tables \\[" + Pattern.quote(TABLE) + "\\] failed(.*)");
    Pattern partialCommit =
        Pattern.compile(
            "Committed table " + Pattern.quote(TABLE) + ": .*\\(partial: the cycle timed out\\)");
    List<String> failedCycles = new ArrayList<>();
    boolean[] unknownOutcome = {false};
    // each is logged as it is counted: the lines are a write to the log file away
    Await.until(
        "the log lines of "
            + failures
            + " failed commit attempts and "
            + partial
            + " partial commits",
        Duration.ofSeconds(30),
        () -> {
          failedCycles.clear();
          unknownOutcome[0] = false;
          String log = worker.logFile().textSince(logStart);
          Matcher failed = failedAttempt.matcher(log);
          while (failed.find()) {
            failedCycles.add(failed.group(1));
            unknownOutcome[0] |= failed.group(2).startsWith(" with an unknown outcome");
          }
          return failedCycles.size() == failures
              && partialCommit.matcher(log).results().count() == partial;
        });
    Set<String> committedCycles = new HashSet<>();
    table.snapshots().forEach(s -> committedCycles.add(s.summary().get("floe.commit-id")));
    assertThat(committedCycles).as("cycles of the failed attempts").containsAll(failedCycles);
    assertThat(table("commit-failures")).isEqualTo(failures);
    if (!unknownOutcome[0]) {
      assertThat(table("manifests-already-committed")).isZero();
    }
  }

  @Test
  void onConnect39TheMBeansWorkWithoutPluginMetrics() throws Exception {
    String name = "metered-39";
    String topic = "metered39";
    int jmxPort = Ports.free();
    broker.createTopic(topic, 1);
    try (ConnectWorker old =
            ConnectWorker.start(
                broker,
                PluginInstall.pluginPath(),
                new ConnectWorker.Options()
                    .runtime(KafkaRuntime.KAFKA_3_9)
                    .groupId("connect-39")
                    .jvmOptions(RemoteJmx.jvmOptions(jmxPort)));
        RemoteJmx oldJmx = RemoteJmx.connect(jmxPort)) {
      Map<String, String> config = connector(topic, "db." + topic);
      old.rest().putConnector(name, config);
      old.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
      for (int id = 0; id < 20; id++) {
        producer
            .send(new ProducerRecord<>(topic, 0, "k", "{\"id\":" + id + ",\"qty\":1}"))
            .get(30, TimeUnit.SECONDS);
      }
      TableOracle oracle = new TableOracle(catalog, java.util.List.of("db." + topic));
      await("20 rows", () -> oracle.rowCount() == 20);
      ObjectName task = RemoteJmx.name("io.floe:type=task-metrics,connector=" + name + ",task=0");
      await("the counts", () -> oldJmx.attribute(task, "records-written").longValue() == 20);
      assertThat(oldJmx.attribute(task, "records-received").longValue()).isEqualTo(20);
      // the table's MBean follows its first commit, a moment after the rows are visible
      await(
          "the task, coordinator and table MBeans",
          () -> oldJmx.names("io.floe:connector=" + name + ",*").size() == 3);
      assertThat(oldJmx.names("kafka.connect:type=plugins,*")).isEmpty();
      old.rest().deleteConnector(name);
      await(
          "the connector's MBeans to go",
          () -> oldJmx.names("io.floe:connector=" + name + ",*").isEmpty());
    }
  }
}
