/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.quickstart;

import io.floe.it.avro.RegistryClient;
import io.floe.it.avro.WireFormat;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The quickstart's sample events: page views as Avro in the Confluent wire format, first with
 * schema v1, then with v2, which adds an optional {@code country} field.
 */
final class SampleEvents {
  static final Schema V1 = pageView(false);

  static final Schema V2 = pageView(true);

  private static Schema pageView(boolean withCountry) {
    SchemaBuilder.FieldAssembler<Schema> fields =
        SchemaBuilder.record("PageView")
            .namespace("io.floe.quickstart")
            .fields()
            .requiredLong("id")
            .requiredString("user")
            .requiredString("page")
            .name("ts")
            .type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)))
            .noDefault();
    return (withCountry ? fields.optionalString("country") : fields).endRecord();
  }

  private static final String[] PAGES = {"/", "/pricing", "/docs", "/blog", "/signup"};
  private static final String[] COUNTRIES = {"NL", "DE", "BR", "JP"};

  private SampleEvents() {}

  /** Produces {@code perVersion} events of v1, then as many of v2; returns how many were sent. */
  static int produce(String bootstrapServers, String registryUrl, String topic, int perVersion) {
    RegistryClient registry = new RegistryClient(registryUrl);
    int v1 = registry.register(topic + "-value", V1);
    int v2 = registry.register(topic + "-value", V2);
    long start = System.currentTimeMillis() - 60_000L;
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class.getName(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.ACKS_CONFIG,
                "all"))) {
      for (int i = 0; i < 2 * perVersion; i++) {
        boolean second = i >= perVersion;
        GenericRecord event = new GenericData.Record(second ? V2 : V1);
        event.put("id", (long) i);
        event.put("user", "user-" + (i % 7));
        event.put("page", PAGES[i % PAGES.length]);
        event.put("ts", start + i * 1000L);
        if (second) {
          event.put("country", COUNTRIES[i % COUNTRIES.length]);
        }
        byte[] value = WireFormat.encode(second ? v2 : v1, event);
        producer.send(new ProducerRecord<>(topic, "user-" + (i % 7), value));
      }
      producer.flush();
      producer
          .send(
              new ProducerRecord<>(
                  topic, "end", WireFormat.encode(v2, lastEvent(2 * perVersion, start))))
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Producing sample events failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted producing sample events", e);
    }
    return 2 * perVersion + 1;
  }

  private static GenericRecord lastEvent(int id, long start) {
    GenericRecord event = new GenericData.Record(V2);
    event.put("id", (long) id);
    event.put("user", "user-0");
    event.put("page", "/goodbye");
    event.put("ts", start + id * 1000L);
    event.put("country", "NL");
    return event;
  }
}
