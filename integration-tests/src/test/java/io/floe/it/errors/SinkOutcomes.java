/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.errors;

import io.floe.connect.control.DataComplete;
import io.floe.connect.control.EventCodec;
import io.floe.connect.control.EventType;
import io.floe.connect.control.PartitionOffset;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * What a connector did with its records, waited for: rows in its tables, its committed source
 * offsets, and its dead letters with Connect's error headers.
 */
final class SinkOutcomes {
  static final Duration CONVERGE = Duration.ofSeconds(120);

  private final KafkaBroker broker;

  SinkOutcomes(KafkaBroker broker) {
    this.broker = broker;
  }

  /** A consumer of the broker reading from the earliest offset, in its own group. */
  KafkaConsumer<byte[], byte[]> reader(String group) {
    return DeadLetters.reader(broker, group);
  }

  /** Waits until the tables hold {@code expected} rows, and asserts there are no more. */
  void awaitRows(TableOracle oracle, long expected) throws InterruptedException {
    oracle.awaitRowCount(expected, CONVERGE);
  }

  /** Waits until the group has committed {@code expected} for the partition. */
  void awaitCommittedOffset(String group, TopicPartition partition, long expected)
      throws InterruptedException {
    try (var admin = broker.admin()) {
      TableOracle.awaitCommittedOffset(admin, group, partition, expected, CONVERGE);
    }
  }

  /** The dead letters' original offsets with their exception messages. */
  Map<Long, String> deadLetters(String topic, int expected) {
    Map<Long, String> reasons = new TreeMap<>();
    deadLetterHeaders(topic, expected)
        .forEach(
            (offset, headers) ->
                reasons.put(
                    offset, headers.getOrDefault("__connect.errors.exception.message", "")));
    return reasons;
  }

  /**
   * The dead letters' Connect error headers ({@code __connect.errors.*}) by original offset; waits
   * for {@code expected} of them, then a few seconds more to catch any unexpected one (which is
   * added with the header {@code unexpected}).
   */
  Map<Long, Map<String, String>> deadLetterHeaders(String topic, int expected) {
    Map<Long, Map<String, String>> letters = new TreeMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer = reader("dlq-reader-" + topic)) {
      consumer.subscribe(List.of(topic));
      Instant deadline = Instant.now().plus(CONVERGE);
      while (letters.size() < expected && Instant.now().isBefore(deadline)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          letters.put(offset(record), headers(record));
        }
      }
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(3))) {
        Map<String, String> headers = headers(record);
        headers.put("unexpected", "true");
        letters.put(offset(record), headers);
      }
    }
    return letters;
  }

  /**
   * Where the committed hand-overs of a source partition ended: the next offset each {@code
   * DataComplete} on the control topic reports for it, read committed (a hand-over whose
   * transaction aborted was rewound and read again). A task's {@code unique} values start again at
   * each hand-over, so a value repeated at offset {@code o} of the partition breaks the rule unless
   * {@code o} is among these ends.
   */
  Set<Long> handOverEnds(String controlTopic, TopicPartition source) {
    Set<Long> ends = new TreeSet<>();
    EventCodec codec = new EventCodec();
    TopicPartition control = new TopicPartition(controlTopic, 0);
    Map<String, Object> props = new HashMap<>(broker.adminLogin());
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            props,
            new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
            new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      consumer.assign(List.of(control));
      consumer.seekToBeginning(List.of(control));
      long end = consumer.endOffsets(List.of(control)).get(control);
      Instant deadline = Instant.now().plus(CONVERGE);
      while (consumer.position(control) < end) {
        if (Instant.now().isAfter(deadline)) {
          throw new AssertionError(
              "the control topic " + controlTopic + " was not read to its end");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.value() == null
              || !EventCodec.peekHeader(record.value()).is(EventType.DATA_COMPLETE)) {
            continue;
          }
          DataComplete complete = (DataComplete) codec.decode(record.value()).event();
          for (PartitionOffset answered : complete.assignments()) {
            if (answered.topic().equals(source.topic())
                && answered.partition() == source.partition()
                && answered.offset() != null) {
              ends.add(answered.offset());
            }
          }
        }
      }
    }
    return ends;
  }

  private static long offset(ConsumerRecord<byte[], byte[]> record) {
    return Long.parseLong(headers(record).getOrDefault("__connect.errors.offset", "-1"));
  }

  private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
    Map<String, String> headers = new HashMap<>();
    for (Header header : record.headers()) {
      headers.put(
          header.key(),
          header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8));
    }
    return headers;
  }
}
