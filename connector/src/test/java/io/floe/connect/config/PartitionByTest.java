/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionByTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "ts", Types.TimestampType.withZone()),
          optional(3, "name", Types.StringType.get()),
          optional(
              4, "customer", Types.StructType.of(optional(5, "region", Types.StringType.get()))),
          optional(6, "Country", Types.StringType.get()));

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "id | id",
        "day(ts) | ts_day",
        "DAYS( ts ) | ts_day",
        "year(ts) | ts_year",
        "month(ts) | ts_month",
        "hour(ts) | ts_hour",
        "bucket(id, 16) | id_bucket",
        "bucket[16](id) | id_bucket",
        "truncate(name, 4) | name_trunc",
        "truncate[4](name) | name_trunc",
        "customer.region | customer.region",
        "Country | Country"
      })
  void buildsEachTransform(String text, String partitionField) {
    PartitionSpec spec = PartitionBy.parse(text).toSpec(SCHEMA);
    assertThat(spec.fields())
        .singleElement()
        .satisfies(f -> assertThat(f.name()).isEqualTo(partitionField));
  }

  @Test
  void splitsTermsOutsideParentheses() {
    PartitionBy by = PartitionBy.parse("day(ts), bucket(id, 8),name");
    assertThat(by.terms()).hasSize(3);
    assertThat(by.toString()).isEqualTo("day(ts), bucket(id, 8), name");
    assertThat(by.toSpec(SCHEMA).fields()).hasSize(3);
  }

  @Test
  void blankIsUnpartitioned() {
    assertThat(PartitionBy.parse(" ").isUnpartitioned()).isTrue();
    assertThat(PartitionBy.parse(null).toSpec(SCHEMA).isUnpartitioned()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "day(ts",
        "bucket(id)",
        "bucket(id, 0)",
        "week(ts)",
        "id,",
        "truncate(name, x)",
        "a b"
      })
  void rejectsTermsThatDoNotParse(String text) {
    assertThatThrownBy(() -> PartitionBy.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesTheMissingColumn() {
    assertThatThrownBy(() -> PartitionBy.parse("day(created)").toSpec(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'created'");
  }

  @Test
  void rejectsATransformThatDoesNotFitTheType() {
    assertThatThrownBy(() -> PartitionBy.parse("day(name)").toSpec(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("day(name)");
  }
}
