/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Readme;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The plugin as operators get it: the built zip unpacked into a distributed worker's plugin.path,
 * discovered through its service files, configured and deployed through the REST API, on every
 * supported Connect line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class PluginDeploymentIT {
  private static final String CONNECTOR = "io.floe.connect.IcebergSinkConnector";
  private static final String CONVERTER = "io.floe.connect.avro.AvroConverter";
  private static final String JSON_CONVERTER = "io.floe.connect.json.JsonConverter";
  private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);

  private KafkaBroker broker;
  private Path pluginPath;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startBroker(SharedStack stack) {
    broker = stack.broker();
    pluginPath = PluginInstall.pluginPath();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(KafkaRuntime.class)
  void installsFromZipValidatesExamplesAndRuns(KafkaRuntime runtime) throws IOException {
    try (ConnectWorker worker =
        ConnectWorker.start(
            broker,
            pluginPath,
            new ConnectWorker.Options()
                .runtime(runtime)
                .groupId("connect-" + runtime.line().replace('.', '-'))
                .pluginDiscovery("service_load")
                .workerProperties(overridePolicy(runtime)))) {
      System.out.printf(
          "Connect %s worker started in %d ms (broker started in %d ms)%n",
          runtime.line(), worker.startupTime().toMillis(), broker.startupTime().toMillis());

      listsConnectorAndConverter(worker);
      acceptsEveryConfigExample(worker);
      rejectsBrokenConfigsOnTheOffendingKey(worker);
      if (runtime != KafkaRuntime.KAFKA_3_9) {
        allowsOnlyTheListedClientOverrides(worker);
      }
      deploysAndRuns(worker, runtime);
    }
  }

  /**
   * The client override policy the README recommends for Kafka 4.2 and later, taken from its
   * properties block; Kafka 3.9, which has no {@code Allowlist} policy, keeps Connect's default.
   */
  private static Map<String, String> overridePolicy(KafkaRuntime runtime) {
    return runtime == KafkaRuntime.KAFKA_3_9
        ? Map.of()
        : Readme.workerPropertiesSetting("connector.client.config.override.policy", "Allowlist");
  }

  /** The allowlist is in force: an override it does not name is refused on its key. */
  private void allowsOnlyTheListedClientOverrides(ConnectWorker worker) {
    Map<String, String> config = new HashMap<>(ConfigExamples.load("quickstart.json"));
    config.put("consumer.override.max.poll.records", "10");
    assertSingleError(
        worker, config, "consumer.override.max.poll.records", "does not allow 'max.poll.records'");
  }

  private void listsConnectorAndConverter(ConnectWorker worker) {
    List<JsonNode> plugins = worker.rest().plugins();
    String version = System.getProperty("floe.version");
    assertThat(plugins)
        .as("plugins listed by %s", worker.runtime())
        .anySatisfy(
            p -> {
              assertThat(p.path("class").asText()).isEqualTo(CONNECTOR);
              assertThat(p.path("type").asText()).isEqualTo("sink");
              assertThat(p.path("version").asText()).isEqualTo(version);
            })
        .anySatisfy(
            p -> {
              assertThat(p.path("class").asText()).isEqualTo(CONVERTER);
              assertThat(p.path("type").asText()).isEqualTo("converter");
            })
        .anySatisfy(
            p -> {
              assertThat(p.path("class").asText()).isEqualTo(JSON_CONVERTER);
              assertThat(p.path("type").asText()).isEqualTo("converter");
              assertThat(p.path("version").asText()).isEqualTo(version);
            })
        .anySatisfy(
            p -> {
              assertThat(p.path("class").asText()).isEqualTo(JSON_CONVERTER);
              assertThat(p.path("type").asText()).isEqualTo("header_converter");
            });
  }

  private void acceptsEveryConfigExample(ConnectWorker worker) {
    List<Path> examples = ConfigExamples.all();
    assertThat(examples).hasSizeGreaterThanOrEqualTo(8);
    for (Path example : examples) {
      Map<String, String> config = ConfigExamples.load(example);
      JsonNode answer = worker.rest().validate(config.get("connector.class"), config);
      assertThat(ConnectRest.errorsByKey(answer))
          .as("validation errors of %s on %s", example.getFileName(), worker.runtime())
          .isEmpty();
      assertThat(answer.path("error_count").asInt()).isZero();
    }
  }

  private void rejectsBrokenConfigsOnTheOffendingKey(ConnectWorker worker) {
    Map<String, String> base = ConfigExamples.load("quickstart.json");

    Map<String, String> noTables = new HashMap<>(base);
    noTables.remove("iceberg.tables");
    assertSingleError(worker, noTables, "iceberg.tables", "No table to write to");

    Map<String, String> bothRoutings = new HashMap<>(base);
    bothRoutings.put("iceberg.tables.dynamic-enabled", "true");
    bothRoutings.put("iceberg.tables.route-field", "table");
    assertSingleError(worker, bothRoutings, "iceberg.tables.dynamic-enabled", "both set");

    Map<String, String> nessie = new HashMap<>(base);
    nessie.put("iceberg.catalog.type", "nessie");
    assertSingleError(
        worker, nessie, "iceberg.catalog.type", "must be one of rest, jdbc, glue, hive, hadoop");

    Map<String, String> typo = new HashMap<>(base);
    typo.put("iceberg.catalog.type", "jbdc");
    assertSingleError(
        worker, typo, "iceberg.catalog.type", "must be one of rest, jdbc, glue, hive, hadoop");

    Map<String, String> slowCommit = new HashMap<>(base);
    slowCommit.put("iceberg.control.commit.timeout-ms", "5000");
    assertSingleError(
        worker,
        slowCommit,
        "iceberg.control.commit.timeout-ms",
        "must be shorter than the commit interval");

    Map<String, String> badRegex = new HashMap<>(ConfigExamples.load("multi-table.json"));
    badRegex.put("iceberg.table.analytics.purchases.route-regex", "purchase|(refund");
    assertSingleError(
        worker,
        badRegex,
        "iceberg.table.analytics.purchases.route-regex",
        "Not a valid regular expression");

    Map<String, String> notANumber = new HashMap<>(base);
    notANumber.put("iceberg.control.commit.interval-ms", "1m");
    assertSingleError(worker, notANumber, "iceberg.control.commit.interval-ms", "");
  }

  private void assertSingleError(
      ConnectWorker worker, Map<String, String> config, String key, String messagePart) {
    JsonNode answer = worker.rest().validate(CONNECTOR, config);
    Map<String, List<String>> errors = ConnectRest.errorsByKey(answer);
    assertThat(errors).as("errors for a config broken at %s", key).containsOnlyKeys(key);
    assertThat(errors.get(key)).hasSize(1).first().asString().contains(messagePart);
    assertThat(answer.path("error_count").asInt()).isEqualTo(1);
  }

  private void deploysAndRuns(ConnectWorker worker, KafkaRuntime runtime) throws IOException {
    String name = "quickstart-" + runtime.line().replace('.', '-');
    String topic = "events-" + runtime.line().replace('.', '-');
    broker.createTopic(topic, 2);
    Path work = StackDirs.newServiceDir("quickstart-catalog");
    Map<String, String> config = ConfigExamples.quickstart(work, "http://127.0.0.1:1");
    config.put("name", name);
    config.put("topics", topic);
    config.put("tasks.max", "2");
    worker.rest().putConnector(name, config);
    JsonNode status = worker.rest().awaitRunning(name, 2, RUNNING_TIMEOUT);
    assertThat(status.path("tasks")).hasSize(2);
    // The tasks loaded the JDBC catalog on SQLite inside plugin isolation: it created its file.
    assertThat(work.resolve("catalog.db")).exists();
    // and reached the consumer's group metadata that fencing needs, on this runtime too
    assertThat(Files.readString(worker.log()))
        .contains("of group connect-" + name + " uses control topic");
    worker.rest().deleteConnector(name);
  }

  @Test
  void aRecordThatCannotBeRoutedFailsTheTaskNamingItsOffsetAndCommitsNothing() throws Exception {
    String topic = "unroutable";
    String name = "unroutable";
    broker.createTopic(topic, 1);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
      producer.send(new ProducerRecord<>(topic, "k", "{\"id\":1}")).get(30, TimeUnit.SECONDS);
    }
    try (ConnectWorker worker =
        ConnectWorker.start(
            broker, pluginPath, new ConnectWorker.Options().groupId("connect-fail"))) {
      Map<String, String> config =
          ConfigExamples.quickstart(StackDirs.newServiceDir("fail-catalog"), "http://127.0.0.1:1");
      config.put("name", name);
      config.put("topics", topic);
      config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      config.put("value.converter.schemas.enable", "false");
      // the record has no "kind" field, so no table can be picked for it
      config.put("iceberg.tables.route-field", "kind");
      config.put("iceberg.table.demo.events.route-regex", "page-view");
      worker.rest().putConnector(name, config);

      JsonNode failed = worker.rest().awaitTaskFailed(name, RUNNING_TIMEOUT);
      assertThat(failed.path("trace").asText())
          .contains("Cannot route the record at topic " + topic + ", partition 0, offset 0");
      try (Admin admin = broker.admin()) {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin
                .listConsumerGroupOffsets("connect-" + name)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        assertThat(committed).as("offsets committed for a record nobody wrote").isEmpty();
      }
    }
  }
}
