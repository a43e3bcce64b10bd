/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OpTest {
  @ParameterizedTest
  @CsvSource({"c, UPSERT", "r, UPSERT", "u, UPSERT", "d, DELETE", "t, TRUNCATE", "m, MESSAGE"})
  void debeziumsCodesMeanTheSameInBothFormats(String code, Op op) {
    assertThat(Op.ofEnvelope(code)).isEqualTo(op);
    assertThat(Op.ofFlattened(code)).isEqualTo(op);
  }

  @ParameterizedTest
  @CsvSource({"I, UPSERT", "U, UPSERT", "D, DELETE"})
  void theDebeziumTransformsCodesAreKnownInFlattenedRecordsOnly(String code, Op op) {
    assertThat(Op.ofFlattened(code)).isEqualTo(op);
    assertThat(Op.ofEnvelope(code)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "C", "T", "M", "R", "i", "x", "insert", " c"})
  void anyOtherCodeIsUnknown(String code) {
    assertThat(Op.ofFlattened(code)).isNull();
  }
}
