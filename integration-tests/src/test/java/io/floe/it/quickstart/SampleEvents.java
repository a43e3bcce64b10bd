/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.quickstart;

import io.floe.it.avro.RegistryClient;
import io.floe.it.avro.WireFormat;
import java.util.ArrayList;
import java.util.List;
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
public final class SampleEvents {
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

  /**
   * Sample event {@code id} as it is produced: {@code perVersion} events of v1 (no country), then
   * as many of v2, then one more v2 event, the last, on page {@code /goodbye}.
   */
  public record Event(long id, String user, String page, String country) {
    static Event of(long id, int perVersion) {
      if (id == 2L * perVersion) {
        return new Event(id, "user-0", "/goodbye", "NL");
      }
      int i = (int) id;
      String country = i >= perVersion ? COUNTRIES[i % COUNTRIES.length] : null;
      return new Event(id, "user-" + (i % 7), PAGES[i % PAGES.length], country);
    }

    /** The schema version it is written with. */
    Schema schema() {
      return country == null ? V1 : V2;
    }

    GenericRecord toAvro(long start) {
      GenericRecord event = new GenericData.Record(schema());
      event.put("id", id);
      event.put("user", user);
      event.put("page", page);
      event.put("ts", start + id * 1000L);
      if (country != null) {
        event.put("country", country);
      }
      return event;
    }
  }

  /** Every event {@link #produce} sends for {@code perVersion}, in order. */
  public static List<Event> events(int perVersion) {
    List<Event> events = new ArrayList<>();
    for (int id = 0; id <= 2 * perVersion; id++) {
      events.add(Event.of(id, perVersion));
    }
    return events;
  }

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
      List<Event> events = events(perVersion);
      Event last = events.get(events.size() - 1);
      for (Event event : events.subList(0, events.size() - 1)) {
        int schemaId = event.schema() == V2 ? v2 : v1;
        producer.send(
            new ProducerRecord<>(
                topic, event.user(), WireFormat.encode(schemaId, event.toAvro(start))));
      }
      producer.flush();
      producer
          .send(new ProducerRecord<>(topic, "end", WireFormat.encode(v2, last.toAvro(start))))
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Producing sample events failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted producing sample events", e);
    }
    return 2 * perVersion + 1;
  }
}
