/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import io.floe.connect.control.CommitRequest;
import io.floe.connect.control.DataComplete;
import io.floe.connect.control.DataWritten;
import io.floe.connect.control.EventManifest;
import io.floe.connect.control.PartitionOffset;
import io.floe.connect.control.StartCommit;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.maintain.MaintenanceSettings;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.WriterPoolOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's side of the commit protocol, its control thread driven turn by turn on a hand-moved
 * clock: answers to {@code StartCommit}, the transaction that carries them, and what happens when
 * files, manifests or the transaction fail. The writer is real, over a table on the local file
 * system; the control topic is in memory.
 */
class WorkerTest {
  private static final String GROUP = "connect-orders";
  private static final String TABLE = "db.events";
  private static final TopicPartition P0 = new TopicPartition("orders", 0);
  private static final TopicPartition P1 = new TopicPartition("orders", 1);
  private static final long RETRY_TIMEOUT_MS = 60_000;
  private static final Schema VALUE =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .build();
  private static final ConsumerGroupMetadata CONNECT_GROUP =
      new ConsumerGroupMetadata(GROUP, 7, "connector-consumer-orders-1", Optional.empty());

  @TempDir Path dir;

  private final MutableClock clock = new MutableClock(1_767_225_600_000L);
  private final InMemoryControlTopic control = new InMemoryControlTopic();
  private final AtomicInteger reportsAwaited = new AtomicInteger();
  private HadoopCatalog catalog;
  private LocalTable local;
  private Table table;
  private Worker worker;

  @BeforeEach
  void createTable() throws IOException {
    local = new LocalTable(dir, TABLE, "name");
    catalog = local.catalog;
    table = local.table;
    worker = worker(Long.MAX_VALUE);
  }

  private Worker worker(long bufferBytes) {
    return worker(bufferBytes, WriterPoolOptions.defaults());
  }

  private Worker worker(long bufferBytes, WriterPoolOptions writerOptions) {
    return worker(bufferBytes, writerOptions, TABLE);
  }

  private Worker worker(long bufferBytes, WriterPoolOptions writerOptions, String tables) {
    FloeSinkConfig config =
        new FloeSinkConfig(
            Map.of("name", "orders", "iceberg.tables", tables, "iceberg.catalog.type", "hadoop"));
    SinkWriter writer =
        SinkWriter.forTask(config, catalog, new NoBadRecords(), writerOptions, 1, clock);
    ControlSettings settings =
        new ControlSettings(
            "orders",
            1,
            "",
            Duration.ofSeconds(10),
            Duration.ofSeconds(5),
            Duration.ofMillis(RETRY_TIMEOUT_MS),
            bufferBytes,
            Secrets.of(Map.of()),
            java.util.List.of(),
            CommitKeys.COMMIT_MAX_SILENT_CYCLES_DEFAULT,
            KeyIndexSettings.off(),
            MaintenanceSettings.off(),
            table -> CommitBranch.MAIN,
            table -> java.util.Optional.empty());
    Worker created =
        new Worker(
            settings,
            writer,
            reportsAwaited::incrementAndGet,
            control,
            control.topic(),
            () -> CONNECT_GROUP,
            clock,
            new io.floe.connect.metrics.TaskMetrics(
                io.floe.connect.metrics.MetricsRegistry.forTask("orders", null),
                1,
                WriterPoolOptions.defaults().memoryBudgetBytes(),
                () -> 0,
                () -> 0));
    created.openClients();
    return created;
  }

  @AfterEach
  void close() {
    worker.close();
  }

  private MockProducer<byte[], byte[]> producer() {
    return control.producer("floe-orders-worker-1");
  }

  /** A coordinator's {@code StartCommit}, then a turn of the worker's control thread. */
  private UUID cycle() {
    UUID id = UUID.randomUUID();
    control.send(GROUP, "orders-coordinator", new StartCommit(id));
    assertThat(worker.turn()).as("the worker keeps running").isTrue();
    return id;
  }

