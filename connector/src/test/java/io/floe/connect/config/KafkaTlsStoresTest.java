/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.IcebergSinkConnector;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS stores of a connector's Kafka clients are opened at validation: an expired certificate, a
 * wrong password or a missing store is reported on the store's location key, naming the clients.
 * The stores are made by the JDK's keytool.
 */
class KafkaTlsStoresTest {
  private static final String PASSWORD = "store-pw-5e1f";

  @TempDir static Path dir;
  private static Path valid;
  private static Path expired;

  @BeforeAll
  static void makeStores() throws Exception {
    valid = keystore("valid.p12", "CN=floe", null, 30);
    expired = keystore("expired.p12", "CN=floe-old", "-10d", 1);
  }

  /** A PKCS12 key store with one self-signed certificate, valid from {@code start} for days. */
  private static Path keystore(String name, String subject, String start, int days)
      throws IOException, InterruptedException {
    Path file = dir.resolve(name);
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-keystore",
                file.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-alias",
                "client",
                "-dname",
                subject,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                Integer.toString(days)));
    if (start != null) {
      command.addAll(List.of("-startdate", start));
    }
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor()).as("keytool: %s", output).isZero();
    return file;
  }

  private static Map<String, List<String>> errors(Map<String, String> extra) {
    Map<String, String> config = MinimalConfigs.withoutBootstrapServers();
    config.put(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS, "localhost:9093");
    config.putAll(extra);
    return new IcebergSinkConnector()
        .validate(config).configValues().stream()
            .filter(value -> !value.errorMessages().isEmpty())
            .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  private static Map<String, String> keystoreOf(String prefix, Path store, String password) {
    return Map.of(
        prefix + "ssl.keystore.location",
        store.toString(),
        prefix + "ssl.keystore.password",
        password,
        prefix + "ssl.keystore.type",
        "PKCS12");
  }

  /** Errors of {@code config} on a worker started with these properties. */
  private static Map<String, List<String>> errorsOnWorker(
      String workerProperties, Map<String, String> config) throws IOException {
    WorkerKafka worker = WorkerFiles.distributedWorker(dir, workerProperties);
    return ConfigValidation.addCrossFieldErrors(
            new Config(FloeSinkConfig.CONFIG_DEF.validate(config)), config, worker)
        .configValues()
        .stream()
        .filter(value -> !value.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void aStorePasswordTheWorkerReadsThroughAProviderIsRequiredOfTheControlClients()
      throws IOException {
    String worker =
        "bootstrap.servers=broker:9093\nsecurity.protocol=SSL\n"
            + "ssl.truststore.location=/etc/tls/truststore.p12\n"
            + "ssl.truststore.password=${file:/etc/secrets/tls.properties:truststore}\n";

    assertThat(errorsOnWorker(worker, MinimalConfigs.withoutBootstrapServers()))
        .containsOnlyKeys("iceberg.kafka.ssl.truststore.password")
        .extractingByKey("iceberg.kafka.ssl.truststore.password", InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .contains("the control clients take ssl.truststore.location from the Connect worker")
        .contains("the worker's ssl.truststore.password is a config provider reference");

    Map<String, String> config = MinimalConfigs.withoutBootstrapServers();
    config.put("iceberg.kafka.ssl.truststore.password", "${file:/s.properties:truststore}");
    assertThat(errorsOnWorker(worker, config)).isEmpty();
  }

  @Test
  void aValidKeystoreValidates() {
    assertThat(errors(keystoreOf("iceberg.kafka.", valid, PASSWORD))).isEmpty();
    assertThat(errors(keystoreOf("consumer.override.", valid, PASSWORD))).isEmpty();
  }

  @Test
  void anExpiredCertificateIsReportedOnTheKeystoreOfItsClients() {
    assertThat(errors(keystoreOf("iceberg.kafka.", expired, PASSWORD)))
        .containsOnlyKeys("iceberg.kafka.ssl.keystore.location")
        .extractingByKey("iceberg.kafka.ssl.keystore.location", InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .contains("The certificate CN=floe-old in the keystore " + expired + " expired on")
        .contains("the broker will refuse Floe's control clients at the TLS handshake");
    assertThat(errors(keystoreOf("consumer.override.", expired, PASSWORD)))
        .extractingByKey("consumer.override.ssl.keystore.location", InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .contains("expired on")
        .contains("the sink task's consumer");
  }

  @Test
  void aCertificateNotValidYetIsReported() {
    Instant longAgo = Instant.parse("2001-01-01T00:00:00Z");
    assertThat(
            KafkaTlsStores.problem(
                keystoreOf("iceberg.kafka.", valid, PASSWORD),
                "iceberg.kafka.",
                "keystore",
                "Floe's control clients",
                longAgo))
        .get()
        .asString()
        .contains("CN=floe")
        .contains("is not valid before");
  }

  @Test
  void aWrongPasswordOrAMissingStoreIsReportedWithoutThePassword() {
    assertThat(errors(keystoreOf("iceberg.kafka.", valid, "wrong-pw-77")))
        .extractingByKey("iceberg.kafka.ssl.keystore.location", InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .contains("Cannot open the keystore " + valid)
        .contains("check iceberg.kafka.ssl.keystore.password")
        .doesNotContain("wrong-pw-77");
    assertThat(errors(keystoreOf("producer.override.", dir.resolve("none.p12"), PASSWORD)))
        .extractingByKey("producer.override.ssl.keystore.location", InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .contains("No keystore at " + dir.resolve("none.p12"))
        .contains("the dead-letter queue's producer");
  }
}
