/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.ControlEvent;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.EventCodec;
import io.floe.connect.control.EventHeader;
import io.floe.connect.control.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A one-partition control topic in memory, and the control channel's Kafka clients over it: Kafka's
 * {@link MockProducer}, whose committed transactions land on the topic (and their offsets in their
 * consumer group), and {@link MockConsumer}s that read the topic. Aborted or failed transactions
 * leave no trace, as with a {@code read_committed} consumer. Not thread-safe: tests drive the
 * control threads' steps by hand.
 */
final class InMemoryControlTopic implements KafkaClients {
  static final String NAME = "floe-control";
  private static final TopicPartition PARTITION = new TopicPartition(NAME, 0);
  private static final Node NODE = new Node(1, "localhost", 9092);

  private final ControlTopic topic;
  private final EventCodec codec = new EventCodec();
  private final List<ConsumerRecord<byte[], byte[]>> log = new ArrayList<>();
  private final Map<String, Map<TopicPartition, OffsetAndMetadata>> groups = new HashMap<>();
  private final Map<String, TopicProducer> producers = new HashMap<>();
  private final Map<String, TopicConsumer> consumers = new HashMap<>();

  InMemoryControlTopic() {
    this(Uuid.randomUuid());
  }

  /** A topic with the given topic id: a recreated topic has a new one. */
  InMemoryControlTopic(Uuid id) {
    this.topic = new ControlTopic(NAME, id, List.of(PARTITION));
  }

  ControlTopic topic() {
    return topic;
  }

  @Override
  public Producer<byte[], byte[]> producer(String transactionalId, String clientId) {
    return new TopicProducer(transactionalId);
  }

  @Override
  public Consumer<byte[], byte[]> consumer(String groupId, String clientId) {
    TopicConsumer consumer = new TopicConsumer(groupId);
    consumers.put(clientId, consumer);
    return consumer;
  }

  @Override
  public Admin admin(String clientId) {
    throw new UnsupportedOperationException("the control topic is given, not looked up");
  }

  /** The last producer initialised with this transactional id. */
  MockProducer<byte[], byte[]> producer(String transactionalId) {
    return producers.get(transactionalId);
  }

  /** The offsets the last consumer opened with this client id returned from its polls. */
  List<Long> offsetsReadBy(String clientId) {
    return consumers.get(clientId).read;
  }

  /** Appends {@code event} of connector {@code groupId}, as a client outside this test would. */
  long send(String groupId, String senderTaskId, ControlEvent event) {
    return append(codec.encode(groupId, senderTaskId, 0, event));
  }

  /** Appends a raw value, Floe event or not, and returns its offset. */
  long append(byte[] value) {
    long offset = log.size();
    log.add(new ConsumerRecord<>(NAME, 0, offset, null, value));
    return offset;
  }

  /** The offset the next record gets. */
  long endOffset() {
    return log.size();
  }

  /** Every Floe event of connector {@code groupId} of the given type, in topic order. */
  <T extends ControlEvent> List<T> events(String groupId, Class<T> type) {
    List<T> events = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : log) {
      EventHeader header;
      try {
        header = EventCodec.peekHeader(record.value());
      } catch (RuntimeException notAnEvent) {
        continue;
      }
      ControlEvent event = codec.decode(record.value()).event();
      if (header.isFor(groupId) && type.isInstance(event)) {
        events.add(type.cast(event));
      }
    }
    return events;
  }

  /** The offsets committed for consumer group {@code groupId}, by transactions. */
  Map<TopicPartition, OffsetAndMetadata> committedOffsets(String groupId) {
    return groups.getOrDefault(groupId, Map.of());
  }

  /** A transactional producer whose committed sends are appended to the topic. */
  private final class TopicProducer extends MockProducer<byte[], byte[]> {
    private final String transactionalId;

    TopicProducer(String transactionalId) {
      super(
          new Cluster(
              "in-memory",
              List.of(NODE),
              List.of(new PartitionInfo(NAME, 0, NODE, new Node[] {NODE}, new Node[] {NODE})),
              Set.of(),
              Set.of()),
          true,
          new OnlyPartition(),
          new ByteArraySerializer(),
          new ByteArraySerializer());
      this.transactionalId = transactionalId;
    }

    /** As with Kafka, the producer initialised last with a transactional id fences the others. */
    @Override
    public synchronized void initTransactions() {
      super.initTransactions();
      TopicProducer previous = producers.put(transactionalId, this);
      if (previous != null && previous != this && !previous.closed()) {
        previous.fenceProducer();
      }
    }

    @Override
    public synchronized void commitTransaction() {
      int sent = history().size();
      int offsetCommits = consumerGroupOffsetsHistory().size();
      super.commitTransaction();
      List<ProducerRecord<byte[], byte[]>> records = history();
      for (ProducerRecord<byte[], byte[]> record : records.subList(sent, records.size())) {
        append(record.value());
      }
      List<Map<String, Map<TopicPartition, OffsetAndMetadata>>> commits =
          consumerGroupOffsetsHistory();
      for (Map<String, Map<TopicPartition, OffsetAndMetadata>> commit :
          commits.subList(offsetCommits, commits.size())) {
        commit.forEach(
            (group, offsets) ->
                groups.computeIfAbsent(group, g -> new HashMap<>()).putAll(offsets));
      }
    }
  }

  /** Sends every record to the topic's one partition. */
  private static final class OnlyPartition implements Partitioner {
    @Override
    public int partition(
        String topic,
        Object key,
        byte[] keyBytes,
        Object value,
        byte[] valueBytes,
        Cluster cluster) {
      return 0;
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public void close() {}
  }

  /** A consumer of the topic that finds its group's committed offsets in the topic's groups. */
  private final class TopicConsumer extends MockConsumer<byte[], byte[]> {
    private final String groupId;
    private final List<Long> read = new ArrayList<>();
    private int fed;

    TopicConsumer(String groupId) {
      super(OffsetResetStrategy.EARLIEST);
      this.groupId = groupId;
      updateBeginningOffsets(Map.of(PARTITION, 0L));
    }

    /** Hands the consumer what was appended since it last looked. */
    private void catchUp() {
      updateEndOffsets(Map.of(PARTITION, (long) log.size()));
      if (assignment().contains(PARTITION)) {
        for (; fed < log.size(); fed++) {
          addRecord(log.get(fed));
        }
      }
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
      catchUp();
      ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
      records.forEach(record -> read.add(record.offset()));
      return records;
    }

    @Override
    public synchronized long position(TopicPartition partition) {
      catchUp();
      return super.position(partition);
    }

    @Override
    public synchronized Map<TopicPartition, OffsetAndMetadata> committed(
        Set<TopicPartition> partitions) {
      Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
      Map<TopicPartition, OffsetAndMetadata> group =
          groupId == null ? Map.of() : committedOffsets(groupId);
      for (TopicPartition partition : partitions) {
        if (group.containsKey(partition)) {
          committed.put(partition, group.get(partition));
        }
      }
      return committed;
    }
  }
}
