/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
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
        "iceberg.catalog.adls.sas-token.account"
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
        "key.converter"
      })
  void ordinaryKeysAreNotSecrets(String key) {
    assertThat(Secrets.isSecretKey(key)).isFalse();
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
