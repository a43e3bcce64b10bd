/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.LogFile;
import io.floe.it.stack.RestCatalogServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

/**
 * Exactly once on the real stack while the stream flows: steady state, workers killed, restarted,
 * rebalanced and frozen, a hand-over that fails, catalog outages, and cycles that commit to all
 * their tables or to none.
 */
class ExactlyOnceIT extends ExactlyOnceStack {
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

  /**
   * About 1% of a steady stream breaks the tables' contract (four of its rules in turn) and goes to
   * their quarantine table. Once both tasks have committed, the worker running the second task is
   * killed in the middle of a cycle while records flow, and a replacement started; once the task
   * runs again, the quarantine table holds each breaking record once (by topic, partition and
   * offset) and the tables each other record once: together every record sent, exactly once.
   */
  @Test
  void killingAWorkerMidStreamQuarantinesEachRecordBreakingTheContractOnce() throws Exception {
    String name = "quarantinekill";
    int partitions = 4;
    broker.createTopic(name, partitions);
    Map<String, String> config = connector(name, name, 2);
    String quarantine = ContractedOrders.enforce(config, name);
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    ConnectWorker victim = workerOf(name, 1);
    TableOracle oracle = oracle(name);
    TableOracle quarantined = new TableOracle(catalog, List.of(quarantine));
    OrderEvents orders =
        services.own(new OrderEvents(broker.bootstrapServers(), ContractedOrders::value));
    long total;
    try (SteadyProducer producer = SteadyProducer.start(orders, name, partitions, 0, RATE / 2)) {
      // both tasks have handed over rows and rejects of each of their partitions
      Await.until(
          "offsets committed for every partition of " + name,
          CONVERGE,
          () -> TableOracle.committedOffsets(admin, "connect-" + name).values(),
          offsets ->
              offsets.size() == partitions
                  && offsets.stream().allMatch(offset -> offset.offset() > 101));
      sleep(INTERVAL_MS / 2);
      victim.kill();
      // a replacement joins while the group waits for the dead worker's session to time out
      restart(victim);
      total = producer.stop();
    }
    // the last record of each partition goes to a table, so that the group's offsets follow it
    long sent = total;
    while (ContractedOrders.breaking(total) != ContractedOrders.breaking(total - partitions)) {
      total++;
    }
    orders.send(name, partitions, sent, total);

    long rejected = ContractedOrders.breaking(total);
    assertThat(rejected).as("records breaking the contract").isPositive();
    await("rows after a worker was killed", oracle::rowCount, total - rejected, CONVERGE);
    await("rejects after a worker was killed", quarantined::rowCount, rejected, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, total - rejected);
    List<Long> kept = new ArrayList<>();
    for (long id = 0; id < total; id++) {
      if (!ContractedOrders.breaks(id)) {
        kept.add(id);
      }
    }
    assertThat(oracle.ids()).as("ids in the tables").containsExactlyInAnyOrderElementsOf(kept);
    Set<TableOracle.Origin> origins =
        ContractedOrders.assertQuarantinedOnce(catalog, quarantine, name, partitions, total);
    quarantined.assertNoFileInTwoSnapshots();
    // the tables and the quarantine table together hold every record sent, none in both
    Set<TableOracle.Origin> everything = new HashSet<>(origins);
    for (TableOracle.Origin origin : oracle.origins()) {
      assertThat(everything.add(origin)).as("%s in a table and quarantined", origin).isTrue();
    }
    Set<TableOracle.Origin> expected = new HashSet<>();
    for (long id = 0; id < total; id++) {
      expected.add(new TableOracle.Origin(name, (int) (id % partitions), id / partitions));
    }
    assertThat(everything).as("records in the tables or quarantined").isEqualTo(expected);
    System.out.printf(
        "quarantine through a worker kill: %d records, %d quarantined%n", total, rejected);
    other(victim).rest().deleteConnector(name);
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

  @Test
  void aWorkerFrozenPastItsSessionTimeoutWhileACycleIsPendingIsFencedAndLosesNothing()
      throws Exception {
    frozenPastItsSessionTimeout("zombiew", false);
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
}
