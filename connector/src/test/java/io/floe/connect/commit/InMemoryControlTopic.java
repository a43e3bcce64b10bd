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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
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
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A one-partition control topic in memory, and the control channel's Kafka clients over it: Kafka's
 * {@link MockProducer}, whose committed transactions land on the topic (and their offsets in their
 * consumer group), and {@link MockConsumer}s that read the topic. Aborted or failed transactions
 * leave no trace, as with a {@code read_committed} consumer. Not thread-safe: tests drive the
 * control threads' steps by hand.
 *
 * <p>As in Kafka, a producer that initialises transactions fences the older producer of its
 * transactional id, and offsets sent to a transaction with the group metadata of an older
 * generation than the group's current one (see {@link #generation}) fail it. A {@link
 * ControlFaults} sees every transactional step and every poll, to fail, delay or repeat them.
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
  private final Map<String, Integer> generations = new HashMap<>();
  private final Map<TopicPartition, TopicProducer> pendingOffsets = new HashMap<>();
  private final List<TopicProducer> opened = new ArrayList<>();
  private java.util.function.LongSupplier now = () -> 0;
  private long transactionTimeoutMs = Long.MAX_VALUE;
  private ControlFaults faults = new ControlFaults() {};

  /** Where a commit that timed out stands: it landed, or lands only if asked again. */
  private enum Commit {
    LANDED,
    PENDING
  }

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

  void faults(ControlFaults injected) {
    this.faults = injected;
  }

  /**
   * Sets consumer group {@code groupId}'s generation: from now on, offsets sent to a transaction
   * with an older generation fail it, as Kafka fences a member that missed a rebalance.
   */
  void generation(String groupId, int generationId) {
    generations.put(groupId, generationId);
  }

  /**
   * Aborts, as Kafka's transaction coordinator does, every transaction open for longer than {@code
   * timeoutMs} by {@code clock}; its producer is fenced.
   */
  void transactionTimeout(java.util.function.LongSupplier clock, long timeoutMs) {
    this.now = clock;
    this.transactionTimeoutMs = timeoutMs;
  }

  /**
   * Whether a {@code read_committed} consumer of a group can read the group's committed offset of
   * {@code partition} now: not while an open transaction holds an offset of it (Kafka's
   * require_stable offset fetch, KIP-447). Transactions past their timeout are aborted first.
   */
  boolean offsetStable(TopicPartition partition) {
    for (TopicProducer producer : List.copyOf(opened)) {
      producer.expireIfTimedOut();
    }
    return !pendingOffsets.containsKey(partition);
  }

  /** Fences the current producer of {@code transactionalId}, as a newer one would. */
  void fence(String transactionalId) {
    TopicProducer producer = producers.get(transactionalId);
    if (producer != null) {
      producer.fence();
    }
  }

  @Override
  public Producer<byte[], byte[]> producer(String transactionalId, String clientId) {
    TopicProducer producer = new TopicProducer(transactionalId);
    opened.add(producer);
    return producer;
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

  /**
   * A transactional producer whose committed sends are appended to the topic. A fenced one learns
   * it at its next transactional step, as Kafka's does; its sends fail only their futures.
   */
  private final class TopicProducer extends MockProducer<byte[], byte[]> {
    private final String transactionalId;
    private boolean fenced;
    private KafkaException failed;
    private Commit timedOut;
    private long beganMs;

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

    void fence() {
      if (!fenced && transactionInitialized() && !closed()) {
        fenceProducer();
      }
      fenced = true;
      if (timedOut == Commit.PENDING) {
        timedOut = null; // the newer producer's initialisation aborts the open transaction
      }
      releaseOffsets();
      opened.remove(this);
    }

    /** The transaction coordinator aborts a transaction open for too long and fences it. */
    void expireIfTimedOut() {
      boolean open = transactionInFlight() || timedOut == Commit.PENDING;
      if (open && !fenced && now.getAsLong() - beganMs > transactionTimeoutMs) {
        fence();
      }
    }

    private void releaseOffsets() {
      pendingOffsets.values().removeIf(holder -> holder == this);
    }

    /** As with Kafka, the producer initialised last with a transactional id fences the others. */
    @Override
    public synchronized void initTransactions() {
      faults.before(ControlFaults.Step.INIT, transactionalId);
      super.initTransactions();
      TopicProducer older = producers.put(transactionalId, this);
      if (older != null && older != this) {
        older.fence();
      }
    }

    @Override
    public void beginTransaction() {
      checkNoCommitToRetry("beginTransaction");
      faults.before(ControlFaults.Step.BEGIN, transactionalId);
      super.beginTransaction();
      failed = null;
      beganMs = now.getAsLong();
    }

    @Override
    public synchronized java.util.concurrent.Future<
            org.apache.kafka.clients.producer.RecordMetadata>
        send(ProducerRecord<byte[], byte[]> record) {
      if (fenced) {
        java.util.concurrent.CompletableFuture<org.apache.kafka.clients.producer.RecordMetadata>
            future = new java.util.concurrent.CompletableFuture<>();
        future.completeExceptionally(new ProducerFencedException("fenced by a newer producer"));
        return future;
      }
      return super.send(record);
    }

    @Override
    public void sendOffsetsToTransaction(
        Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
      faults.before(ControlFaults.Step.SEND_OFFSETS, transactionalId);
      Integer current = generations.get(group.groupId());
      if (current != null && group.generationId() != current && !fenced) {
        // Kafka answers ILLEGAL_GENERATION: the transaction can only be aborted
        failed =
            new CommitFailedException(
                "generation "
                    + group.generationId()
                    + " of group "
                    + group.groupId()
                    + " is stale");
        throw failed;
      }
      super.sendOffsetsToTransaction(offsets, group);
      offsets.keySet().forEach(partition -> pendingOffsets.put(partition, this));
    }

    @Override
    public synchronized void commitTransaction() {
      if (failed != null) {
        throw new KafkaException("the transaction failed before: " + failed.getMessage(), failed);
      }
      if (timedOut == Commit.LANDED) {
        timedOut = null; // Kafka answers a retried commit with the first one's outcome
        return;
      }
      if (timedOut == Commit.PENDING) {
        timedOut = null;
        land();
        return;
      }
      try {
        faults.before(ControlFaults.Step.COMMIT, transactionalId);
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        timedOut = Commit.PENDING;
        throw e;
      }
      land();
      try {
        faults.committed(transactionalId);
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        timedOut = Commit.LANDED;
        throw e;
      }
    }

    private void land() {
      releaseOffsets();
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

    /**
     * As Kafka's producer: closing completes a commit that was asked for, and aborts a transaction
     * still open.
     */
    @Override
    public void close(Duration timeout) {
      if (!fenced && timedOut == Commit.PENDING) {
        timedOut = null;
        land();
      } else if (!fenced && transactionInFlight()) {
        super.abortTransaction();
        releaseOffsets();
      }
      opened.remove(this);
      super.close(timeout);
    }

    @Override
    public synchronized void abortTransaction() {
      checkNoCommitToRetry("abortTransaction");
      super.abortTransaction();
      releaseOffsets();
    }

    /** As Kafka's producer, which must be asked again to commit after a commit timed out. */
    private void checkNoCommitToRetry(String operation) {
      if (timedOut != null) {
        throw new IllegalStateException(
            "Cannot attempt operation `"
                + operation
                + "` because the previous call to `commitTransaction` timed out and must be"
                + " retried");
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

    /** Hands the consumer what was appended since it last looked, at most {@code limit}. */
    private void catchUp(int limit) {
      updateEndOffsets(Map.of(PARTITION, (long) log.size()));
      if (assignment().contains(PARTITION)) {
        fed = (int) Math.max(fed, super.position(PARTITION));
        int fedNow = 0;
        for (; fed < log.size() && fedNow < limit; fed++) {
          addRecord(log.get(fed));
          fedNow++;
        }
      }
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
      catchUp(faults.pollLimit());
      ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
      records.forEach(record -> read.add(record.offset()));
      int again = faults.redeliveries();
      if (again <= 0 || read.isEmpty()) {
        return records;
      }
      List<ConsumerRecord<byte[], byte[]>> repeated = new ArrayList<>();
      records.forEach(repeated::add);
      for (Long offset : read.subList(Math.max(0, read.size() - again), read.size())) {
        repeated.add(log.get(offset.intValue()));
      }
      return new ConsumerRecords<>(Map.of(PARTITION, repeated));
    }

    /**
     * As Kafka's consumer: knows the end of the log (for a seek to the end), but hands over no
     * record, which only a poll does (and a slow or stalled one hands over fewer).
     */
    @Override
    public synchronized long position(TopicPartition partition) {
      updateEndOffsets(Map.of(PARTITION, (long) log.size()));
      return super.position(partition);
    }

    /** As Kafka's consumer: the end of the log, read committed, as the broker has it now. */
    @Override
    public synchronized Map<TopicPartition, Long> endOffsets(
        Collection<TopicPartition> partitions, Duration timeout) {
      updateEndOffsets(Map.of(PARTITION, (long) log.size()));
      return super.endOffsets(partitions, timeout);
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
