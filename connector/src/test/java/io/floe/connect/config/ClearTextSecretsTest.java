/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClearTextSecretsTest {
  private static final String CANARY = "canary-31d8e0";
  private static final Map<String, String> PROPS =
      Map.of(
          "iceberg.tables", "db.t",
          "iceberg.catalog.uri", "http://catalog",
          "iceberg.catalog.jdbc.password", CANARY,
          "iceberg.kafka.sasl.jaas.config",
              "PlainLoginModule required password=\"" + CANARY + "\";",
          "iceberg.catalog.token-refresh-enabled", "true");

  @TempDir Path dir;

  private WorkerKafka workerWith(String properties) throws IOException {
    return WorkerFiles.distributedWorker(dir, properties);
  }

  @Test
  void warnsOnceNamingEveryCredentialKeyWhenTheWorkerDefinesNoConfigProvider() throws Exception {
    ClearTextSecrets found =
        ClearTextSecrets.of(PROPS, workerWith("bootstrap.servers=broker:9092\n"));

    assertThat(found.keys())
        .containsExactly("iceberg.catalog.jdbc.password", "iceberg.kafka.sasl.jaas.config");
    String warning = found.warning().orElseThrow();
    assertThat(warning)
        .startsWith(
            "Credentials given in clear text in iceberg.catalog.jdbc.password,"
                + " iceberg.kafka.sasl.jaas.config:")
        .contains("config.providers", "${file:")
        .doesNotContain(CANARY)
        .doesNotContain("token-refresh-enabled")
        .doesNotContain("iceberg.catalog.uri");
    assertThat(found.note()).isEmpty();
  }

  @Test
  void onlyNotesTheKeysWhenTheWorkerHasConfigProvidersForConnectResolvesThemFirst()
      throws Exception {
    ClearTextSecrets found =
        ClearTextSecrets.of(
            PROPS,
            workerWith(
                "bootstrap.servers=broker:9092\nconfig.providers=file, env\n"
                    + "config.providers.file.class="
                    + "org.apache.kafka.common.config.provider.FileConfigProvider\n"));

    assertThat(found.workerProviders()).contains(List.of("file", "env"));
    assertThat(found.warning()).isEmpty();
    assertThat(found.note().orElseThrow())
        .contains("iceberg.catalog.jdbc.password, iceberg.kafka.sasl.jaas.config")
        .contains("cannot tell", "the worker defines file, env")
        .doesNotContain(CANARY);
  }

  @Test
  void onlyNotesTheKeysWhenTheWorkerConfigurationCannotBeFound() {
    ClearTextSecrets found = ClearTextSecrets.of(PROPS, new WorkerKafka(k -> null, k -> null));

    assertThat(found.workerProviders()).isEmpty();
    assertThat(found.warning()).isEmpty();
    assertThat(found.note().orElseThrow())
        .contains("the worker's configuration was not found")
        .doesNotContain(CANARY);
  }

  @Test
  void readsTheProvidersOfConfluentsImageFromItsEnvironment() {
    WorkerKafka image =
        new WorkerKafka(
            k -> null,
            Map.of("CONNECT_BOOTSTRAP_SERVERS", "b:9092", "CONNECT_CONFIG_PROVIDERS", "file")::get);
    WorkerKafka bare =
        new WorkerKafka(k -> null, Map.of("CONNECT_BOOTSTRAP_SERVERS", "b:9092")::get);

    assertThat(image.configProviders()).contains(List.of("file"));
    assertThat(ClearTextSecrets.of(PROPS, bare).warning()).isPresent();
  }

  @Test
  void saysNothingWithoutCredentials() throws Exception {
    ClearTextSecrets found =
        ClearTextSecrets.of(
            Map.of("iceberg.tables", "db.t", "iceberg.catalog.uri", "http://catalog"),
            workerWith("bootstrap.servers=broker:9092\n"));

    assertThat(found.warning()).isEmpty();
    assertThat(found.note()).isEmpty();
    assertThat(new ClearTextSecrets(List.of(), Optional.empty()).note()).isEmpty();
  }
}