  private static List<SinkRecord> records(TopicPartition partition, long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (long offset = from; offset <= to; offset++) {
      Struct value =
          new Struct(VALUE).put("id", partition.partition() * 1000 + offset).put("name", "n");
      records.add(
          new SinkRecord(
              partition.topic(),
              partition.partition(),
              null,
              null,
              VALUE,
              value,
              offset,
              1_000L + offset,
              TimestampType.CREATE_TIME));
    }
    return records;
  }

  private Map<TopicPartition, Long> putBoth() {
    List<SinkRecord> batch = new ArrayList<>(records(P0, 5, 7));
    batch.addAll(records(P1, 3, 3));
    return worker.put(batch);
  }

  /** The object store stops accepting files: the data folder is a plain file. */
  private void objectStoreDown() throws IOException {
    local.storeDown();
  }

  private void objectStoreBack() throws IOException {
    local.storeBack();
  }

  private List<DataComplete> answers() {
    return control.events(GROUP, DataComplete.class);
  }

  private static List<PartitionOffset> offsets(PartitionOffset... offsets) {
    return List.of(offsets);
  }

  /** Commits the worker's manifests to the table and returns the ids of the table's rows. */
  private List<Long> commitAndReadIds(List<DataWritten> manifests) throws IOException {
    var append = table.newFastAppend();
    manifests.forEach(manifest -> append.appendManifest(new EventManifest(manifest)));
    append.commit();
    table.refresh();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(row -> ids.add((Long) row.getField("id")));
    }
    ids.sort(Long::compare);
    return ids;
  }

  @Test
  void anIdleWorkerAnswersEveryStartCommitOfItsConnectorWithItsPartitions() {
    UUID beforeAssignment = cycle();
    worker.open(List.of(P0, P1));
    UUID idle = cycle();
    control.send("connect-payments", "payments-coordinator", new StartCommit(UUID.randomUUID()));
    assertThat(worker.turn()).isTrue();

    assertThat(answers())
        .containsExactly(
            new DataComplete(beforeAssignment, List.of()),
            new DataComplete(
                idle,
                offsets(
                    new PartitionOffset("orders", 0, null, null),
                    new PartitionOffset("orders", 1, null, null))));
    assertThat(control.events(GROUP, DataWritten.class)).isEmpty();
    assertThat(control.committedOffsets(GROUP)).isEmpty();
  }

  @Test
  void aStartCommitTheControlTopicDeliversAgainIsAnsweredOnce() {
    control.faults(
        new ControlFaults() {
          @Override
          public int redeliveries() {
            return 1;
          }
        });
    worker.open(List.of(P0, P1));
    assertThat(putBoth()).isEmpty();

    UUID id = cycle();
    assertThat(worker.turn()).isTrue();
    assertThat(worker.turn()).isTrue();

    assertThat(answers()).as("one hand-over for the cycle").hasSize(1);
    assertThat(answers().get(0).commitId()).isEqualTo(id);
    assertThat(producer().commitCount()).isEqualTo(1);
  }

  @Test
  void aHandOverSendsItsManifestsItsPartitionsAndTheSourceOffsetsInOneTransaction()
      throws IOException {
    worker.open(List.of(P0, P1));
    assertThat(putBoth()).isEmpty();

    UUID id = cycle();

    assertThat(producer().commitCount()).isEqualTo(1);
    assertThat(reportsAwaited).hasValue(1);
    List<DataWritten> written = control.events(GROUP, DataWritten.class);
    assertThat(written)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.commitId()).isEqualTo(id);
              assertThat(event.table()).isEqualTo(TABLE);
              assertThat(event.recordCount()).isEqualTo(4);
            });
    assertAnsweredWithBothPartitions(id);
    assertThat(control.committedOffsets(GROUP))
        .isEqualTo(Map.of(P0, new OffsetAndMetadata(8), P1, new OffsetAndMetadata(4)));
    assertThat(commitAndReadIds(written)).containsExactly(5L, 6L, 7L, 1003L);
  }

  @Test
  void everyEventOfAHandOverCarriesItsIdWhichItsManifestsNamesHoldToo() {
    catalog.createTable(
        TableIdentifier.parse("db.copies"), table.schema(), PartitionSpec.unpartitioned());
    worker.close();
    worker = worker(Long.MAX_VALUE, WriterPoolOptions.defaults(), TABLE + ",db.copies");
    worker.open(List.of(P0, P1));
    putBoth();
    UUID first = cycle();
    worker.put(records(P0, 8, 9));
    UUID second = cycle();

    List<DataWritten> written = control.events(GROUP, DataWritten.class);
    assertThat(written)
        .extracting(DataWritten::commitId, DataWritten::table)
        .containsExactlyInAnyOrder(
            tuple(first, TABLE),
            tuple(first, "db.copies"),
            tuple(second, TABLE),
            tuple(second, "db.copies"));
    Map<UUID, Set<UUID>> idsByCycle = new HashMap<>();
    for (DataWritten event : written) {
      assertThat(event.handOverId()).isNotNull();
      assertThat(event.manifestLocation()).contains("-" + event.handOverId() + "-");
      idsByCycle.computeIfAbsent(event.commitId(), id -> new HashSet<>()).add(event.handOverId());
    }
    assertThat(idsByCycle.get(first)).as("one id for the hand-over's manifests").hasSize(1);
    assertThat(idsByCycle.get(second))
        .hasSize(1)
        .doesNotContainAnyElementsOf(idsByCycle.get(first));
  }

  @Test
  void filesThatCannotBeWrittenRewindTheHandOverToItsFirstOffsetsAndSendNothing()
      throws IOException {
    worker.open(List.of(P0, P1));
    objectStoreDown();
    assertThat(putBoth()).isEmpty();

    cycle();

    assertThat(producer().commitCount()).isZero();
    assertThat(answers()).isEmpty();
    assertThat(control.committedOffsets(GROUP)).isEmpty();
    assertThat(worker.put(records(P0, 8, 9)))
        .as("the next batch is dropped and the partitions are rewound")
        .isEqualTo(Map.of(P0, 5L, P1, 3L));

    objectStoreBack();
    assertThat(putBoth()).isEmpty();
    UUID id = cycle();

    List<DataWritten> written = control.events(GROUP, DataWritten.class);
    assertAnsweredWithBothPartitions(id);
    assertThat(commitAndReadIds(written)).containsExactly(5L, 6L, 7L, 1003L);
  }

  @Test
  void aFailedWritePausesTheTaskWithoutSleepingAndDropsWhatArrivesMeanwhile() throws IOException {
    worker.close();
    worker = worker(Long.MAX_VALUE, new WriterPoolOptions(1, 1)); // every row goes to storage
    worker.open(List.of(P0, P1));
    objectStoreDown();
    long failedAt = clock.millis();

    assertThat(putBoth()).isEqualTo(Map.of(P0, 5L, P1, 3L));
    assertThat(worker.resumeAtMs()).isEqualTo(failedAt + 500);
    objectStoreBack();
    clock.advance(499);
    assertThat(worker.put(records(P0, 5, 6)))
        .as("a batch that arrives while the task pauses is dropped and read again")
        .isEqualTo(Map.of(P0, 5L));

    clock.advance(1);
    objectStoreDown();
    assertThat(putBoth()).isEqualTo(Map.of(P0, 5L, P1, 3L));
    assertThat(worker.resumeAtMs()).as("the pause doubles").isEqualTo(clock.millis() + 1000);

    clock.advance(1000);
    objectStoreBack();
    assertThat(putBoth()).isEmpty();
    UUID id = cycle();
    assertAnsweredWithBothPartitions(id);
    assertThat(commitAndReadIds(control.events(GROUP, DataWritten.class)))
        .containsExactly(5L, 6L, 7L, 1003L);
  }

  @Test
  void handOverFailuresLongerThanTheRetryTimeoutFailTheTaskSayingWhy() throws IOException {
    worker.open(List.of(P0, P1));
    objectStoreDown();
    putBoth();
    cycle();
    clock.advance(RETRY_TIMEOUT_MS);
    assertThat(putBoth()).isNotEmpty();
    putBoth();
    cycle();
    assertThat(putBoth()).as("still retried at the retry timeout").isNotEmpty();

    clock.advance(1);
    putBoth();
    control.send(GROUP, "orders-coordinator", new StartCommit(UUID.randomUUID()));

    assertThat(worker.turn()).isFalse();
    assertThatThrownBy(() -> worker.put(records(P0, 5, 5)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Task orders-1 has failed to hand over its data since")
        .hasMessageContaining("iceberg.control.commit.retry-timeout-ms=" + RETRY_TIMEOUT_MS)
        .hasMessageContaining("a restart reads it again");
    assertThat(answers()).isEmpty();
  }

  @Test
  void aWriteThatGivesUpFailsTheWorkerForGoodAndNothingWrittenAfterItIsHandedOver()
      throws IOException {
    worker.close();
    worker = worker(Long.MAX_VALUE, new WriterPoolOptions(1, 1)); // every row goes to storage
    worker.open(List.of(P0, P1));
    objectStoreDown();
    assertThat(putBoth()).isNotEmpty();
    clock.advance(RETRY_TIMEOUT_MS + 1);
    assertThatThrownBy(this::putBoth)
        .hasMessageContaining("Task orders-1 has failed to write its data since");

    // a runtime that went on calling the task (a cut-off process whose thread lives on) would
    // hand over records after the ones the failed write dropped: nothing of it may reach a cycle
    objectStoreBack();
    assertThatThrownBy(() -> worker.put(records(P0, 8, 9)))
        .as("every later call fails the same way")
        .hasMessageContaining("has failed to write its data since");
    control.send(GROUP, "orders-coordinator", new StartCommit(UUID.randomUUID()));
    assertThat(worker.turn()).as("the control thread ends").isFalse();
    assertThat(answers()).isEmpty();
    assertThat(control.events(GROUP, DataWritten.class)).isEmpty();
  }

  @Test
  void aFailedTransactionIsAbortedAndItsHandOverReadAgain() {
    worker.open(List.of(P0, P1));
    putBoth();
    producer().commitTransactionException = new KafkaException("the broker is unreachable");

    cycle();

    assertThat(producer().transactionAborted()).isTrue();
    assertThat(answers()).isEmpty();
    assertThat(control.committedOffsets(GROUP)).isEmpty();
    assertThat(worker.put(records(P0, 8, 8))).isEqualTo(Map.of(P0, 5L, P1, 3L));
  }

  @Test
  void aBatchDroppedAfterAFailedHandOverRewindsEveryPartitionOfIt() throws IOException {
    worker.open(List.of(P0, P1));
    assertThat(worker.put(records(P0, 5, 7))).isEmpty();
    producer().commitTransactionException = new KafkaException("the broker is unreachable");
    cycle();
    producer().commitTransactionException = null;

    List<SinkRecord> batch = new ArrayList<>(records(P0, 8, 8));
    batch.addAll(records(P1, 0, 2));
    assertThat(worker.put(batch))
        .as("orders-0 back to its failed hand-over, orders-1 to its first record of the batch")
        .isEqualTo(Map.of(P0, 5L, P1, 0L));

    List<SinkRecord> again = new ArrayList<>(records(P0, 5, 8));
    again.addAll(records(P1, 0, 4));
    assertThat(worker.put(again)).isEmpty();
    cycle();
    assertThat(control.committedOffsets(GROUP))
        .isEqualTo(Map.of(P0, new OffsetAndMetadata(9), P1, new OffsetAndMetadata(5)));
    assertThat(commitAndReadIds(control.events(GROUP, DataWritten.class)))
        .containsExactly(5L, 6L, 7L, 8L, 1000L, 1001L, 1002L, 1003L, 1004L);
  }

  @Test
  void aPartitionKeptWhenAnotherIsRevokedIsRewoundByTheNextPutNotWrittenTwice() throws IOException {
    worker.open(List.of(P0, P1));
    assertThat(putBoth()).isEmpty(); // orders-0 5..7 and orders-1 3 share a file

    worker.close(List.of(P0)); // a cooperative rebalance takes orders-0 away
    // the poll that revoked orders-0 had fetched orders-1 4..5: Connect delivers them next
    assertThat(worker.put(records(P1, 4, 5)))
        .as("the batch is dropped and orders-1 read again from its first unreported row")
        .isEqualTo(Map.of(P1, 3L));
    assertThat(worker.put(records(P1, 3, 5))).isEmpty();
    cycle();

    assertThat(control.committedOffsets(GROUP)).isEqualTo(Map.of(P1, new OffsetAndMetadata(6)));
    assertThat(commitAndReadIds(control.events(GROUP, DataWritten.class)))
        .containsExactly(1003L, 1004L, 1005L);
  }

  @Test
  void aReplacedWorkerAnsweringACycleItsReplacementHandedOverWritesOverNoFileAndIsFenced()
      throws IOException {
    Worker zombie = worker;
    zombie.open(List.of(P0));
    zombie.put(records(P0, 0, 4));
    worker = worker(Long.MAX_VALUE); // the same task on another Connect worker
    worker.open(List.of(P0));
    worker.put(records(P0, 0, 9));
    UUID id = UUID.randomUUID();
    control.send(GROUP, "orders-coordinator", new StartCommit(id));
    assertThat(worker.turn()).isTrue();
    List<DataWritten> handedOver = control.events(GROUP, DataWritten.class);
    assertThat(commitAndReadIds(handedOver)).hasSize(10);
    Map<Path, byte[]> committed = new java.util.HashMap<>();
    for (DataWritten event : handedOver) {
      Path manifest = Path.of(java.net.URI.create(event.manifestLocation()).getPath());
      committed.put(manifest, Files.readAllBytes(manifest));
    }

    // the old instance thaws and answers the cycle that is already in the table
    assertThat(zombie.turn()).as("the replaced worker stops").isFalse();
    assertThatThrownBy(zombie::checkHealthy).hasMessageContaining("was fenced");
    zombie.close();

    for (Map.Entry<Path, byte[]> manifest : committed.entrySet()) {
      assertThat(Files.readAllBytes(manifest.getKey()))
          .as("committed manifest %s", manifest.getKey())
          .isEqualTo(manifest.getValue());
    }
    assertThat(control.events(GROUP, DataWritten.class)).isEqualTo(handedOver);
    table.refresh();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(row -> ids.add((Long) row.getField("id")));
    }
    assertThat(ids).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
  }

  @Test
  void aTransactionWhoseCommitTimedOutIsAskedAgainAndItsDataIsNeverReadAgain() throws IOException {
    worker.open(List.of(P0, P1));
    putBoth();
    producer().commitTransactionException =
        new org.apache.kafka.common.errors.TimeoutException("the commit timed out");

    UUID id = cycle();
    assertThat(worker.turn()).as("still unknown: asked again").isTrue();

    assertThat(producer().transactionAborted())
        .as("a transaction that may be in is kept")
        .isFalse();
    assertThat(answers()).isEmpty();
    assertThat(worker.put(records(P0, 8, 8))).as("nothing is read again").isEmpty();
    producer().commitTransactionException = null;
    assertThat(worker.turn()).isTrue();
    assertAnsweredWithBothPartitions(id);
    assertThat(control.committedOffsets(GROUP))
        .isEqualTo(Map.of(P0, new OffsetAndMetadata(8), P1, new OffsetAndMetadata(4)));
    cycle();
    assertThat(commitAndReadIds(control.events(GROUP, DataWritten.class)))
        .containsExactly(5L, 6L, 7L, 8L, 1003L);
  }

  @Test
  void aTransactionWhoseOutcomeStaysUnknownPastTheRetryTimeoutFailsTheTaskWithoutReadingAgain() {
    worker.open(List.of(P0, P1));
    putBoth();
    producer().commitTransactionException =
        new org.apache.kafka.common.errors.TimeoutException("the commit timed out");
    UUID id = cycle();
    assertThat(worker.put(records(P0, 8, 8))).isEmpty();

    clock.advance(RETRY_TIMEOUT_MS + 1);
    assertThat(worker.turn()).isFalse();

    assertThatThrownBy(() -> worker.put(records(P0, 9, 9)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Task orders-1 cannot tell whether its hand-over of cycle " + id)
        .hasMessageContaining("It stops without reading anything again");
    assertThat(producer().transactionAborted()).isFalse();
  }

  @Test
  void aPassingTransactionFailureIsForgottenOnceATransactionGoesThrough() {
    worker.open(List.of(P0));
    producer().commitTransactionException = new KafkaException("the broker is unreachable");
    cycle();
    producer().commitTransactionException = null;
    cycle();
    assertThat(answers()).hasSize(1);

    clock.advance(RETRY_TIMEOUT_MS + 1);
    producer().commitTransactionException = new KafkaException("the broker is unreachable");
    cycle();

    worker.checkHealthy();
  }

  @Test
  void anIdleAnswerDoesNotEndAnObjectStoreOutage() throws IOException {
    worker.open(List.of(P0, P1));
    objectStoreDown();
    putBoth();
    cycle();
    assertThat(putBoth()).isNotEmpty();
    cycle();
    assertThat(answers()).as("an idle answer while rows wait to be read again").hasSize(1);

    clock.advance(RETRY_TIMEOUT_MS + 1);
    putBoth();
    control.send(GROUP, "orders-coordinator", new StartCommit(UUID.randomUUID()));

    assertThat(worker.turn()).isFalse();
    assertThatThrownBy(worker::checkHealthy).hasMessageContaining("Failed to create");
  }

  @Test
  void aFencedWorkerFailsSayingAnotherInstanceTookOver() {
    worker.open(List.of(P0, P1));
    putBoth();
    producer().fenceProducer();
    control.send(GROUP, "orders-coordinator", new StartCommit(UUID.randomUUID()));

    assertThat(worker.turn()).isFalse();
    assertThatThrownBy(() -> worker.put(records(P0, 8, 8)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining(
            "Worker of task orders-1 was fenced: another instance of this task took over"
                + " (transactional id floe-orders-worker-1)");
  }

  @Test
  void aWorkerHoldingEnoughPendingBytesAsksForAnEarlyCommit() {
    worker.close();
    worker = worker(1);
    worker.open(List.of(P0, P1));
    putBoth();

    assertThat(worker.turn()).isTrue();

    assertThat(control.events(GROUP, CommitRequest.class))
        .singleElement()
        .satisfies(request -> assertThat(request.bufferedBytes()).isPositive());
  }

  /** The answer to cycle {@code id} after {@link #putBoth}: both partitions' next offsets. */
  private void assertAnsweredWithBothPartitions(UUID id) {
    assertThat(answers())
        .containsExactly(
            new DataComplete(
                id,
                offsets(
                    new PartitionOffset("orders", 0, 8L, 1_007L),
                    new PartitionOffset("orders", 1, 4L, 1_003L))));
  }
}
