/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.avro.AvroConverterConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {
  private static final String CANARY = "canary-7f3a9c";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "iceberg.catalog.credential",
        "iceberg.catalog.token",
        "iceberg.catalog.s3.access-key-id",
        "iceberg.catalog.s3.secret-access-key",
        "iceberg.catalog.s3.session-token",
        "iceberg.catalog.jdbc.password",
        "iceberg.catalog.client.credentials-provider.secret",
        "iceberg.kafka.sasl.jaas.config",
        "iceberg.kafka.ssl.keystore.password",
        "iceberg.kafka.ssl.key.password",
        "value.converter.basic.auth.user.info",
        "value.converter.bearer.auth.token",
        "value.converter.bearer.auth.client.secret",
        "value.converter.schema.registry.ssl.key.password",
        "iceberg.catalog.adls.sas-token.account",
        "iceberg.catalog.adls.auth.shared-key.account.key",
        "iceberg.catalog.gcs.oauth2.token",
        "iceberg.catalog.gcs.encryption-key",
        "iceberg.catalog.gcs.decryption-key",
        "iceberg.catalog.s3.sse.key",
        "iceberg.catalog.header.Authorization",
        "iceberg.catalog.rest.auth.oauth2.credential",
        "iceberg.kafka.ssl.keystore.key",
        "iceberg.kafka.sasl.oauthbearer.client.credentials.client.secret",
        "consumer.override.sasl.jaas.config"
      })
  void secretBearingKeysAreRecognisedByName(String key) {
    assertThat(Secrets.isSecretKey(key)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "iceberg.catalog.uri",
        "iceberg.catalog.warehouse",
        "iceberg.tables",
        "iceberg.kafka.bootstrap.servers",
        "iceberg.control.transactional-id-prefix",
        "key.converter",
        "key.converter.schemas.enable",
        "value.converter.basic.auth.credentials.source",
        "iceberg.catalog.token-refresh-enabled",
        "iceberg.catalog.rest.auth.oauth2.token-exchange-enabled",
        "iceberg.catalog.token-expires-in-ms",
        "iceberg.catalog.client.credentials-provider",
        "iceberg.catalog.rest.auth.oauth2.token-endpoint",
        "iceberg.catalog.oauth2-server-uri",
        "iceberg.kafka.sasl.mechanism",
        "iceberg.kafka.ssl.keystore.location",
        "iceberg.kafka.ssl.keystore.type",
        "iceberg.kafka.sasl.oauthbearer.token.endpoint.url",
        "iceberg.kafka.sasl.login.callback.handler.class",
        "iceberg.catalog.s3.sse.type",
        "iceberg.catalog.adls.auth.shared-key.account.name"
      })
  void ordinaryKeysAreNotSecrets(String key) {
    assertThat(Secrets.isSecretKey(key)).isFalse();
  }

  @Test
  void everyDefinedKeyWhoseNameSaysSecretIsAPasswordAndNoOtherIs() {
    FloeSinkConfig.CONFIG_DEF
        .configKeys()
        .forEach(
            (name, key) ->
                assertThat(key.type == ConfigDef.Type.PASSWORD)
                    .as(name + " is a PASSWORD key exactly when its name says it holds a secret")
                    .isEqualTo(Secrets.isSecretKey(name)));
  }

  @Test
  void everySecretKeyOfTheRegistryClientIsAPassword() {
    AvroConverterConfig.CONFIG_DEF
        .configKeys()
        .forEach(
            (name, key) ->
                assertThat(key.type == ConfigDef.Type.PASSWORD)
                    .as(name)
                    .isEqualTo(Secrets.isSecretKey(name)));
  }

  @Test
  void listsTheKeysHoldingASecretValueButNotFlagsNumbersOrEmptyValues() {
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.catalog.jdbc.password", CANARY);
    props.put("iceberg.catalog.credential", "client:" + CANARY);
    props.put("iceberg.catalog.token", "");
    props.put("iceberg.catalog.s3.secret-access-key", "true");
    props.put("iceberg.catalog.uri", "http://catalog");
    props.put("iceberg.catalog.token-refresh-enabled", "false");
    assertThat(Secrets.keysHoldingSecrets(props))
        .containsExactly("iceberg.catalog.credential", "iceberg.catalog.jdbc.password");
  }

  @Test
  void thePasswordOfAUrlIsASecretAndNamesItsKey() {
    Map<String, String> props =
        Map.of(
            "value.converter.schema.registry.url",
            "https://reader:" + CANARY + "@registry:8081,https://backup:8081",
            "iceberg.catalog.uri",
            "http://catalog:8181");
    assertThat(Secrets.keysHoldingSecrets(props))
        .containsExactly("value.converter.schema.registry.url");
    assertThat(Secrets.of(props).mask("401 from https://reader:" + CANARY + "@registry:8081"))
        .isEqualTo("401 from https://reader:[hidden]@registry:8081");
  }

  @Test
  void hidesSecretsInAValidateAnswerOnPassThroughKeysAndInAnyKeysErrors() {
    Map<String, String> props =
        Map.of(
            "iceberg.catalog.jdbc.password",
            CANARY,
            "iceberg.catalog.uri",
            "jdbc:postgresql://db/x?password=" + CANARY);
    ConfigValue passThrough = new ConfigValue("iceberg.catalog.jdbc.password");
    passThrough.value(CANARY);
    passThrough.addErrorMessage("rejected " + CANARY);
    ConfigValue other = new ConfigValue("iceberg.catalog.uri");
    other.value("jdbc:postgresql://db/x?password=" + CANARY);
    other.addErrorMessage("cannot connect to jdbc:postgresql://db/x?password=" + CANARY);

    Secrets.hideIn(List.of(passThrough, other), props);

    assertThat(passThrough.value()).isInstanceOf(Password.class).hasToString(Secrets.MASK);
    assertThat(passThrough.errorMessages()).containsExactly("rejected " + Secrets.MASK);
    assertThat(other.errorMessages())
        .containsExactly("cannot connect to jdbc:postgresql://db/x?password=" + Secrets.MASK);
  }

  @Test
  void redactsSecretValuesOfAMapAndKeepsTheRest() {
    Map<String, String> redacted =
        Secrets.redacted(
            Map.of("iceberg.catalog.uri", "http://x", "iceberg.catalog.s3.secret-access-key", "s"));
    assertThat(redacted)
        .containsEntry("iceberg.catalog.uri", "http://x")
        .containsEntry("iceberg.catalog.s3.secret-access-key", Secrets.MASK);
  }

  @Test
  void masksSecretValuesInTextLongestFirstButNotFlagsOrNumbers() {
    Secrets secrets =
        Secrets.of(
            Map.of(
                "iceberg.catalog.jdbc.password",
                CANARY,
                "iceberg.catalog.token",
                CANARY + "-long",
                "iceberg.catalog.token-refresh-enabled",
                "true",
                "iceberg.catalog.token-expires-in-ms",
                "3600000"));
    assertThat(
            secrets.mask("url jdbc:pg://u:" + CANARY + "@h and " + CANARY + "-long; true 3600000"))
        .isEqualTo("url jdbc:pg://u:[hidden]@h and [hidden]; true 3600000");
  }

  @Test
  void guardReplacesAnExceptionWhoseCauseChainQuotesASecret() {
    Secrets secrets = Secrets.of(Map.of("iceberg.catalog.jdbc.password", CANARY));
    RuntimeException leaking =
        new ConnectException(
            "Cannot load catalog",
            new IllegalStateException("connection to jdbc:pg://u:" + CANARY + "@db failed"));
    RuntimeException guarded = secrets.guard(leaking);

    assertThat(guarded).isNotSameAs(leaking).hasNoCause();
    assertThat(guarded.getMessage())
        .contains("Cannot load catalog")
        .contains("java.lang.IllegalStateException: connection to jdbc:pg://u:[hidden]@db failed")
        .doesNotContain(CANARY);
    assertThat(guarded.getStackTrace()).isEqualTo(leaking.getStackTrace());

    RuntimeException clean = new ConnectException("nothing secret here");
    assertThat(secrets.guard(clean)).isSameAs(clean);
  }
}
