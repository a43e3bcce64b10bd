/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.RestCatalogServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Exactly once on the real stack: a KRaft broker, a two-worker Connect cluster running the plugin
 * from the zip, and a REST catalog. Every test checks exact oracles ({@link TableOracle}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactlyOnceIT {
  private static final long INTERVAL_MS = 2000;
  private static final Duration CONVERGE = Duration.ofSeconds(120);

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker1;
  private ConnectWorker worker2;
  private OrderEvents events;
  private Admin admin;

  @BeforeAll
  void startStack() {
    broker = KafkaBroker.start();
    rest = RestCatalogServer.withLocalWarehouse();
    catalog = CatalogUtil.buildIcebergCatalog("test", rest.clientProperties(), null);
    worker1 = startWorker();
    worker2 = startWorker();
    events = new OrderEvents(broker.bootstrapServers());
    admin = broker.admin();
  }

  private ConnectWorker startWorker() {
    return ConnectWorker.start(
        broker,
        PluginInstall.pluginPath(),
        new ConnectWorker.Options()
            .groupId("eos")
            .workerProperty("consumer.session.timeout.ms", "10000")
            .workerProperty("consumer.heartbeat.interval.ms", "1000"));
  }

  @AfterAll
  void stopStack() throws Exception {
    for (AutoCloseable service :
        new AutoCloseable[] {
          admin, events, worker2, worker1, (AutoCloseable) catalog, rest, broker
        }) {
      if (service != null) {
        service.close();
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

  @Test
  void killingTheWorkerThatRunsTheCoordinatorMidStreamLosesAndDuplicatesNothing() throws Exception {
    String name = "coordkill";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 2000);
    await("rows before the kill", oracle::rowCount, 2000, CONVERGE);

    ConnectWorker host = coordinatorHost(name);
    CompletableFuture<Void> more =
        CompletableFuture.runAsync(
            () -> {
              for (int batch = 0; batch < 8; batch++) {
                events.send(name, 4, 2000 + batch * 500L, 2000 + (batch + 1) * 500L);
                sleep(300);
              }
            });
    // kill it while cycles are being answered and committed
    Thread.sleep(INTERVAL_MS + 300);
    host.kill();
    more.get();
    ConnectWorker survivor = host == worker1 ? worker2 : worker1;
    await("rows after the coordinator's worker was killed", oracle::rowCount, 6000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 6000);
    restart(host);
    survivor.rest().deleteConnector(name);
  }

  @Test
  void aFrozenCoordinatorThatComesBackAfterBeingReplacedCommitsNothingTwice() throws Exception {
    zombieCommitsNothingTwice("zombie", true);
  }

  @Test
  void aFrozenWorkerThatComesBackAfterBeingReplacedCommitsNothingTwice() throws Exception {
    zombieCommitsNothingTwice("zombiew", false);
  }

  /**
   * Freezes (SIGSTOP) the worker that runs the coordinator, or the other one, right after a cycle
   * may have started, lets the survivor take over its tasks, then thaws it: whatever the zombie
   * still holds must not reach the tables.
   */
  private void zombieCommitsNothingTwice(String name, boolean coordinatorHost) throws Exception {
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the freeze", oracle::rowCount, 1000, CONVERGE);

    ConnectWorker host = coordinatorHost(name);
    ConnectWorker zombie = coordinatorHost ? host : (host == worker1 ? worker2 : worker1);
    ConnectWorker survivor = zombie == worker1 ? worker2 : worker1;
    // frozen right after it may have started a cycle: its tasks (and coordinator) hold state
    events.send(name, 4, 1000, 2000);
    Thread.sleep(INTERVAL_MS);
    zombie.freeze();
    events.send(name, 4, 2000, 3000);
    // the group evicts it and the survivor takes over its tasks (and the coordinator)
    await("rows written by the survivor", oracle::rowCount, 3000, CONVERGE);
    zombie.thaw();
    events.send(name, 4, 3000, 4000);
    await("rows after the zombie came back", oracle::rowCount, 4000, CONVERGE);
    Thread.sleep(3 * INTERVAL_MS);
    assertThat(oracle.rowCount()).as("rows once the zombie had time to act").isEqualTo(4000);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 4000);
    survivor.rest().deleteConnector(name);
  }

  /** Waits until the connector's tasks are spread over both workers. */
  private void awaitTasksOnBothWorkers(String name) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    java.util.Set<String> workers = new java.util.HashSet<>();
    while (Instant.now().isBefore(deadline)) {
      workers.clear();
      for (var task : worker1.rest().status(name).path("tasks")) {
        workers.add(task.path("worker_id").asText());
      }
      if (workers.size() == 2) {
        return;
      }
      Thread.sleep(250);
    }
    assertThat(workers).as("workers running the tasks of %s", name).hasSize(2);
  }

  @Test
  void aCycleCommitsToAllItsTablesOrToNone() throws Exception {
    String name = "atomic";
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the fault", oracle::rowCount, 1000, CONVERGE);
    TableIdentifier a = TableIdentifier.of("db", name + "_a");
    long snapshotsOfA = snapshotCount(a);

    // table b cannot be loaded or committed: the cycle's part for table a must wait for it
    rest.failRequestsEndingWith("/tables/" + name + "_b");
    try {
      events.send(name, 4, 1000, 2000);
      Thread.sleep(4 * INTERVAL_MS);
      assertThat(snapshotCount(a))
          .as("snapshots of table a while table b cannot be committed")
          .isEqualTo(snapshotsOfA);
    } finally {
      rest.clearFaults();
    }
    await("rows after the fault", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);
    worker1.rest().deleteConnector(name);
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
    assertThat(failed.path("trace").asText())
        .contains("Commits have failed for")
        .contains("iceberg.control.commit.retry-timeout-ms=4000")
        .contains("are not committed (their data files are kept");

    assertThat(worker1.rest().restartFailedTasks(name)).isNotEmpty();
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    await("rows after the restart", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);
    worker1.rest().deleteConnector(name);
  }

  /** The worker whose task owns partition 0 of {@code topic}, where the coordinator runs. */
  private ConnectWorker coordinatorHost(String name) throws Exception {
    var groups =
        admin
            .describeConsumerGroups(List.of("connect-" + name))
            .all()
            .get(30, java.util.concurrent.TimeUnit.SECONDS);
    String owner = null;
    for (var member : groups.get("connect-" + name).members()) {
      if (member
          .assignment()
          .topicPartitions()
          .contains(new org.apache.kafka.common.TopicPartition(name, 0))) {
        owner = member.clientId();
      }
    }
    assertThat(owner).as("owner of partition 0").isNotNull();
    // Connect names its sink consumers connector-consumer-<name>-<task>
    String task = owner.substring(owner.lastIndexOf('-') + 1);
    String workerId = null;
    for (var status : worker1.rest().status(name).path("tasks")) {
      if (status.path("id").asText().equals(task)) {
        workerId = status.path("worker_id").asText();
      }
    }
    assertThat(workerId).as("worker of task %s", task).isNotNull();
    return workerId.endsWith(":" + worker1.restPort()) ? worker1 : worker2;
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
