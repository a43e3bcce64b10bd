/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.control.KafkaClients;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.WriterPoolOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's part in the commit protocol as Connect drives it: the coordinator's election by the
 * task's own assignment, and the rewinds and pauses it asks of Connect. Kafka's admin and the
 * Connect consumer are Kafka's mocks, the control topic is in memory, the table is on local disk.
 */
class CommitterTest {
  private static final String TABLE = "db.events";
  private static final TopicPartition AUDIT0 = new TopicPartition("audit", 0);
  private static final TopicPartition ORDERS0 = new TopicPartition("orders", 0);
  private static final TopicPartition ORDERS1 = new TopicPartition("orders", 1);
  private static final Schema VALUE =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("text", Schema.STRING_SCHEMA)
          .build();

  /** Shaped like Connect's context: the task's consumer in a field named "consumer". */
  static final class ConnectLikeContext implements SinkTaskContext {
    @SuppressWarnings("unused") // read by ConnectConsumerAccess
    private final Consumer<byte[], byte[]> consumer;

    final Set<TopicPartition> assignment = new HashSet<>();
    final Set<TopicPartition> paused = new HashSet<>();
    final Map<TopicPartition, Long> offsets = new HashMap<>();
    long timeoutMs = -1;

    ConnectLikeContext() {
      this.consumer = newConsumer();
    }

    @SuppressWarnings("deprecation") // the OffsetResetStrategy constructor is the one 3.9 offers
    private static MockConsumer<byte[], byte[]> newConsumer() {
      return new MockConsumer<>(OffsetResetStrategy.EARLIEST) {
        @Override
        public synchronized ConsumerGroupMetadata groupMetadata() {
          return new ConsumerGroupMetadata(
              "connect-orders", 1, "member-1", java.util.Optional.empty());
        }
      };
    }

    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
      this.offsets.putAll(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
      offsets.put(tp, offset);
    }

    @Override
    public void timeout(long timeoutMs) {
      this.timeoutMs = timeoutMs;
    }

    @Override
    public Set<TopicPartition> assignment() {
      return Set.copyOf(assignment);
    }

    @Override
    public void pause(TopicPartition... partitions) {
      paused.addAll(List.of(partitions));
    }

    @Override
    public void resume(TopicPartition... partitions) {
      List.of(partitions).forEach(paused::remove);
    }

    @Override
    public void requestCommit() {}
  }

  @TempDir Path dir;

  private final MutableClock clock = new MutableClock(1_767_225_600_000L);
  private final InMemoryControlTopic control = new InMemoryControlTopic();
  private final MockAdminClient admin =
      MockAdminClient.create().brokers(List.of(new Node(0, "localhost", 9092))).build();
  private final ConnectLikeContext context = new ConnectLikeContext();
  private HadoopCatalog catalog;
  private LocalTable local;
  private Committer committer;

  @BeforeEach
  void createTable() throws IOException {
    local = new LocalTable(dir, TABLE, "text");
    catalog = local.catalog;
    Node broker = admin.broker(0);
    TopicPartitionInfo first = new TopicPartitionInfo(0, broker, List.of(broker), List.of(broker));
    TopicPartitionInfo second = new TopicPartitionInfo(1, broker, List.of(broker), List.of(broker));
    admin.addTopic(false, "orders", List.of(first, second), Map.of());
    admin.addTopic(false, "audit", List.of(first), Map.of());
  }

  @AfterEach
  void close() throws IOException {
    if (committer != null) {
      committer.close();
    }
    catalog.close();
  }

  private FloeSinkConfig config(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("name", "orders");
    props.put("iceberg.tables", TABLE);
    props.put("iceberg.catalog.type", "hadoop");
    props.put("iceberg.control.topic", InMemoryControlTopic.NAME);
    props.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    props.put("iceberg.control.commit.retry-timeout-ms", "60000");
    props.putIfAbsent("topics", "orders,audit");
    return new FloeSinkConfig(props);
  }

