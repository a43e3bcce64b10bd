/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's connection to the control topic: a transactional producer under the party's stable
 * transactional id and a {@code read_committed} consumer of every control partition. A worker and
 * the coordinator each own one, used by their control thread only.
 *
 * <p>Events go out in Kafka transactions, optionally with consumer offsets. A transaction ends in
 * one of three ways: committed; aborted (a failure before or during its commit that Kafka reported:
 * nothing of it is visible); or unknown (its commit timed out: it may have committed, and is asked
 * again with {@link #commitAgain}). Fencing is thrown as Kafka throws it (the caller names who was
 * fenced); a missing permission becomes a {@link ConnectException} naming the refused resource and
 * the ACL to grant ({@link MissingAcl}).
 */
public final class ControlChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);
  private static final Duration CLIENT_CLOSE = Duration.ofSeconds(1);

  /** How a transaction ended. */
  public enum Outcome {
    COMMITTED,
    ABORTED,
    UNKNOWN
  }

  /** A transaction's outcome, and the failure behind it unless it committed. */
  public record Sent(Outcome outcome, KafkaException cause) {
    public boolean committed() {
      return outcome == Outcome.COMMITTED;
    }
  }

  private final ControlTopic topic;
  private final String transactionalId;
  private final byte[] sender;
  private final String senderName;
  private final EventCodec codec = new EventCodec();
  private final Producer<byte[], byte[]> producer;
  private final Consumer<byte[], byte[]> consumer;
  private final Map<TopicPartition, OffsetAndMetadata> startedFrom;

  private ControlChannel(
      ControlTopic topic,
      String transactionalId,
      String sender,
      Producer<byte[], byte[]> producer,
      Consumer<byte[], byte[]> consumer,
      Map<TopicPartition, OffsetAndMetadata> startedFrom) {
    this.topic = topic;
    this.transactionalId = transactionalId;
    this.senderName = sender;
    this.sender = sender.getBytes(StandardCharsets.UTF_8);
    this.producer = producer;
    this.consumer = consumer;
    this.startedFrom = startedFrom;
  }

  /**
   * A channel that reads from the end of the control topic: only what is sent from now on concerns
   * its owner (a worker answers the cycles that start after it).
   *
   * @param role and {@code id} name the clients: {@code floe-<role>-<id>} and {@code
   *     floe-<role>-control-<id>}
   * @param sender names the owner in the events it sends, and keys them
   */
  public static ControlChannel fromEnd(
      KafkaClients clients,
      ControlTopic topic,
      String transactionalId,
      String role,
      String id,
      String sender) {
    return open(
        clients,
        topic,
        transactionalId,
        role,
        id,
        null,
        sender,
        consumer -> {
          consumer.seekToEnd(topic.partitions());
          for (TopicPartition partition : topic.partitions()) {
            consumer.position(partition); // resolve now, not at the first poll
          }
          return Map.of();
        });
  }

  /**
   * A channel that reads from the offsets its consumer group committed (in its own transactions),
   * or from the earliest offset of a partition without one.
   */
  public static ControlChannel fromCommitted(
      KafkaClients clients,
      ControlTopic topic,
      String transactionalId,
      String role,
      String id,
      String groupId,
      String sender) {
    return open(
        clients,
        topic,
        transactionalId,
        role,
        id,
        groupId,
        sender,
        consumer -> {
          Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
          Map<TopicPartition, OffsetAndMetadata> offsets =
              consumer.committed(Set.copyOf(topic.partitions()));
          for (TopicPartition partition : topic.partitions()) {
            OffsetAndMetadata offset = offsets.get(partition);
            if (offset == null) {
              consumer.seekToBeginning(List.of(partition));
            } else {
              consumer.seek(partition, offset.offset());
              committed.put(partition, offset);
            }
          }
          return committed;
        });
  }

  /**
   * Opens the clients and assigns every control partition to the consumer.
   *
   * @param position places the consumer; returns the committed offsets it started from
   */
  private static ControlChannel open(
      KafkaClients clients,
      ControlTopic topic,
      String transactionalId,
      String role,
      String id,
      String groupId,
      String sender,
      Function<Consumer<byte[], byte[]>, Map<TopicPartition, OffsetAndMetadata>> position) {
    Producer<byte[], byte[]> producer =
        initialised(clients, topic, transactionalId, "floe-" + role + "-" + id);
    Consumer<byte[], byte[]> consumer =
        clients.consumer(groupId, "floe-" + role + "-control-" + id);
    Map<TopicPartition, OffsetAndMetadata> startedFrom;
    try {
      consumer.assign(topic.partitions());
      startedFrom = position.apply(consumer);
    } catch (AuthorizationException e) {
      closeQuietly(consumer, producer);
      throw MissingAcl.explain(e, MissingAcl.TopicUse.READ, topic.name(), null);
    } catch (AuthenticationException e) {
      closeQuietly(consumer, producer);
      throw ControlLogin.explain(e, clients.endpoint());
    } catch (RuntimeException e) {
      closeQuietly(consumer, producer);
      throw e;
    }
    return new ControlChannel(topic, transactionalId, sender, producer, consumer, startedFrom);
  }

  private static Producer<byte[], byte[]> initialised(
      KafkaClients clients, ControlTopic topic, String transactionalId, String clientId) {
    Producer<byte[], byte[]> producer = clients.producer(transactionalId, clientId);
    try {
      producer.initTransactions();
    } catch (AuthorizationException e) {
      producer.close(CLIENT_CLOSE);
      throw MissingAcl.explain(e, MissingAcl.TopicUse.WRITE, topic.name(), transactionalId);
    } catch (AuthenticationException e) {
      producer.close(CLIENT_CLOSE);
      throw ControlLogin.explain(e, clients.endpoint());
    } catch (RuntimeException e) {
      producer.close(CLIENT_CLOSE);
      throw e;
    }
    return producer;
  }

  public ControlTopic topic() {
    return topic;
  }

  public String transactionalId() {
    return transactionalId;
  }

  /** The committed offsets the channel started from ({@link #fromCommitted} only). */
  public Map<TopicPartition, OffsetAndMetadata> startedFrom() {
    return startedFrom;
  }

  public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
    try {
      return consumer.poll(timeout);
    } catch (AuthorizationException e) {
      throw MissingAcl.explain(e, MissingAcl.TopicUse.READ, topic.name(), null);
    }
  }

  /** The consumer's position in each control partition, by partition number. */
  public Map<Integer, Long> position() {
    Map<Integer, Long> position = new HashMap<>();
    for (TopicPartition partition : topic.partitions()) {
      position.put(partition.partition(), consumer.position(partition));
    }
    return position;
  }

  /** Committed control records not read yet, as far as the consumer knows without a request. */
  public long lag() {
    long lag = 0;
    for (TopicPartition partition : topic.partitions()) {
      OptionalLong partitionLag = consumer.currentLag(partition);
      if (partitionLag.isPresent()) {
        lag += partitionLag.getAsLong();
      }
    }
    return lag;
  }

  /**
   * The end of each control partition to a {@code read_committed} reader, by partition number, as
   * the broker says now (a request). Empty when the broker does not answer within {@code timeout}.
   */
  public Optional<Map<Integer, Long>> ends(Duration timeout) {
    try {
      Map<Integer, Long> ends = new HashMap<>();
      consumer
          .endOffsets(topic.partitions(), timeout)
          .forEach((partition, end) -> ends.put(partition.partition(), end));
      return ends.size() == topic.partitions().size() ? Optional.of(ends) : Optional.empty();
    } catch (TimeoutException e) {
      LOG.debug("Cannot read the end of control topic {}: {}", topic.name(), e.toString());
      return Optional.empty();
    }
  }

  /** An event from the channel's owner, in the control topic's wire format. */
  public ProducerRecord<byte[], byte[]> record(String groupId, long nowMs, ControlEvent event) {
    return new ProducerRecord<>(
        topic.name(), sender, codec.encode(groupId, senderName, nowMs, event));
  }

  /**
   * Sends records, and commits consumer offsets, in one transaction.
   *
   * @param offsets offsets to commit with the transaction; empty for none
   * @param group the group the offsets are committed for (its generation fences older members)
   */
  public Sent send(
      List<ProducerRecord<byte[], byte[]>> records,
      Map<TopicPartition, OffsetAndMetadata> offsets,
      ConsumerGroupMetadata group) {
    return transact(
        () -> {
          producer.beginTransaction();
          for (ProducerRecord<byte[], byte[]> record : records) {
            producer.send(record);
          }
          if (!offsets.isEmpty()) {
            producer.sendOffsetsToTransaction(offsets, group);
          }
        });
  }

  /** Asks Kafka again to commit the transaction whose commit timed out. */
  public Sent commitAgain() {
    return transact(() -> {});
  }

  /**
   * Runs the steps of a transaction, then commits it. Only a commit that times out leaves the
   * outcome unknown; any other failure aborts the transaction.
   */
  private Sent transact(Runnable steps) {
    boolean committing = false;
    try {
      steps.run();
      committing = true;
      producer.commitTransaction();
      return new Sent(Outcome.COMMITTED, null);
    } catch (AuthorizationException e) {
      abortQuietly();
      throw MissingAcl.explain(e, MissingAcl.TopicUse.WRITE, topic.name(), transactionalId);
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      throw e;
    } catch (KafkaException e) {
      if (committing && e instanceof TimeoutException) {
        return new Sent(Outcome.UNKNOWN, e);
      }
      abortQuietly();
      return new Sent(Outcome.ABORTED, e);
    }
  }

  private void abortQuietly() {
    try {
      producer.abortTransaction();
    } catch (RuntimeException e) {
      LOG.debug("Aborting the transaction failed too: {}", e.toString());
    }
  }

  /** Interrupts a blocking poll, from another thread. */
  public void wakeup() {
    consumer.wakeup();
  }

  @Override
  public void close() {
    closeQuietly(consumer, producer);
  }

  private static void closeQuietly(
      Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer) {
    try {
      consumer.close(CLIENT_CLOSE);
    } catch (RuntimeException e) {
      LOG.debug("Closing the control consumer failed: {}", e.toString());
    }
    try {
      producer.close(CLIENT_CLOSE);
    } catch (RuntimeException e) {
      LOG.debug("Closing the control producer failed: {}", e.toString());
    }
  }
}
