/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerKafkaTest {
  @TempDir Path dir;

  private Path workerFile(String content) throws IOException {
    return Files.writeString(dir.resolve("connect-distributed.properties"), content);
  }

  private static WorkerKafka started(String command, Map<String, String> environment) {
    return new WorkerKafka(Map.of("sun.java.command", command)::get, environment::get);
  }

  private static FloeSinkConfig withoutBootstrap(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("iceberg.tables", "db.t");
    return new FloeSinkConfig(props);
  }

  @Test
  void readsTheWorkerPropertiesFileOnTheConnectCommandLine() throws IOException {
    Path file =
        workerFile(
            "bootstrap.servers=b1:9092,b2:9092\n"
                + "security.protocol=SASL_SSL\n"
                + "sasl.mechanism=SCRAM-SHA-512\n"
                + "sasl.jaas.config=${file:/secrets/kafka.properties:jaas}\n"
                + "ssl.truststore.location=/etc/truststore.jks\n"
                + "group.id=connect-cluster\n"
                + "key.converter=org.apache.kafka.connect.json.JsonConverter\n");
    WorkerKafka worker =
        started("org.apache.kafka.connect.cli.ConnectDistributed " + file, Map.of());

    WorkerKafka.Found found = worker.find().orElseThrow();

    assertThat(found.source()).contains(file.toString());
    assertThat(found.clientProperties())
        .as("client settings only; a config provider reference is the worker's to resolve")
        .isEqualTo(
            Map.of(
                "bootstrap.servers", "b1:9092,b2:9092",
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512",
                "ssl.truststore.location", "/etc/truststore.jks"));
  }

  @Test
  void fallsBackToTheEnvironmentOfTheCommonContainerImages() {
    WorkerKafka confluent =
        started(
            "some.other.Main",
            Map.of(
                "CONNECT_BOOTSTRAP_SERVERS", "kafka:29092",
                "CONNECT_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "CONNECT_SASL_MECHANISM", "PLAIN"));
    assertThat(confluent.find().orElseThrow().clientProperties())
        .containsEntry("bootstrap.servers", "kafka:29092")
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "PLAIN");
    assertThat(
            started("x", Map.of("KAFKA_CONNECT_BOOTSTRAP_SERVERS", "strimzi:9093"))
                .find()
                .orElseThrow()
                .bootstrapServers())
        .isEqualTo("strimzi:9093");
    assertThat(started("x", Map.of("BOOTSTRAP_SERVERS", "dbz:9092")).find().orElseThrow().source())
        .isEqualTo("environment variable BOOTSTRAP_SERVERS");
  }

  @Test
  void aMissingOrUnreadableWorkerFileIsNotASource() {
    assertThat(
            started(
                    "org.apache.kafka.connect.cli.ConnectDistributed /no/such/file.properties",
                    Map.of())
                .find())
        .isEmpty();
    assertThat(new WorkerKafka(key -> null, key -> null).find()).isEmpty();
  }

  @Test
  void theControlClientsTakeTheWorkersSettingsUnderTheirOwn() throws IOException {
    Path file = workerFile("bootstrap.servers=worker:9092\nsecurity.protocol=SASL_SSL\n");
    WorkerKafka worker =
        started("org.apache.kafka.connect.cli.ConnectDistributed " + file, Map.of());
    FloeSinkConfig config = withoutBootstrap(Map.of("iceberg.kafka.security.protocol", "SSL"));

    assertThat(config.kafkaBootstrapServers(worker)).isEqualTo("worker:9092");
    assertThat(config.kafkaProperties(worker))
        .containsEntry("bootstrap.servers", "worker:9092")
        .containsEntry("security.protocol", "SSL");

    FloeSinkConfig explicit =
        withoutBootstrap(Map.of("iceberg.kafka.bootstrap.servers", "other:9092"));
    assertThat(explicit.kafkaProperties(worker))
        .as("explicit bootstrap servers: nothing of the worker's is taken")
        .isEqualTo(Map.of("bootstrap.servers", "other:9092"));
  }

  @Test
  void withNoWorkerSettingsFoundTheErrorSaysWhereItLooked() {
    assertThatThrownBy(
            () ->
                withoutBootstrap(Map.of())
                    .kafkaBootstrapServers(new WorkerKafka(k -> null, k -> null)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("iceberg.kafka.bootstrap.servers")
        .hasMessageContaining("the worker properties file on the worker's command line")
        .hasMessageContaining("CONNECT_BOOTSTRAP_SERVERS");
  }
}
