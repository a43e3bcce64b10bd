/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.LogCapture;
import io.floe.connect.branch.CommitBranch;
import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.Secrets;
import io.floe.connect.contract.Contract;
import io.floe.connect.control.CommitComplete;
import io.floe.connect.control.CommitRequest;
import io.floe.connect.control.DataComplete;
import io.floe.connect.control.DataWritten;
import io.floe.connect.control.PartitionOffset;
import io.floe.connect.control.StartCommit;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.maintain.MaintenanceSettings;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import javax.management.ObjectName;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's cycle, driven turn by turn on a hand-moved clock: when cycles start, when they
 * end, what they commit, how failures are retried and when they stop it. The control topic is in
 * memory and the workers' answers are written to it by the test.
 */
class CoordinatorTest {
  private static final String GROUP = "connect-orders";
  private static final String TABLE = "db.orders";
  private static final TopicPartition P0 = new TopicPartition("orders", 0);
  private static final TopicPartition P1 = new TopicPartition("orders", 1);
  private static final long INTERVAL_MS = 10_000;
  private static final long TIMEOUT_MS = 5_000;
  private static final long RETRY_TIMEOUT_MS = 5_000;
  private static final ControlSettings SETTINGS =
      settings(RETRY_TIMEOUT_MS, table -> Optional.empty());

  private final MutableClock clock = new MutableClock(1_767_225_600_000L);
  private final InMemoryControlTopic control = new InMemoryControlTopic();
  private final List<Coordinator> coordinators = new ArrayList<>();
  private InMemoryCatalog memory;
  private FlakyCatalog catalog;
  private Table table;
  private Coordinator coordinator;
  private ControlSettings settings = SETTINGS;

  @BeforeEach
  void createTable() {
    memory = new InMemoryCatalog();
    memory.initialize("test", Map.of());
    memory.createNamespace(Namespace.of("db"));
    table =
        memory.createTable(
            TableIdentifier.parse(TABLE),
            new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
            PartitionSpec.unpartitioned());
    catalog = new FlakyCatalog(memory);
  }

  @AfterEach
  void close() {
    coordinators.forEach(Coordinator::close);
  }

