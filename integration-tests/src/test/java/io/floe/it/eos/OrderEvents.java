/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import io.floe.it.stack.KafkaBroker;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongToIntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Test records as JsonConverter reads them with {@code schemas.enable=true}: an id, a kind that
 * routes the record ("a" or "b"), and a Connect Timestamp; or values of another {@link Format}.
 */
public final class OrderEvents implements AutoCloseable {
  /** A record's value, from its id and its timestamp. */
  public interface Format {
    String value(long id, long timestampMs);
  }

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"name\":\"order\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"ts\",\"type\":\"int64\",\"optional\":false,"
          + "\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"version\":1}]}";

  private final KafkaProducer<String, String> producer;
  private final Format format;

  public OrderEvents(String bootstrapServers) {
    this(bootstrapServers, Map.of());
  }

  /** A producer that logs in with {@code login}, e.g. {@link KafkaBroker#adminLogin()}. */
  OrderEvents(String bootstrapServers, Map<String, Object> login) {
    this(bootstrapServers, login, OrderEvents::value);
  }

  /** A producer of records in {@code format}. */
  public OrderEvents(String bootstrapServers, Format format) {
    this(bootstrapServers, Map.of(), format);
  }

  private OrderEvents(String bootstrapServers, Map<String, Object> login, Format format) {
    this.format = format;
    Map<String, Object> props = new HashMap<>(login);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  static String value(long id, long timestampMs) {
    String kind = id % 2 == 0 ? "a" : "b";
    return "{\"schema\":"
        + SCHEMA
        + ",\"payload\":{\"id\":"
        + id
        + ",\"kind\":\""
        + kind
        + "\",\"ts\":"
        + timestampMs
        + "}}";
  }

  /** Sends ids {@code [from, to)} round-robin over {@code partitions} and waits for the acks. */
  public void send(String topic, int partitions, long from, long to) {
    send(topic, from, to, id -> (int) (id % partitions));
  }

  /** Sends ids {@code [from, to)}, all to {@code partition}, and waits for the acks. */
  void sendTo(String topic, int partition, long from, long to) {
    send(topic, from, to, id -> partition);
  }

  private void send(String topic, long from, long to, LongToIntFunction partitionOf) {
    java.util.List<Future<RecordMetadata>> sent = new java.util.ArrayList<>();
    for (long id = from; id < to; id++) {
      long now = System.currentTimeMillis();
      sent.add(
          producer.send(
              new ProducerRecord<>(
                  topic,
                  partitionOf.applyAsInt(id),
                  now,
                  Long.toString(id),
                  format.value(id, now))));
    }
    producer.flush();
    // every send is checked: a record the test believes sent but Kafka never took would show up
    // as a loss of the connector under test
    for (Future<RecordMetadata> future : sent) {
      try {
        future.get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("Sending to " + topic + " failed", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
