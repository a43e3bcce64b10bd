/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.errors;

import io.floe.it.stack.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a dead-letter topic written by Kafka Connect with {@code
 * errors.deadletterqueue.context.headers.enable=true}: each dead letter by the offset it had in its
 * source topic.
 */
public final class DeadLetters {
  private DeadLetters() {}

  /**
   * One dead letter: the original value's bytes and Connect's {@code __connect.errors.*} headers.
   */
  public record DeadLetter(byte[] value, Map<String, String> headers) {
    /** The exception message Connect recorded. */
    public String message() {
      return headers.getOrDefault("__connect.errors.exception.message", "");
    }
  }

  /** A consumer from the earliest offset of {@code broker}'s topics, in its own group. */
  public static KafkaConsumer<byte[], byte[]> reader(KafkaBroker broker, String group) {
    Map<String, Object> props = new java.util.HashMap<>(broker.adminLogin());
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * Waits up to {@code timeout} for {@code expected} dead letters, then for 3 more seconds, so that
   * more than expected shows too (each extra one under its own offset, or {@code -1} for one
   * without the offset header).
   */
  public static Map<Long, DeadLetter> read(
      KafkaBroker broker, String topic, int expected, Duration timeout) {
    Map<Long, DeadLetter> letters = new TreeMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer = reader(broker, "dlq-reader-" + topic)) {
      consumer.subscribe(java.util.List.of(topic));
      Instant deadline = Instant.now().plus(timeout);
      while (letters.size() < expected && Instant.now().isBefore(deadline)) {
        consumer.poll(Duration.ofMillis(500)).forEach(record -> add(letters, record));
      }
      consumer.poll(Duration.ofSeconds(3)).forEach(record -> add(letters, record));
    }
    return letters;
  }

  private static void add(Map<Long, DeadLetter> letters, ConsumerRecord<byte[], byte[]> record) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Header header : record.headers()) {
      headers.put(
          header.key(),
          header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
    }
    String offset = headers.get("__connect.errors.offset");
    letters.put(
        offset == null ? -1L : Long.parseLong(offset), new DeadLetter(record.value(), headers));
  }
}