  private Committer start(FloeSinkConfig config) {
    KafkaClients clients =
        new KafkaClients() {
          @Override
          public Producer<byte[], byte[]> producer(String transactionalId, String clientId) {
            return control.producer(transactionalId, clientId);
          }

          @Override
          public Consumer<byte[], byte[]> consumer(String groupId, String clientId) {
            return control.consumer(groupId, clientId);
          }

          @Override
          public Admin admin(String clientId) {
            return admin;
          }
        };
    MetricsRegistry registry = MetricsRegistry.forTask("orders", null);
    Committer started = new Committer(config, catalog, context, clients, clock, registry);
    SinkWriter writer =
        SinkWriter.forTask(
            config,
            catalog,
            new NoBadRecords(),
            new WriterPoolOptions(config.writerMemoryBudgetBytes(), 64),
            0,
            clock);
    started.start(
        writer,
        () -> {},
        new TaskMetrics(registry, 0, config.writerMemoryBudgetBytes(), () -> 0, () -> 0));
    committer = started;
    return started;
  }

  private void assign(Committer committer, TopicPartition... partitions) {
    context.assignment.addAll(List.of(partitions));
    committer.open(List.of(partitions));
  }

  private void revoke(Committer committer, TopicPartition... partitions) {
    List.of(partitions).forEach(context.assignment::remove);
    committer.close(List.of(partitions));
  }

  @Test
  void theTaskOwningPartitionZeroOfTheFirstSourceTopicRunsTheCoordinatorWhileItOwnsIt() {
    Committer committer = start(config(Map.of()));

    assign(committer, ORDERS0, ORDERS1);
    assertThat(committer.runsCoordinator()).as("orders sorts after audit").isFalse();
    assign(committer, AUDIT0);
    assertThat(committer.runsCoordinator()).isTrue();
    revoke(committer, ORDERS0);
    assertThat(committer.runsCoordinator()).isTrue();
    revoke(committer, AUDIT0);
    assertThat(committer.runsCoordinator()).isFalse();
  }

  @Test
  void aTopicRegexThatMatchesNoTopicYetFailsTheStartSayingTheElectionNeedsOne() {
    assertThatThrownBy(() -> start(config(Map.of("topics", "", "topics.regex", "payments-.*"))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("topics.regex payments-.* matches none")
        .hasMessageContaining("the coordinator's election needs one");
  }

  @Test
  void aControlTopicOfSeveralPartitionsFailsTheStartNamingTheKeyOfAOnePartitionTopic() {
    Node broker = admin.broker(0);
    admin.addTopic(
        false,
        InMemoryControlTopic.NAME,
        List.of(
            new TopicPartitionInfo(0, broker, List.of(broker), List.of(broker)),
            new TopicPartitionInfo(1, broker, List.of(broker), List.of(broker))),
        Map.of());

    assertThatThrownBy(() -> start(config(Map.of())))
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Control topic " + InMemoryControlTopic.NAME + " has 2 partitions")
        .hasMessageContaining("Set " + CommitKeys.CONTROL_TOPIC + " to a topic of 1 partition");
  }

  @Test
  void aFailedWritePausesTheAssignedPartitionsAndRewindsThemThenResumesWhenThePauseIsOver()
      throws IOException {
    Committer committer =
        start(config(Map.of("iceberg.tables.writer.memory-budget-bytes", "1048576")));
    assign(committer, ORDERS0, ORDERS1);
    local.storeDown();

    List<SinkRecord> batch = new ArrayList<>();
    String text = "x".repeat(10_000);
    for (long offset = 40; offset < 240; offset++) {
      batch.add(
          new SinkRecord(
              "orders",
              (int) (offset % 2),
              null,
              null,
              VALUE,
              new Struct(VALUE).put("id", offset).put("text", text),
              offset));
    }
    committer.put(batch);

    assertThat(context.offsets).isEqualTo(Map.of(ORDERS0, 40L, ORDERS1, 41L));
    assertThat(context.paused).containsExactlyInAnyOrder(ORDERS0, ORDERS1);
    assertThat(context.timeoutMs).isEqualTo(500);

    clock.advance(200);
    committer.put(List.of());
    assertThat(context.paused).as("still pausing").containsExactlyInAnyOrder(ORDERS0, ORDERS1);
    assertThat(context.timeoutMs).isEqualTo(300);

    clock.advance(300);
    committer.put(List.of());
    assertThat(context.paused).isEmpty();
  }
}
