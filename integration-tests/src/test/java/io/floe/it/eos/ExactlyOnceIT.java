/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.connect.control.EventCodec;
import io.floe.connect.control.EventType;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.LogFile;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exactly once on the real stack: a KRaft broker, a two-worker Connect cluster running the plugin
 * from the zip, and a REST catalog. Every test checks exact oracles ({@link TableOracle}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class ExactlyOnceIT {
  private static final long INTERVAL_MS = 2000;
  private static final Duration CONVERGE = Duration.ofSeconds(120);

  /** Records per second of the live traffic. */
  private static final int RATE = 2000;

  private static final Pattern COMMIT_FAILED =
      Pattern.compile("Commit (\\S+) of tables \\S.* failed");
  private static final Pattern FENCED = Pattern.compile("was fenced");

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker1;
  private ConnectWorker worker2;
  private JmxWorkers workers;
  private OrderEvents events;
  private Admin admin;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /** The shared broker; a catalog and workers of its own, which it fails, kills and freezes. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
    workers = new JmxWorkers(services, broker, "eos");
    worker1 = startWorker();
    worker2 = startWorker();
    events = services.own(new OrderEvents(broker.bootstrapServers()));
    admin = services.own(broker.admin());
  }

  private ConnectWorker startWorker() {
    return workers.start();
  }

  /**
   * The pending manifests that the coordinator on {@code host} found already in connector {@code
   * name}'s tables, and so did not commit again (its {@code manifests-already-committed} metrics; 0
   * while it runs no coordinator of the connector).
   */
  private long manifestsAlreadyCommitted(ConnectWorker host, String name) throws IOException {
    return tableMetric(host, name, "manifests-already-committed");
  }

  private long tableMetric(ConnectWorker host, String name, String metric) throws IOException {
    return workers.tableMetric(host, name, metric);
  }

  /** Waits until the coordinator on {@code host} skips pending manifests its tables hold. */
  private void awaitManifestsAlreadyCommitted(ConnectWorker host, String name, long before) {
    Await.until(
        "the coordinator to find pending manifests already committed",
        CONVERGE,
        () -> manifestsAlreadyCommitted(host, name),
        skipped -> skipped > before);
  }

  /**
   * The cycles that connector {@code name}'s two tables hold now (none of a table the connector has
   * not created yet).
   */
  private Set<String> committedCycles(String name) {
    Set<String> cycles = new HashSet<>();
    for (String table : List.of(name + "_a", name + "_b")) {
      if (catalog.tableExists(TableIdentifier.parse("db." + table))) {
        cycles.addAll(commitIds(table));
      }
    }
    cycles.remove(null);
    return cycles;
  }

  /** Waits until a cycle that is not in {@code before} is committed to one of the tables. */
  private void awaitNewCycleCommitted(String name, Set<String> before) {
    Await.until(
        "a new cycle committed to the tables of " + name,
        CONVERGE,
        () -> committedCycles(name),
        cycles -> !before.containsAll(cycles));
  }

  /** Waits until one more cycle is committed to one of the tables. */
  private void awaitNewCycleCommitted(String name) {
    awaitNewCycleCommitted(name, committedCycles(name));
  }

  /** A test that fails leaves its connector behind: delete it, so it loads no later test. */
  @AfterEach
  void deleteConnectors() {
    ConnectRest.Response connectors = worker1.rest().send("GET", "/connectors", null);
    if (connectors.ok() && connectors.body() != null) {
      for (JsonNode name : connectors.body()) {
        worker1.rest().deleteConnector(name.asText());
      }
    }
  }

  private Map<String, String> connector(String name, String topic, int tasks) {
    Map<String, String> config =
        TwoTableConnector.config(
            name, topic, tasks, rest.clientProperties(), broker.bootstrapServers(), INTERVAL_MS);
    config.put("iceberg.table.db." + name + "_a.partition-by", "day(ts)");
    return config;
  }

  private TableOracle oracle(String name) {
    return TwoTableConnector.oracle(catalog, name);
  }

  private static void await(String what, LongSupplier actual, long expected, Duration timeout)
      throws InterruptedException {
    TwoTableConnector.await(what, actual, expected, timeout);
  }

  @Test
  void steadyStateWritesEveryRecordOnceIntoTwoTablesWithSomePartitionsIdle() throws Exception {
    String name = "steady";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));

    // partition 3 stays idle throughout
    events.send(name, 3, 0, 3000);
    TableOracle oracle = oracle(name);
    await("rows in the tables", oracle::rowCount, 3000, CONVERGE);

    long sent = System.currentTimeMillis();
    events.send(name, 3, 3000, 3001);
    await("rows after one more record", oracle::rowCount, 3001, CONVERGE);
    long latencyMs = System.currentTimeMillis() - sent;
    System.out.printf(
        "produce-to-visible latency: %d ms (interval %d ms)%n", latencyMs, INTERVAL_MS);
    assertThat(latencyMs).as("latency from produce to visible").isLessThan(INTERVAL_MS + 8000);

    oracle.assertExactlyOnce(admin, "connect-" + name, name, 3001);
    Table a = catalog.loadTable(TableIdentifier.parse("db." + name + "_a"));
    assertThat(a.spec().fields()).hasSize(1);
    assertThat(a.spec().fields().get(0).transform().toString()).isEqualTo("day");
    assertThat(catalog.loadTable(TableIdentifier.parse("db." + name + "_b")).spec())
        .isEqualTo(PartitionSpec.unpartitioned());
    Snapshot snapshot = a.currentSnapshot();
    assertThat(snapshot.summary())
        .containsKey("floe.commit-id")
        .containsKey("floe.control-offsets.connect-" + name)
        .containsKey("floe.source-offsets.connect-" + name)
        .containsKey("floe.valid-through-ms.connect-" + name);
    // every snapshot names its cycle, no cycle is committed twice to a table, and the cycles
    // that wrote to both tables committed them together (one REST transaction per cycle)
    List<String> idsA = commitIds(name + "_a");
    List<String> idsB = commitIds(name + "_b");
    assertThat(idsA).doesNotContainNull().doesNotHaveDuplicates();
    assertThat(idsB).doesNotContainNull().doesNotHaveDuplicates();
    assertThat(idsA).containsAnyElementsOf(idsB);
    worker1.rest().deleteConnector(name);
  }

  /**
   * The coordinator expires snapshots after every cycle (interval 0, none older than 0 ms kept
   * beyond the newest 2) while records flow into both tables: each table ends with at most 2
   * snapshots, every record in it exactly once, every file it references still there.
   */
  @Test
  void theCoordinatorExpiresSnapshotsAsItGoesAndEveryRecordLandsOnce() throws Exception {
    String name = "expiring";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.maintenance.interval-ms", "0");
    config.put("iceberg.maintenance.snapshot-max-age-ms", "0");
    config.put("iceberg.maintenance.min-snapshots-to-keep", "2");
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    long sent;
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      Thread.sleep(5 * INTERVAL_MS);
      sent = producer.stop();
    }
    await("rows while snapshots expire", oracle::rowCount, sent, CONVERGE);

    oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
    for (String table : List.of(name + "_a", name + "_b")) {
      TableIdentifier id = TableIdentifier.parse("db." + table);
      // the expiry runs right after each commit: the last commit may be seen before it
      Await.until(
          "snapshots of " + table + " to be 2 at most",
          CONVERGE,
          () -> snapshotCount(id),
          snapshots -> snapshots <= 2);
      Table loaded = catalog.loadTable(id);
      for (org.apache.iceberg.FileScanTask task : loaded.newScan().planFiles()) {
        assertThat(loaded.io().newInputFile(task.file().location()).exists()).isTrue();
      }
    }
    assertThat(
            tableMetric(worker1, name, "snapshots-expired")
                + tableMetric(worker2, name, "snapshots-expired"))
        .as("snapshots the coordinator expired")
        .isPositive();
    worker1.rest().deleteConnector(name);
  }

  private List<String> commitIds(String table) {
    List<String> ids = new ArrayList<>();
    for (Snapshot snapshot : catalog.loadTable(TableIdentifier.parse("db." + table)).snapshots()) {
      ids.add(snapshot.summary().get("floe.commit-id"));
    }
    return ids;
  }

  @Test
  void killingAWorkerMidStreamLosesAndDuplicatesNothing() throws Exception {
    String name = "killed";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);

    events.send(name, 4, 0, 2000);
    CompletableFuture<Void> rest =
        CompletableFuture.runAsync(
            () -> {
              for (int batch = 0; batch < 10; batch++) {
                events.send(name, 4, 2000 + batch * 400L, 2000 + (batch + 1) * 400L);
                sleep(400);
              }
            });
    Thread.sleep(1500);
    worker2.kill();
    rest.get();
    await("rows after a worker was killed", oracle::rowCount, 6000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 6000);

    worker2 = startWorker();
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(90));
    events.send(name, 4, 6000, 7000);
    await("rows once the worker is back", oracle::rowCount, 7000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 7000);
    worker1.rest().deleteConnector(name);
  }

  @Test
  void restartsAndTaskCountChangesLoseAndDuplicateNothing() throws Exception {
    String name = "restarted";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);

    events.send(name, 4, 0, 1500);
    worker1.rest().send("POST", "/connectors/" + name + "/restart?includeTasks=true", null);
    events.send(name, 4, 1500, 3000);
    worker1.rest().putConnector(name, connector(name, name, 1));
    events.send(name, 4, 3000, 4500);
    worker1.rest().putConnector(name, connector(name, name, 3));
    events.send(name, 4, 4500, 6000);
    worker1.rest().send("PUT", "/connectors/" + name + "/pause", null);
    Thread.sleep(2000);
    worker1.rest().send("PUT", "/connectors/" + name + "/resume", null);
    events.send(name, 4, 6000, 7000);
    await("rows after restarts", oracle::rowCount, 7000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 7000);
    worker1.rest().deleteConnector(name);
  }

  /** Visits of a consumer to the cooperative group, at most, until a shared file was dropped. */
  private static final int MAX_VISITS = 5;

  @Test
  void aPartitionRevokedMidCycleByACooperativeRebalanceLosesAndDuplicatesNothing()
      throws Exception {
    String name = "coop";
    // three partitions: ids go round-robin, so every partition has rows of both tables, and a task
    // that owns two writes both partitions' rows of a table into one shared file
    broker.createTopic(name, 3);
    Map<String, String> config = connector(name, name, 2);
    config.put(
        "consumer.override.partition.assignment.strategy",
        CooperativeStickyAssignor.class.getName());
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    Pattern oneRevoked =
        Pattern.compile(
            "clientId=connector-consumer-"
                + name
                + "-\\d+, groupId=connect-"
                + name
                + "\\] Revoke previously assigned partitions \\["
                + name
                + "-\\d\\]");
    try (SteadyProducer producer = SteadyProducer.start(events, name, 3, 0, RATE)) {
      // the two tasks own the three partitions
      awaitEveryPartitionOwned(name, 2);
      awaitNewCycleCommitted(name);
      // another member joins the group: the cooperative assignor takes one partition from a task,
      // which keeps its other one. The case that matters is a revoked partition whose rows share
      // files with the kept one's; a revocation right after a hand-over has none, so the member
      // comes and goes until that case was seen (each visit must lose and duplicate nothing too)
      Pattern sharedAbandoned =
          Pattern.compile(
              "Abandoned \\d+ unreported records of table db\\."
                  + name
                  + "_. from source partitions \\["
                  + name
                  + "-\\d, "
                  + name
                  + "-\\d\\]");
      int shared = 0;
      for (int visit = 0; visit < MAX_VISITS && shared == 0; visit++) {
        long joinedAt = worker1.logFile().mark();
        long joinedAt2 = worker2.logFile().mark();
        try (KafkaConsumer<byte[], byte[]> member = visitingMember(name)) {
          member.subscribe(List.of(name));
          Instant deadline = Instant.now().plus(CONVERGE);
          while (member.assignment().isEmpty() && Instant.now().isBefore(deadline)) {
            member.poll(Duration.ofMillis(100));
          }
          assertThat(member.assignment()).as("partitions of the visiting member").hasSize(1);
          assertThat(
                  worker1.logFile().matches(oneRevoked, joinedAt).size()
                      + worker2.logFile().matches(oneRevoked, joinedAt2).size())
              .as("tasks that gave up one partition and kept the other")
              .isEqualTo(1);
          shared =
              worker1.logFile().matches(sharedAbandoned, joinedAt).size()
                  + worker2.logFile().matches(sharedAbandoned, joinedAt2).size();
          // the tasks go on committing without it
          awaitNewCycleCommitted(name);
        }
        // it leaves: the partition goes back to a task, which reads it from its committed offset
        awaitEveryPartitionOwned(name, 2);
        awaitNewCycleCommitted(name);
      }
      assertThat(shared)
          .as(
              "tables whose unreported rows of a revoked and a kept partition were dropped together")
          .isPositive();
      long sent = producer.stop();
      await("rows after the cooperative rebalances", oracle::rowCount, sent, CONVERGE);
      oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
      assertNoCycleTwiceInATable(name);
    }
    worker1.rest().deleteConnector(name);
  }

  /**
   * A plain consumer in the connector's group, with the cooperative assignor, that never commits:
   * it only takes partitions away from the tasks while it is a member.
   */
  private KafkaConsumer<byte[], byte[]> visitingMember(String name) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "connect-" + name);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "visiting-member-" + name);
    props.put(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Test
  void aHandOverThatFailsWithDataOnOnePartitionLosesNothingThatArrivesOnTheOther()
      throws Exception {
    String name = "handover";
    String control = "control-" + name;
    broker.createTopic(name, 2);
    Map<String, String> config = connector(name, name, 1);
    config.put("iceberg.control.topic", control);
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 2, 0, 200);
    await("rows before the failed hand-over", oracle::rowCount, 200, CONVERGE);
    LogFile log = workerOf(name, 0).logFile();
    String task = name + "-0";

    // from now on a hand-over with data does not fit the control topic: its transaction fails,
    // while cycles and empty answers still go through
    ControlSizes sizes = controlEventSizes(control);
    int limit = sizes.largestWithoutData() + RECORD_BATCH_OVERHEAD;
    assertThat(sizes.smallestDataWritten())
        .as("a hand-over's event against the largest other event that must still fit (%s)", sizes)
        .isGreaterThan(limit);
    // The scenario needs the first batch after the failure to hold records of the other
    // partition; a slow or idle poll in between can consume the rewind first. It is run again
    // (at most three times) until the log shows it happened.
    long sent = 200;
    boolean seen = false;
    for (int attempt = 1; attempt <= 3 && !seen; attempt++) {
      long mark = log.mark();
      setMaxMessageBytes(control, limit);
      try {
        events.sendTo(name, 0, sent, sent + 100);
        sent += 100;
        log.await(
            Pattern.compile("Task " + Pattern.quote(task) + " could not hand over cycle"),
            mark,
            CONVERGE);
      } finally {
        setMaxMessageBytes(control, null);
      }
      // records arrive on the partition that had no data in the failed hand-over: the first batch
      // after the failure is dropped, and both partitions must be read again
      events.sendTo(name, 1, sent, sent + 100);
      sent += 100;
      await("rows after failed hand-over " + attempt, oracle::rowCount, sent, CONVERGE);
      seen = !log.matches(rewindsBoth(task, name + "-1"), mark).isEmpty();
    }
    oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
    assertThat(seen)
        .as("a batch dropped after a failed hand-over of %s held the other partition", task)
        .isTrue();
    worker1.rest().deleteConnector(name);
  }

  private static Pattern rewindsBoth(String task, String partition) {
    return Pattern.compile(
        "Task " + Pattern.quote(task) + " rewinds \\{.*" + Pattern.quote(partition) + "=");
  }

  /** The 61-byte header of a record batch, and the most one record adds besides key and value. */
  private static final int RECORD_BATCH_OVERHEAD = 61 + 32;

  /**
   * Sizes (key and value) of the events on a control topic.
   *
   * @param largestWithoutData the largest event that hands over no data files: cycles started and
   *     completed, answers without data, commit requests
   * @param smallestDataWritten the smallest event that hands over data files
   */
  private record ControlSizes(int largestWithoutData, int smallestDataWritten) {}

  private ControlSizes controlEventSizes(String control) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    TopicPartition partition = new TopicPartition(control, 0);
    int without = 0;
    int withData = Integer.MAX_VALUE;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (consumer.position(partition) < end && Instant.now().isBefore(deadline)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.value() == null) {
            continue;
          }
          int size = Math.max(0, record.serializedKeySize()) + record.serializedValueSize();
          if (EventCodec.peekHeader(record.value()).is(EventType.DATA_WRITTEN)) {
            withData = Math.min(withData, size);
          } else {
            without = Math.max(without, size);
          }
        }
      }
    }
    return new ControlSizes(without, withData);
  }

  /** Sets the topic's {@code max.message.bytes}; null restores the broker default. */
  private void setMaxMessageBytes(String topic, Integer bytes) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    AlterConfigOp op =
        bytes == null
            ? new AlterConfigOp(
                new ConfigEntry("max.message.bytes", ""), AlterConfigOp.OpType.DELETE)
            : new AlterConfigOp(
                new ConfigEntry("max.message.bytes", Integer.toString(bytes)),
                AlterConfigOp.OpType.SET);
    admin
        .incrementalAlterConfigs(Map.of(resource, List.of(op)))
        .all()
        .get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** The worker running task {@code task} of the connector. */
  private ConnectWorker workerOf(String name, int task) {
    for (JsonNode status : worker1.rest().status(name).path("tasks")) {
      if (status.path("id").asInt() == task) {
        return status.path("worker_id").asText().endsWith(":" + worker1.restPort())
            ? worker1
            : worker2;
      }
    }
    throw new AssertionError("No task " + task + " of " + name);
  }

  @Test
  void killingTheCoordinatorsWorkerInsideATableCommitLosesAndDuplicatesNothing() throws Exception {
    killTheCoordinatorsWorkerInsideACommit("coordkill", false);
  }

  @Test
  void
      killingTheCoordinatorsWorkerAfterItsCommitLandedAndAnotherEngineExpiredItLosesAndDuplicatesNothing()
          throws Exception {
    killTheCoordinatorsWorkerInsideACommit("coordkilled", true);
  }

  /**
   * Records flow; the REST catalog holds the coordinator's next multi-table commit, either before
   * applying it or once applied (so the coordinator never commits its control-topic position for
   * it), while the test kills the worker running the coordinator. The survivor takes over and must
   * commit the cycle's data exactly once: again if it never landed, not again if it did. Once it
   * landed, an operator's maintenance job also rewrites one table's manifests and expires all but
   * its newest snapshot, so that no snapshot of that table holds the connector's marks any more.
   */
  private void killTheCoordinatorsWorkerInsideACommit(String name, boolean applied)
      throws Exception {
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker survivor = other(host);
      RestCatalogServer.HeldRequest commit =
          applied
              ? rest.holdApplied(RestCatalogServer.TRANSACTION_COMMIT)
              : rest.holdUnapplied(RestCatalogServer.TRANSACTION_COMMIT);
      commit.awaitHeld(CONVERGE);
      if (applied) {
        maintainElsewhere(TableIdentifier.of("db", name + "_a"));
      }
      Set<String> cyclesAtKill = committedCycles(name);
      host.kill();
      commit.release();
      try {
        // the survivor runs the coordinator now, and commits what it finds pending; what the
        // held commit applied it finds already committed
        awaitNewCycleCommitted(name, cyclesAtKill);
        if (applied) {
          awaitManifestsAlreadyCommitted(survivor, name, 0);
        }
        long sent = producer.stop();
        await("rows after the coordinator's worker was killed", oracle::rowCount, sent, CONVERGE);
        oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
        assertNoCycleTwiceInATable(name);
        survivor.rest().deleteConnector(name);
      } finally {
        restart(host);
      }
    } finally {
      rest.clearFaults();
    }
  }

  @Test
  void killingTheCoordinatorsWorkerInsideACompactionLosesAndDuplicatesNothingAndLeavesOrphans()
      throws Exception {
    killTheCoordinatorsWorkerInsideACompaction("compkill", false);
  }

  @Test
  void killingTheCoordinatorsWorkerAfterItsCompactionLandedLosesAndDuplicatesNothing()
      throws Exception {
    killTheCoordinatorsWorkerInsideACompaction("compkilled", true);
  }

  /**
   * Records flow into a connector that compacts table a after every commit and looks for orphan
   * files (a dry run) with a control topic of its own, kept 10 s. The REST catalog holds the
   * coordinator's first compaction commit, unapplied or applied, while the test kills the worker
   * running the coordinator (its tasks and its compaction die with it). The survivor takes over and
   * every record must land once. A compaction that never landed leaves its new files behind: the
   * survivor's dry run finds them once they are older than the topic's retention plus the commit
   * timeout and deletes nothing; with {@code delete}, it deletes them, and every file the tables
   * reference is still there.
   */
  private void killTheCoordinatorsWorkerInsideACompaction(String name, boolean applied)
      throws Exception {
    String control = name + "-control";
    broker.createTopic(control, 1, Map.of("retention.ms", "10000"));
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.control.topic", control);
    config.put("iceberg.maintenance.interval-ms", "0");
    config.put("iceberg.maintenance.expire-snapshots-enabled", "false");
    config.put("iceberg.maintenance.compaction.min-input-files", "2");
    config.put("iceberg.maintenance.orphan-files", "dry-run");
    config.put("iceberg.maintenance.orphan-files.min-age-ms", Long.toString(2 * INTERVAL_MS));
    config.put("iceberg.maintenance.orphan-files.interval-ms", "0");
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    TableIdentifier a = TableIdentifier.of("db", name + "_a");
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      RestCatalogServer.HeldRequest compaction =
          applied
              ? rest.holdApplied("/tables/" + name + "_a")
              : rest.holdUnapplied("/tables/" + name + "_a");
      compaction.awaitHeld(CONVERGE);
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker survivor = other(host);
      host.kill();
      compaction.release();
      try {
        awaitNewCycleCommitted(name);
        if (!applied) {
          // the dead coordinator's compaction files are orphans once old enough
          Await.until(
              "the survivor's dry run to find orphans",
              CONVERGE,
              () -> tableMetric(survivor, name, "orphan-files-found"),
              found -> found > 0);
          assertThat(unreferencedCompactionFiles(a))
              .as("compaction files no snapshot references, left by the dry run")
              .isNotEmpty();
          assertThat(tableMetric(survivor, name, "orphan-files-deleted")).isZero();
          config.put("iceberg.maintenance.orphan-files", "delete");
          survivor.rest().putConnector(name, config);
          Await.until(
              "the survivor to delete the orphans",
              CONVERGE,
              () -> tableMetric(survivor, name, "orphan-files-deleted"),
              deleted -> deleted > 0);
          assertThat(unreferencedCompactionFiles(a)).isEmpty();
        }
        long sent = producer.stop();
        await("rows after the compacting coordinator was killed", oracle::rowCount, sent, CONVERGE);
        oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
        assertNoCycleTwiceInATable(name);
        for (String table : List.of(name + "_a", name + "_b")) {
          Table loaded = catalog.loadTable(TableIdentifier.of("db", table));
          for (org.apache.iceberg.FileScanTask task : loaded.newScan().planFiles()) {
            assertThat(loaded.io().newInputFile(task.file().location()).exists())
                .as("file %s of %s", task.file().location(), table)
                .isTrue();
          }
        }
        if (applied) {
          assertThat(compactions(a)).as("compaction snapshots of table a").isPositive();
        }
        survivor.rest().deleteConnector(name);
      } finally {
        restart(host);
      }
    } finally {
      rest.clearFaults();
    }
  }

  /** Files the connector's compaction wrote under the table's location that no snapshot names. */
  private List<String> unreferencedCompactionFiles(TableIdentifier id) throws IOException {
    Table table = catalog.loadTable(id);
    Set<String> referenced = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (org.apache.iceberg.ManifestFile manifest : snapshot.dataManifests(table.io())) {
        try (var paths =
            org.apache.iceberg.ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
          paths.forEach(location -> referenced.add(localPath(location)));
        }
      }
    }
    try (var files = java.nio.file.Files.walk(java.nio.file.Path.of(localPath(table.location())))) {
      return files
          .filter(java.nio.file.Files::isRegularFile)
          .map(java.nio.file.Path::toString)
          .filter(file -> file.contains("floe-compaction-") && file.endsWith(".parquet"))
          .filter(file -> !referenced.contains(file))
          .toList();
    }
  }

  /** A location of the local warehouse as a file system path. */
  private static String localPath(String location) {
    return java.nio.file.Path.of(location.replaceFirst("^file:(//)?", "")).normalize().toString();
  }

  /** The snapshots of the table that replaced files (compactions). */
  private long compactions(TableIdentifier id) {
    long replaces = 0;
    for (Snapshot snapshot : catalog.loadTable(id).snapshots()) {
      replaces += "replace".equals(snapshot.operation()) ? 1 : 0;
    }
    return replaces;
  }

  /**
   * What Spark's {@code rewrite_manifests} and {@code expire_snapshots(retain_last => 1)} do to a
   * table: a snapshot without the connector's marks, then every older snapshot expired and the
   * files only they referenced deleted.
   */
  private void maintainElsewhere(TableIdentifier identifier) {
    Table table = catalog.loadTable(identifier);
    table.rewriteManifests().rewriteIf(manifest -> true).commit();
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();
    table.refresh();
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.currentSnapshot().summary()).doesNotContainKey("floe.commit-id");
  }

  @Test
  void aWorkerFrozenPastItsSessionTimeoutWhileACycleIsPendingIsFencedAndLosesNothing()
      throws Exception {
    frozenPastItsSessionTimeout("zombiew", false);
  }

  @Test
  void theCoordinatorsWorkerFrozenPastItsSessionTimeoutInsideACommitIsFencedAndLosesNothing()
      throws Exception {
    frozenPastItsSessionTimeout("zombie", true);
  }

  /**
   * Records flow at a steady rate into a 4-task connector on both workers. While the catalog holds
   * a cycle's commit (applied, its answer pending), so that no cycle starts, one worker is frozen
   * (SIGSTOP): the one running the coordinator, or the other one. It stays frozen past its session
   * timeout, so the other worker starts its tasks (and the coordinator). Once they own the frozen
   * worker's partitions, the commit is released: they answer the next cycle under the same task ids
   * and it is committed. Then the frozen worker is thawed: it still holds its old tasks, and the
   * first cycle it reads is that committed one. It must be fenced without changing anything the
   * tables hold.
   */
  private void frozenPastItsSessionTimeout(String name, boolean coordinatorHost) throws Exception {
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 4));
    worker1.rest().awaitRunning(name, 4, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker zombie = coordinatorHost ? host : other(host);
      ConnectWorker survivor = other(zombie);
      List<String> zombieTasks = tasksOn(name, zombie);
      LogFile zombieLog = zombie.logFile();
      LogFile survivorLog = survivor.logFile();
      RestCatalogServer.HeldRequest commit = rest.holdApplied(RestCatalogServer.TRANSACTION_COMMIT);
      commit.awaitHeld(CONVERGE);
      long frozenAt = survivorLog.mark();
      zombie.freeze();
      long thawedAt = zombieLog.mark();
      try {
        for (String task : zombieTasks) {
          survivorLog.await(workerStarted(task), frozenAt, Duration.ofSeconds(90));
        }
        awaitEveryPartitionOwned(name, 4);
        long releasedAt = survivorLog.mark();
        commit.release();
        // the new instances answer the next cycle, and it is committed
        for (String task : zombieTasks) {
          survivorLog.await(answeredWithData(task), releasedAt, CONVERGE);
        }
        awaitNewCycleCommitted(name);
      } finally {
        zombie.thaw();
      }
      // the zombie tried to hand over what it held, and was refused
      zombieLog.await(FENCED, thawedAt, Duration.ofSeconds(60));
      long sent = producer.stop();
      await("rows after the zombie came back", oracle::rowCount, sent, CONVERGE);
      oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
      assertNoCycleTwiceInATable(name);
      survivor.rest().deleteConnector(name);
    } finally {
      rest.clearFaults();
    }
  }

  private static Pattern answeredWithData(String task) {
    return Pattern.compile("Task " + Pattern.quote(task) + " answered cycle \\S+: \\d+ manifests");
  }

  /**
   * Waits until the connector's consumer group is stable with {@code members} owning a partition.
   */
  private void awaitEveryPartitionOwned(String name, int members) throws Exception {
    Await.until(
        "group connect-" + name + " spread over " + members,
        CONVERGE,
        () ->
            admin
                .describeConsumerGroups(List.of("connect-" + name))
                .all()
                .get(30, java.util.concurrent.TimeUnit.SECONDS)
                .get("connect-" + name),
        group ->
            group.groupState() == org.apache.kafka.common.GroupState.STABLE
                && group.members().size() == members
                && group.members().stream()
                    .allMatch(m -> !m.assignment().topicPartitions().isEmpty()));
  }

  private static Pattern workerStarted(String task) {
    return Pattern.compile("Worker of task " + Pattern.quote(task) + " started");
  }

  private static Pattern answered(String task) {
    return Pattern.compile("Task " + Pattern.quote(task) + " answered cycle");
  }

  /** The task ids ({@code <connector>-<n>}) of the connector's tasks on {@code worker}. */
  private List<String> tasksOn(String name, ConnectWorker worker) throws Exception {
    List<String> tasks = new ArrayList<>();
    for (JsonNode task : worker1.rest().status(name).path("tasks")) {
      if (task.path("worker_id").asText().endsWith(":" + worker.restPort())) {
        tasks.add(name + "-" + task.path("id").asText());
      }
    }
    assertThat(tasks).as("tasks of %s on %s", name, worker.rest().baseUrl()).isNotEmpty();
    return tasks;
  }

  private ConnectWorker other(ConnectWorker worker) {
    return worker == worker1 ? worker2 : worker1;
  }

  /**
   * Every snapshot of the connector's tables that adds rows names its cycle (a maintenance job's
   * rewrite adds none), and no cycle is in a table twice.
   */
  private void assertNoCycleTwiceInATable(String name) {
    for (String table : List.of(name + "_a", name + "_b")) {
      List<String> ids = new ArrayList<>();
      for (Snapshot snapshot :
          catalog.loadTable(TableIdentifier.parse("db." + table)).snapshots()) {
        if (!org.apache.iceberg.DataOperations.REPLACE.equals(snapshot.operation())) {
          ids.add(snapshot.summary().get("floe.commit-id"));
        }
      }
      assertThat(ids).as("cycles of table %s", table).doesNotContainNull().doesNotHaveDuplicates();
    }
  }

  /** Waits until the connector's tasks are spread over both workers. */
  private void awaitTasksOnBothWorkers(String name) throws Exception {
    Await.until(
        "workers running the tasks of " + name + " to be two",
        Duration.ofSeconds(60),
        () -> {
          java.util.Set<String> workers = new java.util.HashSet<>();
          for (var task : worker1.rest().status(name).path("tasks")) {
            workers.add(task.path("worker_id").asText());
          }
          return workers;
        },
        workers -> workers.size() == 2);
  }

  @Test
  void aCycleCommitsToAllItsTablesOrToNone() throws Exception {
    String name = "atomic";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the faults", oracle::rowCount, 1000, CONVERGE);
    awaitEveryPartitionOwned(name, 2);
    ConnectWorker coordinator = coordinatorHost(name);
    LogFile coordinatorLog = coordinator.logFile();
    TableIdentifier a = TableIdentifier.of("db", name + "_a");
    long snapshotsOfA = snapshotCount(a);

    // table b cannot be loaded or committed: the cycle's part for table a must wait for it
    long mark = coordinatorLog.mark();
    rest.failRequestsEndingWith("/tables/" + name + "_b");
    try {
      events.send(name, 4, 1000, 2000);
      String cycle = coordinatorLog.await(COMMIT_FAILED, mark, CONVERGE).group(1);
      // the retries fail too, and each leaves table a alone
      coordinatorLog.await(commitFailedAgain(cycle), mark, CONVERGE);
      assertThat(snapshotCount(a))
          .as("snapshots of table a while table b cannot be committed")
          .isEqualTo(snapshotsOfA);
    } finally {
      rest.clearFaults();
    }
    await("rows after the first fault", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);

    // the multi-table commit fails before the catalog applies it: the retry commits it
    int failures = rest.injectedFailures();
    mark = coordinatorLog.mark();
    rest.failBeforeApplying(RestCatalogServer.TRANSACTION_COMMIT, 1);
    events.send(name, 4, 2000, 3000);
    String unapplied = coordinatorLog.await(COMMIT_FAILED, mark, CONVERGE).group(1);
    await("rows after a commit failed unapplied", oracle::rowCount, 3000, CONVERGE);
    assertThat(rest.injectedFailures()).as("commits failed unapplied").isEqualTo(failures + 1);
    assertCycleInBothTablesOnce(name, unapplied);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 3000);

    // the commit lands, but the coordinator gets a 500: it must look, find it, and not commit
    // the cycle again
    long skippedBefore = manifestsAlreadyCommitted(coordinator, name);
    mark = coordinatorLog.mark();
    rest.failAfterApplying(RestCatalogServer.TRANSACTION_COMMIT, 1);
    events.send(name, 4, 3000, 4000);
    String ambiguous = coordinatorLog.await(COMMIT_FAILED, mark, CONVERGE).group(1);
    awaitManifestsAlreadyCommitted(coordinator, name, skippedBefore);
    await("rows after an ambiguous commit", oracle::rowCount, 4000, CONVERGE);
    assertThat(rest.injectedFailures()).as("commits failed once applied").isEqualTo(failures + 2);
    assertCycleInBothTablesOnce(name, ambiguous);
    assertNoCycleTwiceInATable(name);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 4000);
    worker1.rest().deleteConnector(name);
  }

  /**
   * As {@link #aCycleCommitsToAllItsTablesOrToNone}, with table b in upsert mode (keyed by id):
   * each round sends every id again, so table a appends every record and table b replaces its rows.
   * The cycle's transaction holds both tables' parts: a commit failed unapplied goes into both on
   * the retry, one that landed with a lost answer is found in both and not committed again, and
   * table b ends holding each of its ids once, from its last record.
   */
  @Test
  void aCycleCommitsToItsUpsertAndAppendTablesOrToNone() throws Exception {
    String name = "atomicupsert";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.table.db." + name + "_b.upsert-mode-enabled", "true");
    config.put("iceberg.table.db." + name + "_b.id-columns", "id");
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    // total-records counts the data files' rows, deleted ones too: 1000 more each round
    await("rows of the first round", oracle::rowCount, 1000, CONVERGE);
    awaitEveryPartitionOwned(name, 2);
    ConnectWorker coordinator = coordinatorHost(name);
    LogFile coordinatorLog = coordinator.logFile();
    int failures = rest.injectedFailures();

    // the transaction fails before the catalog applies it: the retry commits both tables' parts
    long mark = coordinatorLog.mark();
    rest.failBeforeApplying(RestCatalogServer.TRANSACTION_COMMIT, 1);
    events.send(name, 4, 0, 1000);
    String unapplied = coordinatorLog.await(COMMIT_FAILED, mark, CONVERGE).group(1);
    await("rows of the second round", oracle::rowCount, 2000, CONVERGE);
    assertThat(rest.injectedFailures()).as("commits failed unapplied").isEqualTo(failures + 1);
    assertCycleInBothTablesOnce(name, unapplied);
    assertUpsertAndAppendTables(name, 2);

    // the transaction lands, but the coordinator gets a 500: it finds it in both tables
    long skippedBefore = manifestsAlreadyCommitted(coordinator, name);
    mark = coordinatorLog.mark();
    rest.failAfterApplying(RestCatalogServer.TRANSACTION_COMMIT, 1);
    events.send(name, 4, 0, 1000);
    String ambiguous = coordinatorLog.await(COMMIT_FAILED, mark, CONVERGE).group(1);
    awaitManifestsAlreadyCommitted(coordinator, name, skippedBefore);
    await("rows of the third round", oracle::rowCount, 3000, CONVERGE);
    assertThat(rest.injectedFailures()).as("commits failed once applied").isEqualTo(failures + 2);
    assertCycleInBothTablesOnce(name, ambiguous);
    assertNoCycleTwiceInATable(name);
    assertUpsertAndAppendTables(name, 3);
    worker1.rest().deleteConnector(name);
  }

  /**
   * After {@code rounds} rounds of ids 0 to 999 over 4 partitions: table a holds every even id's
   * record of every round once, table b each odd id once, from the last round's record.
   */
  private void assertUpsertAndAppendTables(String name, int rounds) {
    TableOracle appended = new TableOracle(catalog, List.of("db." + name + "_a"));
    List<TableOracle.Origin> origins = appended.origins();
    assertThat(origins).as("rows of the append table").hasSize(500 * rounds);
    assertThat(new HashSet<>(origins)).as("distinct origins").hasSize(500 * rounds);
    appended.assertNoFileInTwoSnapshots();
    Map<Long, Long> offsets = new HashMap<>();
    Table upserts = catalog.loadTable(TableIdentifier.of("db", name + "_b"));
    try (CloseableIterable<Record> rows = IcebergGenerics.read(upserts).build()) {
      for (Record row : rows) {
        Record kafka = (Record) row.getField("_kafka");
        assertThat(offsets.put((Long) row.getField("id"), (Long) kafka.getField("offset")))
            .as("rows of id %s in the upsert table", row.getField("id"))
            .isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<Long, Long> expected = new HashMap<>();
    for (long id = 1; id < 1000; id += 2) {
      // the round's 1000 ids go round-robin over 4 partitions: 250 records a partition a round
      expected.put(id, 250L * (rounds - 1) + id / 4);
    }
    assertThat(offsets)
        .as("the upsert table's ids and the offsets of their rows")
        .isEqualTo(expected);
  }

  private static Pattern commitFailedAgain(String cycle) {
    return Pattern.compile(
        "Commit " + Pattern.quote(cycle) + " of tables .* failed.*retrying in [1-9][0-9]{3,} ms");
  }

  /** {@code cycle} went into both tables of the connector, once each. */
  private void assertCycleInBothTablesOnce(String name, String cycle) {
    for (String table : List.of(name + "_a", name + "_b")) {
      assertThat(commitIds(table))
          .as("snapshots of cycle %s in table %s", cycle, table)
          .filteredOn(cycle::equals)
          .hasSize(1);
    }
  }

  private long snapshotCount(TableIdentifier table) {
    Table loaded = catalog.loadTable(table);
    long count = 0;
    for (Snapshot ignored : loaded.snapshots()) {
      count++;
    }
    return count;
  }

  @Test
  void aCatalogOutageDelaysCommitsAndLosesAndDuplicatesNothing() throws Exception {
    String name = "outage";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the outage", oracle::rowCount, 1000, CONVERGE);

    rest.stopServing();
    try {
      events.send(name, 4, 1000, 3000);
      Thread.sleep(4 * INTERVAL_MS);
    } finally {
      rest.resumeServing();
    }
    await("rows after the outage", oracle::rowCount, 3000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 3000);
    assertThat(worker1.rest().status(name).path("tasks"))
        .allSatisfy(task -> assertThat(task.path("state").asText()).isEqualTo("RUNNING"));
    worker1.rest().deleteConnector(name);
  }

  /**
   * A task that starts (a deployment, a rebalance) while the catalog is out of reach waits for it
   * within the retry timeout, as a running task waits for a failing commit, instead of failing and
   * needing an operator to restart it.
   */
  @Test
  void aTaskStartedWhileTheCatalogIsOutOfReachWaitsForItAndLosesNothing() throws Exception {
    String name = "late";
    broker.createTopic(name, 4);
    events.send(name, 4, 0, 1000);
    Pattern waiting = Pattern.compile("sink task \\d+ started without its catalog");
    long mark1 = worker1.logFile().mark();
    long mark2 = worker2.logFile().mark();
    rest.stopServing();
    try {
      worker1.rest().putConnector(name, connector(name, name, 2));
      Instant deadline = Instant.now().plus(CONVERGE);
      while (worker1.logFile().matches(waiting, mark1).size()
              + worker2.logFile().matches(waiting, mark2).size()
          < 2) {
        assertThat(Instant.now()).as("both tasks waiting for the catalog").isBefore(deadline);
        sleep(200);
      }
      events.send(name, 4, 1000, 2000);
      Thread.sleep(3 * INTERVAL_MS);
      assertThat(worker1.rest().status(name).path("tasks"))
          .hasSize(2)
          .allSatisfy(task -> assertThat(task.path("state").asText()).isEqualTo("RUNNING"));
    } finally {
      rest.resumeServing();
    }
    TableOracle oracle = oracle(name);
    await("rows once the catalog answers", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);
    assertThat(worker1.rest().status(name).path("tasks"))
        .allSatisfy(task -> assertThat(task.path("state").asText()).isEqualTo("RUNNING"));
    worker1.rest().deleteConnector(name);
  }

  @Test
  void aCatalogOutagePastTheRetryTimeoutFailsTheTaskReadablyAndARestartResumesExactlyOnce()
      throws Exception {
    String name = "budget";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.control.commit.retry-timeout-ms", "4000");
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the outage", oracle::rowCount, 1000, CONVERGE);

    rest.stopServing();
    JsonNode failed;
    try {
      events.send(name, 4, 1000, 2000);
      failed = worker1.rest().awaitTaskFailed(name, Duration.ofSeconds(90));
    } finally {
      rest.resumeServing();
    }
    // the coordinator's commits give up; or first, a task that (re)started during the outage and
    // waited for the catalog gives up: both name the setting, and lose nothing
    String trace = failed.path("trace").asText();
    assertThat(trace).contains("iceberg.control.commit.retry-timeout-ms=4000");
    if (trace.contains("Commits have failed for")) {
      assertThat(trace).contains("are not committed (their data files are kept");
    } else {
      assertThat(trace)
          .contains("Iceberg catalog 'iceberg' has been out of reach since")
          .contains("a restart tries again");
    }

    assertThat(worker1.rest().restartFailedTasks(name)).isNotEmpty();
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    await("rows after the restart", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);
    worker1.rest().deleteConnector(name);
  }

  /**
   * The worker running the connector's coordinator: the one whose log shows the latest commit of
   * the connector's tables (waiting for a first one).
   */
  /**
   * The worker whose task runs connector {@code name}'s coordinator: the only one whose coordinator
   * metrics show a finished cycle (a coordinator that stops unregisters them).
   */
  private ConnectWorker coordinatorHost(String name) {
    return Await.until(
            "one worker running the coordinator of " + name,
            CONVERGE,
            () ->
                java.util.stream.Stream.of(worker1, worker2)
                    .filter(worker -> cyclesCompleted(worker, name) > 0)
                    .toList(),
            hosts -> hosts.size() == 1)
        .get(0);
  }

  /**
   * The cycles the coordinator of {@code name} on {@code worker} finished, 0 if none runs there.
   */
  private long cyclesCompleted(ConnectWorker worker, String name) {
    try (RemoteJmx jmx = workers.jmx(worker)) {
      long cycles = 0;
      for (ObjectName bean :
          jmx.names("io.floe:type=coordinator-metrics,connector=" + name + ",*")) {
        cycles += jmx.attribute(bean, "cycles-completed").longValue();
      }
      return cycles;
    } catch (IOException | RuntimeException e) {
      return 0; // a worker that is down runs no coordinator
    }
  }

  private void restart(ConnectWorker dead) {
    if (dead == worker1) {
      worker1 = startWorker();
    } else {
      worker2 = startWorker();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
