/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SubjectNameStrategyTest {
  private static final Schema ORDER =
      SchemaBuilder.record("Order").namespace("com.example").fields().requiredInt("a").endRecord();

  @ParameterizedTest
  @CsvSource({
    "TopicNameStrategy, false, orders-value",
    "TopicNameStrategy, true, orders-key",
    "io.confluent.kafka.serializers.subject.TopicNameStrategy, false, orders-value",
    "RecordNameStrategy, false, com.example.Order",
    "io.confluent.kafka.serializers.subject.RecordNameStrategy, true, com.example.Order",
    "TopicRecordNameStrategy, false, orders-com.example.Order",
    "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy, true, orders-com.example.Order"
  })
  void namesSubjectsAsConfluentDoes(String name, boolean isKey, String subject) {
    SubjectNameStrategy strategy = SubjectNameStrategy.forName(name).orElseThrow();
    assertThat(strategy.subject("orders", isKey, ORDER)).isEqualTo(subject);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "topicnamestrategy",
        "TopicName",
        "com.acme.TopicNameStrategy",
        "io.confluent.kafka.serializers.subject.strategy.TopicNameStrategy",
        "io.confluent.kafka.serializers.subject.CustomStrategy"
      })
  void knowsNoOtherNames(String name) {
    assertThat(SubjectNameStrategy.forName(name)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"RecordNameStrategy", "TopicRecordNameStrategy"})
  void recordNamesNeedANamedSchema(String name) {
    SubjectNameStrategy strategy = SubjectNameStrategy.forName(name).orElseThrow();
    assertThatThrownBy(() -> strategy.subject("orders", true, Schema.create(Schema.Type.STRING)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("TopicNameStrategy");
  }
}
