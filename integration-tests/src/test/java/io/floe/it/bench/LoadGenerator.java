/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.storage.Converter;

/**
 * Fills a topic with the benchmark rows ({@link BenchRows.Generator}), ids 0 to n - 1 spread round
 * robin over the partitions, encoded as {@link Encoding} says. The producer batches and compresses
 * with lz4, as a throughput-minded producer would.
 */
final class LoadGenerator implements AutoCloseable {
  /** What a load put into its topic; {@code bytes} counts the encoded values. */
  record Load(String topic, Encoding encoding, long records, int partitions, long bytes) {
    double megabytes() {
      return bytes / 1e6;
    }

    /** The same records read with {@code other}'s converter (an encoding of the same wire). */
    Load readAs(Encoding other) {
      return new Load(topic, other, records, partitions, bytes);
    }
  }

  private final KafkaProducer<byte[], byte[]> producer;
  private final String registryUrl;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  LoadGenerator(String bootstrapServers, String registryUrl) {
    this.registryUrl = registryUrl;
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "1",
                ProducerConfig.LINGER_MS_CONFIG,
                20,
                ProducerConfig.BATCH_SIZE_CONFIG,
                256 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                "lz4",
                ProducerConfig.BUFFER_MEMORY_CONFIG,
                64L << 20),
            new ByteArraySerializer(),
            new ByteArraySerializer());
  }

  /** Sends {@code records} rows to {@code topic} as fast as the broker takes them. */
  Load fill(String topic, int partitions, long records, Encoding encoding) {
    Converter converter = encoding.producerConverter(registryUrl);
    BenchRows.Generator rows = new BenchRows.Generator(records, 42);
    long bytes = 0;
    for (long i = 0; i < records; i++) {
      byte[] value =
          converter.fromConnectData(topic, BenchEvents.ORDER, BenchEvents.toStruct(rows.next()));
      bytes += value.length;
      send(topic, (int) (i % partitions), value);
    }
    flush();
    return new Load(topic, encoding, records, partitions, bytes);
  }

  /**
   * Sends {@code perSecond} records a second for {@code duration}, each with its {@code ts} set to
   * the moment it is sent (so a table row tells when its record was produced), ids from {@code
   * firstId} on. Calls {@code sent} with each id. Returns the number of records sent.
   */
  long trickle(
      String topic,
      int partitions,
      long firstId,
      int perSecond,
      Duration duration,
      Encoding encoding,
      LongConsumer sent) {
    Converter converter = encoding.producerConverter(registryUrl);
    BenchRows.Generator rows = new BenchRows.Generator(Long.MAX_VALUE, 7);
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    long count = 0;
    while (true) {
      long due = start + count * 1_000_000_000L / perSecond;
      long now = System.nanoTime();
      if (due >= end) {
        break;
      }
      if (due > now) {
        sleepNanos(due - now);
      }
      Record row = rows.next();
      long id = firstId + count;
      row.set(0, id);
      row.set(8, OffsetDateTime.now(ZoneOffset.UTC));
      byte[] value = converter.fromConnectData(topic, BenchEvents.ORDER, BenchEvents.toStruct(row));
      send(topic, (int) (id % partitions), value);
      sent.accept(id);
      count++;
      if (count % 50 == 0) {
        producer.flush();
      }
    }
    flush();
    return count;
  }

  private static void sleepNanos(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while producing", e);
    }
  }

  private void send(String topic, int partition, byte[] value) {
    producer.send(
        new ProducerRecord<>(topic, partition, null, value),
        (metadata, error) -> {
          if (error != null) {
            failure.compareAndSet(null, error);
          }
        });
  }

  /** Waits for every send and fails if any did. */
  private void flush() {
    producer.flush();
    Exception error = failure.get();
    if (error != null) {
      throw new IllegalStateException("Producing the benchmark load failed", error);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(30));
  }
}
