/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class RowKeyTest {
  private static final List<String> ID = List.of("id");

  private static RowKey id(Object value) {
    return RowKey.of(ID, List.of(value));
  }

  @Test
  void integersOfAnyWidthAreTheSameKey() {
    assertThat(id((short) 7)).isEqualTo(id(7)).isEqualTo(id(7L)).hasSameHashCodeAs(id(7L));
    assertThat(id(7)).isNotEqualTo(id(8));
  }

  @Test
  void decimalsEqualInValueAreTheSameKeyWhateverTheirScale() {
    assertThat(id(new BigDecimal("1.50"))).isEqualTo(id(new BigDecimal("1.5")));
    assertThat(id(new BigDecimal("0.000"))).isEqualTo(id(BigDecimal.ZERO));
    assertThat(id(new BigDecimal("1.5"))).isNotEqualTo(id(new BigDecimal("1.05")));
  }

  @Test
  void bytesAreComparedByContentAndCopied() {
    byte[] bytes = {1, 2, 3};
    RowKey key = id(bytes);
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 1, 2, 3}, 1, 3);
    assertThat(key).isEqualTo(id(buffer)).hasSameHashCodeAs(id(buffer));
    assertThat(buffer.position()).isEqualTo(1);

    bytes[0] = 42;
    assertThat(key).isEqualTo(id(new byte[] {1, 2, 3}));
    ByteBuffer value = (ByteBuffer) key.value(0);
    assertThat(value.isReadOnly()).isTrue();
    assertThat(value).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
  }

  @Test
  void dateValuesAreInstants() {
    RowKey key = id(new Date(1_000L));
    assertThat(key.value(0)).isEqualTo(Instant.ofEpochMilli(1_000L));
  }

  @Test
  void structsWithTheSameValuesAreTheSameKeyWhateverTheirSchemaVersion() {
    Schema v1 = SchemaBuilder.struct().name("k").version(1).field("a", Schema.INT32_SCHEMA).build();
    Schema v2 = SchemaBuilder.struct().name("k").version(2).field("a", Schema.INT64_SCHEMA).build();
    assertThat(new Struct(v1).put("a", 5)).isNotEqualTo(new Struct(v2).put("a", 5L));
    assertThat(id(new Struct(v1).put("a", 5))).isEqualTo(id(new Struct(v2).put("a", 5L)));
  }

  @Test
  void equalKeysFindEachOtherInAMap() {
    Map<RowKey, String> rows = new HashMap<>();
    rows.put(RowKey.of(List.of("tenant", "id"), List.of("acme", 1)), "first");
    rows.put(RowKey.of(Arrays.asList("tenant", "id"), List.of("acme", 1L)), "second");
    assertThat(rows).hasSize(1).containsValue("second");
  }

  @Test
  void keysOfOtherColumnsDiffer() {
    assertThat(RowKey.of(List.of("a"), List.of(1)))
        .isNotEqualTo(RowKey.of(List.of("b"), List.of(1)));
  }

  @Test
  void anImmutableColumnListIsShared() {
    assertThat(id(1).columns()).isSameAs(ID);
  }

  @Test
  void aNullValueOrAMissingValueIsRefused() {
    assertThatThrownBy(() -> RowKey.of(ID, Arrays.asList((Object) null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key column 'id' is null");
    assertThatThrownBy(() -> RowKey.of(List.of("a", "b"), List.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RowKey.of(List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void itsTextNamesTheColumnsButNotTheValues() {
    RowKey key = RowKey.of(List.of("tenant", "email"), List.of("acme", "ada@example.com"));
    assertThat(key).hasToString("RowKey[tenant, email]");
    assertThat(key.size()).isEqualTo(2);
    assertThat(key.value(1)).isEqualTo("ada@example.com");
  }
}
