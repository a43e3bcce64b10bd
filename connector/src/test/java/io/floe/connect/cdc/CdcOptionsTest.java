/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CdcOptionsTest {
  @Test
  void theDefaultsAreDebeziums() {
    CdcOptions options = CdcOptions.defaults();
    assertThat(options.format()).isEqualTo(ChangeFormat.AUTO);
    assertThat(options.opField()).isEqualTo("__op");
    assertThat(options.truncateEnabled()).isFalse();
    assertThat(options.unavailableValuePlaceholder()).isEqualTo("__debezium_unavailable_value");
  }

  @Test
  void eachOptionCanBeChangedAlone() {
    CdcOptions options =
        CdcOptions.defaults()
            .withFormat(ChangeFormat.FLATTENED)
            .withOpField("_cdc.op")
            .withTruncateEnabled(true)
            .withUnavailableValuePlaceholder("?");
    assertThat(options)
        .isEqualTo(new CdcOptions(ChangeFormat.FLATTENED, "_cdc.op", true, "?"))
        .isNotEqualTo(CdcOptions.defaults());
    assertThat(CdcOptions.defaults().withTruncateEnabled(true).format())
        .isEqualTo(ChangeFormat.AUTO);
  }

  @Test
  void anOpFieldMustBeADottedPathOtherThanTheDeletedMarker() {
    assertThatThrownBy(() -> CdcOptions.defaults().withOpField(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CdcOptions.defaults().withOpField("_cdc..op"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'_cdc..op' has an empty segment");
    assertThatThrownBy(() -> CdcOptions.defaults().withOpField("__deleted"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void thePlaceholderMustNotBeEmpty() {
    assertThatThrownBy(() -> CdcOptions.defaults().withUnavailableValuePlaceholder(""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
