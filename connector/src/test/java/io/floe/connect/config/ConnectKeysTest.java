/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectKeysTest {

  @Test
  void withNoneOfConnectsKeysTheDefaultsHold() {
    ConnectKeys keys = ConnectKeys.parse(Map.of());
    assertThat(keys.connectorName()).isEqualTo("floe");
    assertThat(keys.taskIndex()).isZero();
    assertThat(keys.toleratesErrors()).isFalse();
    assertThat(keys.deadLetterTopic()).isEmpty();
    assertThat(keys.sourceTopics()).isEmpty();
    assertThat(keys.sourceTopicsRegex()).isEmpty();
  }

  @Test
  void readsConnectsKeysAsConnectWritesThem() {
    ConnectKeys keys =
        ConnectKeys.parse(
            Map.of(
                "name", "orders-sink",
                "floe.task.index", "3",
                "errors.tolerance", " ALL ",
                "errors.deadletterqueue.topic.name", " orders-dlq ",
                "topics", " orders, refunds,,",
                "topics.regex", "orders-.*"));
    assertThat(keys.connectorName()).isEqualTo("orders-sink");
    assertThat(keys.taskIndex()).isEqualTo(3);
    assertThat(keys.toleratesErrors()).isTrue();
    assertThat(keys.deadLetterTopic()).contains("orders-dlq");
    assertThat(keys.sourceTopics()).containsExactly("orders", "refunds");
    assertThat(keys.sourceTopicsRegex()).contains("orders-.*");
  }

  @Test
  void blankValuesCountAsUnset() {
    ConnectKeys keys =
        ConnectKeys.parse(
            Map.of(
                "name", " ",
                "errors.tolerance", "none",
                "errors.deadletterqueue.topic.name", " ",
                "topics", " ",
                "topics.regex", ""));
    assertThat(keys.connectorName()).isEqualTo("floe");
    assertThat(keys.toleratesErrors()).isFalse();
    assertThat(keys.deadLetterTopic()).isEmpty();
    assertThat(keys.sourceTopics()).isEmpty();
    assertThat(keys.sourceTopicsRegex()).isEmpty();
  }
}
