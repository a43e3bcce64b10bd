/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldPathTest {
  @Test
  void aPathWalksStructsAndMaps() {
    FieldPath street = FieldPath.of("address.street");
    assertThat(street.names()).containsExactly("address", "street");
    assertThat(street).hasToString("address.street");
    assertThat(street.in(Map.of("address", Map.of("street", "Main")))).isEqualTo("Main");
    assertThat(FieldPath.of("id").in(CdcRecords.row(3, null))).isEqualTo(3);
  }

  @Test
  void aMissingFieldIsToldApartFromANullOne() {
    FieldPath street = FieldPath.of("address.street");
    assertThat(street.in(CdcRecords.row(1, null))).isNull();
    assertThat(FieldPath.of("name").in(CdcRecords.row(1, null))).isNull();
    assertThat(FieldPath.of("email").in(CdcRecords.row(1, null))).isSameAs(FieldPath.MISSING);
    Map<String, Object> nullValue = new HashMap<>();
    nullValue.put("street", null);
    assertThat(FieldPath.of("street").in(nullValue)).isNull();
    assertThat(FieldPath.of("street").in(Map.of())).isSameAs(FieldPath.MISSING);
    assertThat(FieldPath.of("id.x").in(CdcRecords.row(1, null))).isSameAs(FieldPath.MISSING);
  }

  @Test
  void anEmptySegmentIsRefused() {
    assertThatThrownBy(() -> FieldPath.of("a.")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldPath.of(" ")).isInstanceOf(IllegalArgumentException.class);
  }
}
