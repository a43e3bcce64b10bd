/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Moving from the Apache Iceberg sink is a change of {@code connector.class}: the connector configs
 * of its documentation, with only the class changed (and the documentation's placeholders filled
 * with this catalog's values), validate without an error and deliver every record once. They set
 * neither {@code iceberg.kafka.bootstrap.servers} (the worker's own are used) nor a commit interval
 * or timeout (Floe's default interval, 60 s, and the timeout derived from it apply).
 *
 * <p>The examples run side by side, so that their first commit cycles overlap instead of following
 * one another. For that alone two more keys differ from the documentation: each example runs under
 * its own {@code name} and reads its own topic ({@code topics}), where the documentation gives them
 * all one name and the topic {@code events}. Both routing examples write the same two tables, as
 * they would one after the other, so those tables see two connectors commit to them at once: the
 * REST catalog adapter answers the loser of two conflicting multi-table transactions as committed
 * while dropping its changes, and Floe must notice that its commit is not in the table and commit
 * again (this test lost 300 rows before it did).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class DropInMigrationIT {
  private static final String FLOE = "io.floe.connect.IcebergSinkConnector";
  private static final List<String> EXAMPLES =
      List.of("single-table", "static-routing", "dynamic-routing");
  private static final int PER_EXAMPLE = 600;

  /** The default interval is 60 s: the first cycle of each example starts 60 s after it. */
  private static final Duration DELIVERED = Duration.ofSeconds(180);

  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.optional(1, "id", Types.StringType.get()),
          Types.NestedField.optional(2, "type", Types.StringType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(4, "payload", Types.StringType.get()));

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private Admin admin;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = stack.rest();
    catalog = services.catalog("test", rest.clientProperties());
    worker = stack.worker();
    admin = services.own(broker.admin());
    // the documentation creates its tables first: PARTITIONED BY (hours(ts))
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("default"));
    PartitionSpec hourly = PartitionSpec.builderFor(EVENTS).hour("ts").build();
    for (String table : List.of("events", "events_list", "events_create")) {
      catalog.createTable(TableIdentifier.of("default", table), EVENTS, hourly);
    }
  }

  @Test
  void theApacheSinksDocumentedExamplesRunWithOnlyTheConnectorClassChanged() throws Exception {
    List<Long> first = send("single-table", 0);
    List<Long> second = send("static-routing", PER_EXAMPLE);
    List<Long> third = send("dynamic-routing", 2 * PER_EXAMPLE);
    for (String example : EXAMPLES) {
      start(example);
    }
    for (String example : EXAMPLES) {
      worker.rest().awaitRunning(name(example), 2, Duration.ofSeconds(60));
    }

    List<Long> listed = new ArrayList<>(evens(second));
    listed.addAll(evens(third));
    List<Long> created = new ArrayList<>(odds(second));
    created.addAll(odds(third));
    awaitIds("default.events", first);
    awaitIds("default.events_list", listed);
    awaitIds("default.events_create", created);

    for (String example : EXAMPLES) {
      assertThat(committedTotal(name(example)))
          .as("the committed offsets of %s", example)
          .isEqualTo(PER_EXAMPLE);
      worker.rest().deleteConnector(name(example));
    }
  }

  /**
   * The Apache sink's control topic, {@code control-iceberg}, is often created beforehand with
   * several partitions; pointed at it, Floe's tasks fail at start, saying why and what to do, and
   * read nothing.
   */
  @Test
  void aControlTopicOfSeveralPartitionsFailsTheTasksAtStartSayingWhyAndWhatToDo() {
    String name = "control-partitions";
    String source = "events-control-partitions";
    broker.createTopic("control-iceberg", 3);
    broker.createTopic(source, 1);
    Map<String, String> config = example("single-table.json");
    config.put("connector.class", FLOE);
    config.put("name", name);
    config.put("topics", source);
    config.put("iceberg.control.topic", "control-iceberg");
    worker.rest().putConnector(name, config);
    try {
      JsonNode failed = worker.rest().awaitTaskFailed(name, Duration.ofSeconds(60));
      assertThat(failed.path("trace").asText())
          .contains("Control topic control-iceberg has 3 partitions")
          .contains("read in the order they were written")
          .contains("Set iceberg.control.topic to a topic of 1 partition");
    } finally {
      worker.rest().deleteConnector(name);
    }
  }

  /**
   * Validates an example with only its class changed, then starts it under its own name on its own
   * topic.
   */
  private void start(String example) {
    Map<String, String> config = example(example + ".json");
    config.put("connector.class", FLOE);
    JsonNode validation = worker.rest().validate(FLOE, config);
    assertThat(ConnectRest.errorsByKey(validation)).as("errors of %s", example).isEmpty();
    assertThat(validation.path("error_count").asInt()).isZero();
    assertThat(config).containsEntry("name", "events-sink").containsEntry("topics", "events");
    config.put("name", name(example));
    config.put("topics", topic(example));
    worker.rest().putConnector(name(example), config);
  }

  /** The connector of an example: the documentation's name, followed by the example's. */
  private static String name(String example) {
    return "events-sink-" + example;
  }

  /** The topic an example reads: the documentation's, followed by the example's name. */
  private static String topic(String example) {
    return "events-" + example;
  }

  /** The documentation's config, its placeholders filled with this stack's catalog. */
  private Map<String, String> example(String file) {
    String path = "/apache-sink-examples/" + file;
    try (InputStream in = DropInMigrationIT.class.getResourceAsStream(path)) {
      JsonNode body = new ObjectMapper().readTree(in);
      JsonNode config = body.path("config");
      Map<String, String> map = new LinkedHashMap<>();
      map.put("name", body.path("name").asText()); // as POST /connectors adds it
      config.properties().forEach(e -> map.put(e.getKey(), fill(e.getValue().asText())));
      return map;
    } catch (IOException e) {
      throw new UncheckedIOException(path, e);
    }
  }

  private String fill(String value) {
    return switch (value) {
      case "https://localhost" -> rest.uri().toString();
      case "<credential>" -> "floe-test:secret";
      case "<warehouse name>" -> rest.warehouse();
      default -> value;
    };
  }

  /**
   * Creates the topic of {@code example} and sends it {@value #PER_EXAMPLE} events from id {@code
   * from}: even ids list, odd ids create.
   */
  private List<Long> send(String example, long from) {
    broker.createTopic(topic(example), 4);
    List<Long> ids = LongStream.range(from, from + PER_EXAMPLE).boxed().toList();
    try (KafkaProducer<String, String> producer = broker.stringProducer()) {
      for (long id : ids) {
        String type = id % 2 == 0 ? "list" : "create";
        String value =
            String.format(
                "{\"id\":\"%d\",\"type\":\"%s\",\"db_table\":\"default.events_%s\","
                    + "\"ts\":\"2026-12-03T%02d:15:30\",\"payload\":\"p%d\"}",
                id, type, type, id % 24, id);
        producer.send(new ProducerRecord<>(topic(example), Long.toString(id), value));
      }
      producer.flush();
    }
    return ids;
  }

  private void awaitIds(String table, List<Long> expected) throws InterruptedException {
    Await.untilAtLeast(
        "records in " + table,
        DELIVERED,
        () -> TableOracle.totalRecords(catalog, List.of(TableIdentifier.parse(table))),
        expected.size());
    assertThat(ids(table)).as("ids in %s", table).containsExactlyInAnyOrderElementsOf(expected);
  }

  private List<Long> ids(String table) {
    List<Long> ids = new ArrayList<>();
    try (var rows =
        org.apache.iceberg.data.IcebergGenerics.read(
                catalog.loadTable(TableIdentifier.parse(table)))
            .build()) {
      rows.forEach(row -> ids.add(Long.parseLong((String) row.getField("id"))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }

  private long committedTotal(String name) {
    long total = 0;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> offset :
        TableOracle.committedOffsets(admin, "connect-" + name).entrySet()) {
      total += offset.getValue().offset();
    }
    return total;
  }

  private static List<Long> evens(List<Long> ids) {
    return ids.stream().filter(id -> id % 2 == 0).toList();
  }

  private static List<Long> odds(List<Long> ids) {
    return ids.stream().filter(id -> id % 2 == 1).toList();
  }
}
