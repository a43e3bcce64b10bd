/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import io.floe.it.stack.Surfaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad records on the real stack: with {@code errors.tolerance=all} and a dead-letter topic, each
 * record that cannot be written lands in the dead-letter topic with its reason, every other record
 * lands in the table exactly once, and the committed offsets move past both; nothing is lost.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class BadRecordsIT {
  /** A secret planted in every secret-bearing key of a connector; it must show up nowhere. */
  private static final String CANARY = "canary-5e1f0c9b77d2";

  private Path secretsFile;

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private KafkaProducer<String, String> producer;
  private SinkOutcomes outcomes;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /** The shared broker and worker; a catalog of its own, which a test stops. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    outcomes = new SinkOutcomes(broker);
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
    secretsFile = StackDirs.newServiceDir("secrets").resolve("connector-secrets.properties");
    try {
      Files.writeString(secretsFile, "canary=" + CANARY + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    worker = stack.worker(); // it defines the file config provider
    producer = services.own(broker.stringProducer());
  }

  private Map<String, String> connector(String topic, String dlq) {
    Map<String, String> config =
        ConfigExamples.withMetadataAndQuickCommits(
            ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), topic, "db." + topic));
    config.put("iceberg.tables.route-field", "kind");
    config.put("iceberg.table.db." + topic + ".route-regex", "order");
    config.put("errors.deadletterqueue.topic.name", dlq);
    return config;
  }

  private void send(String topic, String value) throws Exception {
    producer.send(new ProducerRecord<>(topic, 0, "k", value)).get(30, TimeUnit.SECONDS);
  }

  @Test
  void badRecordsGoToTheDeadLetterTopicWithTheirReasonAndTheRestIsWrittenOnce() throws Exception {
    String topic = "mixed";
    String dlq = "mixed-dlq";
    broker.createTopic(topic, 1);
    // offsets: what each record is, and where it must end up
    send(topic, "{\"id\":0,\"kind\":\"order\",\"qty\":5}"); // 0 table
    send(topic, "{\"id\":1,\"kind\":\"order\",\"qty\":\"many\"}"); // 1 dead letter: string in long
    send(topic, null); // 2 tombstone: skipped and counted
    send(topic, "{\"id\":3,\"kind\":\"refund\",\"qty\":1}"); // 3 dead letter: no table matches
    send(topic, "{\"id\":4,\"qty\":1}"); // 4 dead letter: route field missing
    send(topic, "{not json"); // 5 dead letter: the converter refuses it
    send(topic, "{\"id\":6,\"kind\":\"order\",\"qty\":7}"); // 6 table
    for (int id = 7; id < 207; id++) {
      send(topic, "{\"id\":" + id + ",\"kind\":\"order\",\"qty\":" + id + "}");
    }
    List<Long> deadLetterOffsets = List.of(1L, 3L, 4L, 5L);

    long logStart = worker.logFile().mark();
    worker.rest().putConnector(topic, connector(topic, dlq));
    worker.rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 202);

    List<Long> tableOffsets = offsets(oracle);
    List<Long> expectedTableOffsets = new ArrayList<>(List.of(0L, 6L));
    for (long offset = 7; offset < 207; offset++) {
      expectedTableOffsets.add(offset);
    }
    assertThat(tableOffsets).containsExactlyInAnyOrderElementsOf(expectedTableOffsets);
    oracle.assertNoFileInTwoSnapshots();

    Map<Long, String> reasons = outcomes.deadLetters(dlq, deadLetterOffsets.size());
    assertThat(reasons.keySet()).containsExactlyElementsOf(deadLetterOffsets);
    assertThat(reasons.get(1L))
        .contains("topic mixed, partition 0, offset 1 to table db.mixed")
        .contains("qty")
        .doesNotContain("many");
    assertThat(reasons.get(3L)).contains("topic mixed, partition 0, offset 3");
    assertThat(reasons.get(4L)).contains("topic mixed, partition 0, offset 4");
    assertThat(reasons.get(5L)).isNotEmpty();

    // the source offsets move past every record, written, skipped or dead-lettered
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 207);
    assertThat(worker.logFile().textSince(logStart))
        .contains("Bad records go to the dead-letter topic " + dlq);
    worker.rest().deleteConnector(topic);
  }

  @Test
  void aSecretInEverySecretBearingKeyAppearsInNoLogRestAnswerTopicOrTable() throws Exception {
    String topic = "canary";
    String dlq = "canary-dlq";
    broker.createTopic(topic, 1);
    Map<String, String> config = connector(topic, dlq);
    String placeholder = "${file:" + secretsFile + ":canary}";
    List<String> secretKeys =
        List.of(
            "iceberg.catalog.credential",
            "iceberg.catalog.jdbc.password",
            "iceberg.catalog.s3.access-key-id",
            "iceberg.catalog.s3.secret-access-key",
            "iceberg.kafka.ssl.key.password",
            "iceberg.kafka.ssl.truststore.password",
            "value.converter.basic.auth.user.info");
    Map<String, String> clearText = new LinkedHashMap<>(config);
    for (String key : secretKeys) {
      config.put(key, placeholder);
      clearText.put(key, CANARY);
    }
    clearText.put(
        "iceberg.kafka.sasl.jaas.config", "NoSuchModule required password=\"" + CANARY + "\";");
    config.put("iceberg.control.commit.retry-timeout-ms", "3000");
    assertThat(worker.rest().validate(config.get("connector.class"), config).toString())
        .doesNotContain(CANARY);
    // in clear text, pass-through keys are no PASSWORD keys Connect would hide: Floe hides them
    JsonNode clearAnswer = worker.rest().validate(config.get("connector.class"), clearText);
    assertThat(ConnectRest.errorsByKey(clearAnswer)).containsKey("iceberg.kafka.sasl.jaas.config");
    assertThat(clearAnswer.toString()).doesNotContain(CANARY);
    long logStart = worker.logFile().mark();
    worker.rest().putConnector(topic, config);
    worker.rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
    // the worker defines a config provider, so Floe cannot tell references from clear text
    assertThat(worker.logFile().textSince(logStart))
        .contains("Credential-bearing keys set: " + String.join(", ", secretKeys) + ".")
        .doesNotContain("Credentials given in clear text");
    for (int id = 0; id < 50; id++) {
      send(topic, "{\"id\":" + id + ",\"kind\":\"order\",\"qty\":" + id + "}");
    }
    send(topic, "{\"id\":50,\"kind\":\"order\",\"qty\":\"lots\"}"); // dead-lettered
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 50);
    assertThat(outcomes.deadLetters(dlq, 1)).containsOnlyKeys(50L);

    // a failure: the catalog goes away past the retry timeout, and the task fails
    rest.stopServing();
    JsonNode failed;
    try {
      send(topic, "{\"id\":51,\"kind\":\"order\",\"qty\":51}");
      failed = worker.rest().awaitTaskFailed(topic, Duration.ofSeconds(90));
    } finally {
      rest.resumeServing();
    }
    assertThat(failed.path("trace").asText()).contains("Commits have failed for");

    assertThat(worker.rest().send("GET", "/connectors/" + topic + "/config", null).body())
        .asString()
        .contains("${file:")
        .doesNotContain(CANARY);
    assertThat(worker.rest().status(topic).toString()).doesNotContain(CANARY);
    assertThat(worker.rest().send("GET", "/connectors/" + topic, null).body().toString())
        .doesNotContain(CANARY);
    assertThat(Files.readString(worker.log())).doesNotContain(CANARY);
    assertThat(Surfaces.topic(broker, "floe-control")).isNotEmpty().doesNotContain(CANARY);
    assertThat(Surfaces.topic(broker, dlq)).isNotEmpty().doesNotContain(CANARY);
    assertThat(Surfaces.files(rest.dir())).isNotEmpty().doesNotContain(CANARY);
    worker.rest().deleteConnector(topic);
  }

  /** The source offsets of the table's rows. */
  private static List<Long> offsets(TableOracle oracle) {
    List<Long> offsets = new ArrayList<>();
    for (TableOracle.Origin origin : oracle.origins()) {
      offsets.add(origin.offset());
    }
    return offsets;
  }

  /** A JsonConverter record with its schema: {@code fields} are (name, Connect type) pairs. */
  private static String withSchema(String fields, String payload) {
    return "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":["
        + fields
        + "]},\"payload\":"
        + payload
        + "}";
  }

  @Test
  void floesJsonConverterDeadLettersWhatConnectsWouldAlterAndTheRestLandsOnce() throws Exception {
    String topic = "json-exact";
    String dlq = "json-exact-dlq";
    broker.createTopic(topic, 1);
    Map<String, String> config = connector(topic, dlq);
    config.put("value.converter", "io.floe.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    String fields =
        "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
            + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
            + "{\"field\":\"qty\",\"type\":\"int32\",\"optional\":false},"
            + "{\"field\":\"price\",\"type\":\"double\",\"optional\":true}";
    for (int id = 0; id < 20; id++) {
      String qty =
          switch (id) {
            case 5 -> "8589934599"; // 2^33+7: Connect's converter reads 7
            case 6 -> "\"7\""; // a string: Connect's converter reads 0
            default -> Integer.toString(id);
          };
      String price = id == 7 ? "\"1.5\"" : id == 8 ? "\"Infinity\"" : "2.5";
      send(
          topic,
          withSchema(
              fields,
              "{\"id\":"
                  + id
                  + ",\"kind\":\"order\",\"qty\":"
                  + qty
                  + ",\"price\":"
                  + price
                  + "}"));
    }
    worker.rest().putConnector(topic, config);
    worker.rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 17);

    assertThat(offsets(oracle))
        .containsExactlyInAnyOrder(
            0L, 1L, 2L, 3L, 4L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
    org.apache.iceberg.Table table =
        catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.parse("db." + topic));
    try (var rows = org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
      for (org.apache.iceberg.data.Record row : rows) {
        long id = (Long) row.getField("id");
        assertThat(row.getField("qty")).as("qty of %s", id).isEqualTo((int) id);
        assertThat(row.getField("price"))
            .as("price of %s", id)
            .isEqualTo(id == 8 ? Double.POSITIVE_INFINITY : 2.5);
      }
    }
    Map<Long, String> reasons = outcomes.deadLetters(dlq, 3);
    assertThat(reasons).containsOnlyKeys(5L, 6L, 7L);
    assertThat(reasons.get(5L))
        .isEqualTo("The record's value at qty: expected int32, got an integer out of its range");
    assertThat(reasons.get(6L))
        .isEqualTo("The record's value at qty: expected int32, got a string");
    assertThat(reasons.get(7L))
        .startsWith("The record's value at price: expected float64, got a string")
        .doesNotContain("1.5");
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 20);
    worker.rest().deleteConnector(topic);
  }

  @Test
  void schemaChangesEvolveTheTableAndAnIncompatibleOneIsDeadLettered() throws Exception {
    String topic = "evolving";
    String dlq = "evolving-dlq";
    broker.createTopic(topic, 1);
    Map<String, String> config = connector(topic, dlq);
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    String v1 =
        "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
            + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
            + "{\"field\":\"qty\",\"type\":\"int32\",\"optional\":false}";
    String v2 =
        "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
            + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
            + "{\"field\":\"qty\",\"type\":\"int64\",\"optional\":true},"
            + "{\"field\":\"note\",\"type\":\"string\",\"optional\":true}";
    String v3 =
        "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
            + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
            + "{\"field\":\"qty\",\"type\":\"string\",\"optional\":true}";
    worker.rest().putConnector(topic, config);
    worker.rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
    int id = 0;
    for (; id < 10; id++) { // offsets 0-9: v1
      send(topic, withSchema(v1, "{\"id\":" + id + ",\"kind\":\"order\",\"qty\":" + id + "}"));
    }
    for (; id < 20; id++) { // offsets 10-19: v2 (qty widened and optional, note added)
      send(
          topic,
          withSchema(
              v2,
              "{\"id\":"
                  + id
                  + ",\"kind\":\"order\",\"qty\":5000000000,\"note\":\"n"
                  + id
                  + "\"}"));
    }
    send(topic, withSchema(v3, "{\"id\":20,\"kind\":\"order\",\"qty\":\"x\"}")); // 20
    for (id = 21; id < 31; id++) { // offsets 21-30: v1 again
      send(topic, withSchema(v1, "{\"id\":" + id + ",\"kind\":\"order\",\"qty\":" + id + "}"));
    }
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 30);

    org.apache.iceberg.Table table =
        catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.parse("db." + topic));
    assertThat(table.schema().findType("qty"))
        .isEqualTo(org.apache.iceberg.types.Types.LongType.get());
    assertThat(table.schema().findField("qty").isOptional()).isTrue();
    assertThat(table.schema().findType("note"))
        .isEqualTo(org.apache.iceberg.types.Types.StringType.get());
    long withNote = 0;
    long bigQty = 0;
    try (var rows = org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
      for (org.apache.iceberg.data.Record row : rows) {
        withNote += row.getField("note") != null ? 1 : 0;
        bigQty += Long.valueOf(5000000000L).equals(row.getField("qty")) ? 1 : 0;
      }
    }
    assertThat(withNote).isEqualTo(10);
    assertThat(bigQty).isEqualTo(10);
    Map<Long, String> reasons = outcomes.deadLetters(dlq, 1);
    assertThat(reasons).containsOnlyKeys(20L);
    assertThat(reasons.get(20L)).contains("qty").contains("offset 20");
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 31);
    worker.rest().deleteConnector(topic);
  }
}