  private Coordinator open(InMemoryControlTopic topic) {
    Coordinator opened = openWhileTheCatalogMayHang(topic);
    try {
      opened.awaitTableMetricsRestored();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    catalog.loads = 0; // opening read the tables' last commits for the metrics
    return opened;
  }

  private Coordinator openWhileTheCatalogMayHang(InMemoryControlTopic topic) {
    Coordinator opened =
        new Coordinator(
            settings,
            GROUP,
            catalog,
            topic,
            topic.topic(),
            () -> Set.of(P0, P1),
            clock,
            new io.floe.connect.metrics.CoordinatorMetrics(
                io.floe.connect.metrics.MetricsRegistry.forTask("orders", null), clock),
            ThreadPools.getWorkerPool());
    coordinators.add(opened);
    assertThat(opened.open()).isTrue();
    return opened;
  }

  private void turn() {
    assertThat(coordinator.turn()).as("the coordinator keeps running").isTrue();
  }

  private List<UUID> cyclesStarted() {
    return control.events(GROUP, StartCommit.class).stream().map(StartCommit::commitId).toList();
  }

  /** Moves the clock by the interval and returns the cycle the coordinator then starts. */
  private UUID nextCycle() {
    int before = cyclesStarted().size();
    clock.advance(INTERVAL_MS);
    turn();
    List<UUID> started = cyclesStarted();
    assertThat(started).hasSize(before + 1);
    return started.get(before);
  }

  private TestManifests.Manifest written(UUID cycle, long records) {
    return TestManifests.manifest(table, TABLE, cycle, records);
  }

  /** A task's answer: its manifests, then its partitions' next offsets (null when idle). */
  private void answer(
      String task, UUID cycle, Map<TopicPartition, Long> next, DataWritten... files) {
    for (DataWritten file : files) {
      control.send(GROUP, task, file);
    }
    List<PartitionOffset> offsets = new ArrayList<>();
    next.forEach(
        (p, offset) -> offsets.add(new PartitionOffset(p.topic(), p.partition(), offset, null)));
    control.send(GROUP, task, new DataComplete(cycle, offsets));
  }

  private static Map<TopicPartition, Long> idle(TopicPartition partition) {
    Map<TopicPartition, Long> idle = new java.util.HashMap<>();
    idle.put(partition, null);
    return idle;
  }

  private List<Snapshot> snapshots() {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  private Map<TopicPartition, OffsetAndMetadata> coordinatorPosition() {
    return control.committedOffsets(SETTINGS.coordinatorGroupId());
  }

  @Test
  void aCycleStartsOnceTheIntervalHasPassedAndNotBefore() {
    coordinator = open(control);
    turn();
    clock.advance(INTERVAL_MS - 1);
    turn();
    assertThat(cyclesStarted()).isEmpty();

    clock.advance(1);
    turn();
    turn();

    assertThat(cyclesStarted()).hasSize(1);
  }

  @Test
  void aCatalogThatHangsWhileTheCoordinatorStartsDoesNotHoldUpTheCycles() throws Exception {
    catalog.hangLoads();
    try {
      coordinator = openWhileTheCatalogMayHang(control);
      clock.advance(INTERVAL_MS);
      turn();
      assertThat(cyclesStarted())
          .as("workers are asked to hand over while the metrics wait for the catalog")
          .hasSize(1);
    } finally {
      catalog.releaseLoads();
    }
    coordinator.awaitTableMetricsRestored();
  }

  @Test
  void anEarlyCommitRequestStartsACycleBeforeTheInterval() {
    coordinator = open(control);
    clock.advance(1_500);
    turn();
    assertThat(cyclesStarted()).isEmpty();

    control.send(GROUP, "orders-1", new CommitRequest(64L << 20));
    turn();

    assertThat(cyclesStarted()).hasSize(1);
  }

  @Test
  void aCycleEndsWhenEveryPartitionAnsweredIdleOnesTooAndCommitsExactlyTheAnsweredFiles() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    TestManifests.Manifest files = written(cycle, 3);
    answer("orders-0", cycle, Map.of(P0, 3L), files.event());
    turn();
    assertThat(snapshots()).as("partition 1 has not answered yet").isEmpty();

    answer("orders-1", cycle, idle(P1));
    long end = control.endOffset();
    turn();

    assertThat(snapshots()).hasSize(1);
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary())
        .containsEntry("floe.commit-id", cycle.toString())
        .containsEntry("added-records", "3")
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":3}}");
    assertThat(TestManifests.addedDataFiles(table, snapshot)).isEqualTo(files.dataFiles());
    assertThat(control.events(GROUP, CommitComplete.class))
        .extracting(CommitComplete::commitId)
        .containsExactly(cycle);
    assertThat(coordinatorPosition())
        .as("the control position after the answers, committed with CommitComplete")
        .isEqualTo(Map.of(control.topic().partitions().get(0), new OffsetAndMetadata(end)));
  }

  @Test
  void theOffsetsOfALateAnswerAreRecordedWithItsDataAndIdlePartitionsKeepTheirs() {
    coordinator = open(control);
    UUID first = nextCycle();
    answer("orders-0", first, Map.of(P0, 3L), written(first, 3).event());
    answer("orders-1", first, Map.of(P1, 7L), written(first, 7).event());
    turn();
    UUID second = nextCycle();
    answer("orders-0", second, Map.of(P0, 5L), written(second, 2).event());
    clock.advance(TIMEOUT_MS);
    turn(); // timed out: partition 1 has not answered
    answer("orders-1", second, Map.of(P1, 9L), written(second, 2).event()); // late
    UUID third = nextCycle();
    answer("orders-0", third, idle(P0));
    answer("orders-1", third, idle(P1));
    turn();

    assertThat(snapshots()).hasSize(3);
    assertThat(table.currentSnapshot().summary())
        .as("the late answer's offset with its data; the idle partition 0 keeps its offset")
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":5,\"1\":9}}");
  }

  @Test
  void aControlTransactionThatFailsIsTriedAgainInsteadOfStoppingTheCoordinator() {
    coordinator = open(control);
    var producer = control.producer(SETTINGS.coordinatorTransactionalId());
    producer.commitTransactionException =
        new org.apache.kafka.common.KafkaException("the broker is unreachable");
    clock.advance(INTERVAL_MS);
    turn();
    assertThat(cyclesStarted()).as("the start failed").isEmpty();

    producer.commitTransactionException = null;
    clock.advance(1_000);
    turn();
    assertThat(cyclesStarted()).as("tried again").hasSize(1);

    UUID cycle = cyclesStarted().get(0);
    producer.commitTransactionException =
        new org.apache.kafka.common.errors.TimeoutException("the commit timed out");
    answer("orders-0", cycle, Map.of(P0, 3L), written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    turn();
    assertThat(snapshots()).as("the tables hold the cycle").hasSize(1);
    assertThat(control.events(GROUP, CommitComplete.class)).isEmpty();
    coordinator.checkHealthy();

    producer.commitTransactionException = null;
    turn();
    assertThat(control.events(GROUP, CommitComplete.class))
        .as("its position committed on asking again")
        .extracting(CommitComplete::commitId)
        .containsExactly(cycle);
  }

  /** A cycle in which only partition 0 answers, run to its timeout. */
  private UUID cycleWithoutPartition1() {
    UUID cycle = nextCycle();
    answer("orders-0", cycle, idle(P0));
    clock.advance(TIMEOUT_MS);
    return cycle;
  }

  @Test
  void aPartitionNoTaskAnswersForStopsTheCoordinatorNamingItAfterTheSetNumberOfCycles() {
    coordinator = open(control);
    for (int i = 1; i < CommitKeys.COMMIT_MAX_SILENT_CYCLES_DEFAULT; i++) {
      cycleWithoutPartition1();
      turn();
    }
    coordinator.checkHealthy();

    cycleWithoutPartition1();
    assertThat(coordinator.turn()).isFalse();

    assertThatThrownBy(coordinator::checkHealthy)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("No task has answered for source partitions [orders-1] in 10")
        .hasMessageContaining("iceberg.control.commit.max-silent-cycles");
  }

  @Test
  void aLateAnswerIsWordFromItsPartitionAndKeepsTheCoordinatorRunning() {
    coordinator = open(control);
    for (int i = 0; i < 2 * CommitKeys.COMMIT_MAX_SILENT_CYCLES_DEFAULT; i++) {
      UUID cycle = cycleWithoutPartition1();
      turn();
      answer("orders-1", cycle, idle(P1)); // after the cycle timed out
      turn();
    }
    coordinator.checkHealthy();
  }

  @Test
  void aTimedOutCycleCommitsWhatArrivedAndALateAnswerJoinsTheNextCycle() {
    coordinator = open(control);
    UUID first = nextCycle();
    TestManifests.Manifest early = written(first, 3);
    answer("orders-0", first, Map.of(P0, 3L), early.event());
    clock.advance(TIMEOUT_MS - 1);
    turn();
    assertThat(snapshots()).isEmpty();

    clock.advance(1);
    turn();
    assertThat(snapshots()).hasSize(1);
    assertThat(TestManifests.addedDataFiles(table, table.currentSnapshot()))
        .isEqualTo(early.dataFiles());

    TestManifests.Manifest late = written(first, 5);
    answer("orders-1", first, Map.of(P1, 5L), late.event());
    turn();
    assertThat(snapshots()).as("a late answer does not end a cycle").hasSize(1);
    UUID second = nextCycle();
    answer("orders-0", second, Map.of(P0, 3L));
    answer("orders-1", second, Map.of(P1, 5L));
    turn();

    assertThat(snapshots()).hasSize(2);
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary()).containsEntry("floe.commit-id", second.toString());
    assertThat(TestManifests.addedDataFiles(table, snapshot)).isEqualTo(late.dataFiles());
  }

  @Test
  void aTableWhoseCyclesTimeOutBreachesItsFreshnessObjectiveOnceTheAnsweringPartitionsAreStale()
      throws Exception {
    Contract contract =
        Contract.parse(
            """
            id: orders
            version: 1.0.0
            schema:
              - name: orders
                properties:
                  - name: id
                    logicalType: integer
            slaProperties:
              - property: latency
                value: 30
                unit: s
            """);
    settings = settings(RETRY_TIMEOUT_MS, table -> Optional.of(contract));
    coordinator = open(control);
    UUID first = nextCycle();
    long newest = clock.millis() - 60_000;
    control.send(GROUP, "orders-0", written(first, 3).event());
    control.send(
        GROUP,
        "orders-0",
        new DataComplete(first, List.of(new PartitionOffset("orders", 0, 3L, newest))));

    try (LogCapture logs = LogCapture.ofEveryLevel(ContractObjectives.class)) {
      clock.advance(TIMEOUT_MS);
      turn();
      assertThat(snapshots()).as("the timed-out cycle commits what arrived").hasSize(1);
      assertThat(table.currentSnapshot().summary().keySet())
          .as("a partition that did not answer leaves the table without a watermark")
          .noneMatch(key -> key.startsWith(CommitMarks.VALID_THROUGH_MS));
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .contains("breaches the freshness objective of its contract 'orders' version 1.0.0")
          .contains("at least 65000 ms old (it has no watermark yet");
    }
    assertThat(
            ManagementFactory.getPlatformMBeanServer()
                .getAttribute(
                    new ObjectName("io.floe:type=table-metrics,connector=orders,table=" + TABLE),
                    "freshness-objective-breached"))
        .isEqualTo(1L);
  }

  @Test
  void anAnswerReadOnlyInPartIsNotCommittedInPartPastTheCommitTimeout() {
    long retryTimeoutMs = 4 * TIMEOUT_MS;
    settings = withRetryTimeout(retryTimeoutMs);
    coordinator = open(control);
    UUID cycle = nextCycle();
    TestManifests.Manifest first = written(cycle, 3);
    TestManifests.Manifest second = written(cycle, 4);
    // a poll ended inside task 0's transaction: its second manifest and its DataComplete are late
    control.send(GROUP, "orders-0", first.event());
    answer("orders-1", cycle, idle(P1));
    clock.advance(TIMEOUT_MS);
    turn();
    clock.advance(2 * TIMEOUT_MS);
    turn();
    assertThat(snapshots())
        .as("past the commit timeout, half an answer is still not committed")
        .isEmpty();

    answer("orders-0", cycle, Map.of(P0, 7L), second.event());
    turn();

    assertThat(snapshots()).hasSize(1);
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary())
        .containsEntry("floe.commit-id", cycle.toString())
        .containsEntry("added-records", "7")
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":7}}");
    Set<String> both = new java.util.HashSet<>(first.dataFiles());
    both.addAll(second.dataFiles());
    assertThat(TestManifests.addedDataFiles(table, snapshot)).isEqualTo(both);
  }

  @Test
  void aSecondAnswerOfACycleFromOneTaskReadOnlyInPartWaitsForItsEnd() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    // task 0 answered with nothing (its hand-over failed, say), then answers again with data: a
    // poll ends inside the second answer's transaction
    answer("orders-0", cycle, idle(P0));
    answer("orders-1", cycle, idle(P1));
    TestManifests.Manifest late = written(cycle, 5);
    control.send(GROUP, "orders-0", late.event());
    turn();
    clock.advance(TIMEOUT_MS);
    turn();
    assertThat(snapshots())
        .as("the second answer's data is not committed without its offsets")
        .isEmpty();

    control.send(GROUP, "orders-0", new DataComplete(cycle, List.of(offset(P0, 5L))));
    turn();

    assertThat(snapshots()).hasSize(1);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("added-records", "5")
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":5}}");
  }

  private static PartitionOffset offset(TopicPartition partition, long next) {
    return new PartitionOffset(partition.topic(), partition.partition(), next, null);
  }

  @Test
  void anAnswerWhoseRestTheControlTopicNeverDeliversStopsTheCoordinatorPastTheRetryTimeout() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    control.send(GROUP, "orders-0", written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    clock.advance(TIMEOUT_MS);
    turn();
    clock.advance(RETRY_TIMEOUT_MS);
    turn();
    clock.advance(1);

    assertThat(coordinator.turn()).isFalse();
    assertThatThrownBy(coordinator::checkHealthy)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("has not delivered the end of the answers")
        .hasMessageContaining("iceberg.control.commit.retry-timeout-ms=" + RETRY_TIMEOUT_MS)
        .hasMessageContaining("committed whole or not at all");
    assertThat(snapshots()).isEmpty();
    assertThat(control.events(GROUP, CommitComplete.class)).isEmpty();
  }

  private static ControlSettings withRetryTimeout(long retryTimeoutMs) {
    return settings(retryTimeoutMs, table -> Optional.empty());
  }

  private static ControlSettings settings(
      long retryTimeoutMs, Function<String, Optional<Contract>> contracts) {
    return new ControlSettings(
        "orders",
        0,
        "",
        Duration.ofMillis(INTERVAL_MS),
        Duration.ofMillis(TIMEOUT_MS),
        Duration.ofMillis(retryTimeoutMs),
        1_000_000,
        Secrets.of(Map.of()),
        List.of(TABLE),
        CommitKeys.COMMIT_MAX_SILENT_CYCLES_DEFAULT,
        KeyIndexSettings.off(),
        MaintenanceSettings.off(),
        table -> CommitBranch.MAIN,
        contracts);
  }

  @Test
  void aRetriableCommitFailureIsRetriedWithADoublingBackoffUntilItSucceeds() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    answer("orders-0", cycle, Map.of(P0, 3L), written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    catalog.unavailableFor(3);

    turn();
    assertThat(catalog.loads).isEqualTo(1);
    for (long backoff : new long[] {500, 1_000, 2_000}) {
      int loads = catalog.loads;
      clock.advance(backoff - 1);
      turn();
      assertThat(catalog.loads).as("no retry before %d ms", backoff).isEqualTo(loads);
      clock.advance(1);
      turn();
      assertThat(catalog.loads).as("a retry after %d ms", backoff).isEqualTo(loads + 1);
    }

    assertThat(catalog.loads).isEqualTo(4);
    assertThat(snapshots()).hasSize(1);
    assertThat(table.currentSnapshot().summary()).containsEntry("floe.commit-id", cycle.toString());
    assertThat(control.events(GROUP, CommitComplete.class)).hasSize(1);
    assertThat(cyclesStarted()).as("no cycle starts while one is retried").hasSize(1);
  }

  @Test
  void failuresLongerThanTheRetryTimeoutStopTheCoordinatorNamingTheSetting() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    answer("orders-0", cycle, Map.of(P0, 3L), written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    catalog.unavailableFor(Integer.MAX_VALUE);
    long firstFailure = clock.millis();
    turn();

    boolean running = true;
    long backoff = 500;
    while (running) {
      clock.advance(backoff);
      backoff *= 2;
      running = coordinator.turn();
      if (running) {
        assertThat(clock.millis() - firstFailure).isLessThan(RETRY_TIMEOUT_MS);
      }
    }

    assertThat(clock.millis() - firstFailure).isGreaterThanOrEqualTo(RETRY_TIMEOUT_MS);
    assertThatThrownBy(coordinator::checkHealthy)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("iceberg.control.commit.retry-timeout-ms=" + RETRY_TIMEOUT_MS)
        .hasMessageContaining(TABLE)
        .hasMessageContaining("catalog is down");
    assertThat(snapshots()).isEmpty();
    assertThat(control.events(GROUP, CommitComplete.class)).isEmpty();
  }

  @Test
  void aMissingTableFailsTheCoordinatorAtOnce() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    DataWritten manifest = written(cycle, 3).event();
    DataWritten missing =
        new DataWritten(
            cycle,
            "db.missing",
            null,
            manifest.manifestLocation(),
            manifest.manifestLengthBytes(),
            manifest.partitionSpecId(),
            manifest.content(),
            manifest.fileCount(),
            manifest.recordCount(),
            manifest.totalFileSizeBytes(),
            manifest.partitions());
    answer("orders-0", cycle, Map.of(P0, 3L), missing);
    answer("orders-1", cycle, idle(P1));

    assertThat(coordinator.turn()).isFalse();
    assertThatThrownBy(coordinator::checkHealthy)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Cannot commit table db.missing");
    assertThat(control.events(GROUP, CommitComplete.class)).isEmpty();
  }

  @Test
  void aRecreatedControlTopicFailsTheCoordinatorAtOnceSayingWhatHappened() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    answer("orders-0", cycle, Map.of(P0, 3L), written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    turn();
    assertThat(snapshots()).hasSize(1);
    coordinator.close();

    InMemoryControlTopic recreated = new InMemoryControlTopic(Uuid.randomUuid());
    coordinator = open(recreated);
    clock.advance(INTERVAL_MS);
    turn();
    UUID next = recreated.events(GROUP, StartCommit.class).get(0).commitId();
    TestManifests.Manifest file = written(next, 1);
    recreated.send(GROUP, "orders-0", file.event());
    recreated.send(
        GROUP,
        "orders-0",
        new DataComplete(
            next,
            List.of(
                new PartitionOffset("orders", 0, 4L, null),
                new PartitionOffset("orders", 1, null, null))));

    assertThat(coordinator.turn()).isFalse();
    assertThatThrownBy(coordinator::checkHealthy)
        .hasMessageContaining("was recreated")
        .hasMessageContaining(control.topic().id().toString());
    assertThat(snapshots()).hasSize(1);
  }

  @Test
  void eventsOfOtherConnectorsOnTheSharedTopicAreIgnored() {
    coordinator = open(control);
    String other = "connect-payments";
    control.append("not a Floe event".getBytes(StandardCharsets.UTF_8));
    control.send(other, "payments-0", new CommitRequest(64L << 20));
    clock.advance(1_500);
    turn();
    assertThat(cyclesStarted()).as("another connector's request").isEmpty();

    UUID cycle = nextCycle();
    TestManifests.Manifest theirs = written(cycle, 7);
    control.send(other, "payments-0", new StartCommit(UUID.randomUUID()));
    control.send(other, "payments-0", theirs.event());
    control.send(
        other,
        "payments-0",
        new DataComplete(
            cycle,
            List.of(
                new PartitionOffset("orders", 0, 7L, null),
                new PartitionOffset("orders", 1, 7L, null))));
    turn();
    assertThat(snapshots()).as("another connector's answers do not end the cycle").isEmpty();

    TestManifests.Manifest ours = written(cycle, 2);
    answer("orders-0", cycle, Map.of(P0, 2L), ours.event());
    answer("orders-1", cycle, idle(P1));
    turn();

    assertThat(snapshots()).hasSize(1);
    assertThat(TestManifests.addedDataFiles(table, table.currentSnapshot()))
        .isEqualTo(ours.dataFiles());
    assertThat(cyclesStarted()).hasSize(1);
  }

  @Test
  void aNewCoordinatorReadsFromTheCommittedControlPositionAndCommitsNothingTwice() {
    coordinator = open(control);
    UUID cycle = nextCycle();
    answer("orders-0", cycle, Map.of(P0, 3L), written(cycle, 3).event());
    answer("orders-1", cycle, idle(P1));
    turn();
    long committed = coordinatorPosition().get(control.topic().partitions().get(0)).offset();
    coordinator.close();

    coordinator = open(control);
    turn();
    UUID next = nextCycle();
    answer("orders-0", next, Map.of(P0, 3L));
    answer("orders-1", next, idle(P1));
    turn();

    assertThat(control.offsetsReadBy("floe-coordinator-control-orders"))
        .isNotEmpty()
        .allSatisfy(offset -> assertThat(offset).isGreaterThanOrEqualTo(committed));
    assertThat(snapshots()).hasSize(1);
    assertThat(control.events(GROUP, CommitComplete.class)).hasSize(2);
    assertThat(coordinatorPosition().get(control.topic().partitions().get(0)).offset())
        .isEqualTo(control.endOffset() - 1);
  }

  @Test
  void aCoordinatorWithoutACommittedPositionReadsTheTopicFromTheStart() {
    UUID old = UUID.randomUUID();
    TestManifests.Manifest before = written(old, 4);
    answer("orders-0", old, Map.of(P0, 4L), before.event());

    coordinator = open(control);
    UUID cycle = nextCycle();
    answer("orders-0", cycle, Map.of(P0, 4L));
    answer("orders-1", cycle, idle(P1));
    turn();

    assertThat(snapshots()).hasSize(1);
    assertThat(TestManifests.addedDataFiles(table, table.currentSnapshot()))
        .isEqualTo(before.dataFiles());
  }

  @Test
  void aFencedCoordinatorStopsSayingANewerOneTookOver() {
    coordinator = open(control);
    control.producer(SETTINGS.coordinatorTransactionalId()).fenceProducer();
    clock.advance(INTERVAL_MS);

    assertThat(coordinator.turn()).isFalse();
    assertThatThrownBy(coordinator::checkHealthy)
        .hasMessageContaining("was fenced: a newer coordinator took over")
        .hasMessageContaining(SETTINGS.coordinatorTransactionalId());
  }

  /** The in-memory catalog, unavailable for the next table loads when asked to be. */
  private static final class FlakyCatalog implements Catalog {
    private final Catalog delegate;
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean hanging;
    private int unavailable;
    private int loads;

    FlakyCatalog(Catalog delegate) {
      this.delegate = delegate;
    }

    void unavailableFor(int loads) {
      unavailable = loads;
    }

    /**
     * Table loads wait until {@link #releaseLoads}, like calls to a catalog whose store is down.
     */
    void hangLoads() {
      hanging = true;
    }

    void releaseLoads() {
      hanging = false;
      released.countDown();
    }

    @Override
    public Table loadTable(TableIdentifier identifier) {
      if (hanging) {
        try {
          released.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      loads++;
      if (unavailable > 0) {
        unavailable--;
        throw new ServiceUnavailableException("catalog is down");
      }
      return delegate.loadTable(identifier);
    }

    @Override
    public List<TableIdentifier> listTables(Namespace namespace) {
      return delegate.listTables(namespace);
    }

    @Override
    public boolean dropTable(TableIdentifier identifier, boolean purge) {
      return delegate.dropTable(identifier, purge);
    }

    @Override
    public void renameTable(TableIdentifier from, TableIdentifier to) {
      delegate.renameTable(from, to);
    }

    @Override
    public String name() {
      return delegate.name();
    }
  }
}
