/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The keys to retire, and the filter and bounds checks built from them. */
class RetiredKeysTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "score", Types.DoubleType.get()),
          Types.NestedField.optional(
              3, "tags", Types.ListType.ofRequired(4, Types.StringType.get())),
          Types.NestedField.required(
              5,
              "origin",
              Types.StructType.of(Types.NestedField.required(6, "host", Types.StringType.get()))));

  private static GenericRecord id(long id) {
    GenericRecord key = GenericRecord.create(SCHEMA.select("id"));
    key.setField("id", id);
    return key;
  }

  private static RetiredKeys ids(long... ids) {
    return RetiredKeys.of(
        SCHEMA, Set.of(1), java.util.Arrays.stream(ids).mapToObj(RetiredKeysTest::id).toList());
  }

  @Test
  void equalKeysAreOneKey() {
    RetiredKeys keys = ids(1, 2, 2, 1);

    assertThat(keys.size()).isEqualTo(2);
    assertThat(keys.contains(id(2))).isTrue();
    assertThat(keys.contains(id(3))).isFalse();
    assertThat(keys.keySchema().asStruct()).isEqualTo(SCHEMA.select("id").asStruct());
  }

  @Test
  void keysNeedKeyColumnsOfValuesOutsideListsAndMaps() {
    assertThatThrownBy(() -> RetiredKeys.of(SCHEMA, Set.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs key columns");
    assertThatThrownBy(() -> RetiredKeys.of(SCHEMA, Set.of(4), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inside a LIST");
    assertThatThrownBy(() -> RetiredKeys.of(SCHEMA, Set.of(5), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a value");
    assertThatThrownBy(() -> RetiredKeys.of(SCHEMA, Set.of(42), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in the table's schema");
    assertThat(RetiredKeys.of(SCHEMA, Set.of(6), List.of()).keyFieldIds()).containsExactly(6);
  }

  @Test
  void aKeyWithoutAValueIsRefused() {
    assertThatThrownBy(
            () -> RetiredKeys.of(SCHEMA, Set.of(1), List.of(id(1), id(2).copy("id", null))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no value for key column id");
  }

  @Test
  void theFilterPassesExactlyTheKeysOfAOneColumnKey() {
    Expression filter = KeyFilter.of(ids(3, 10, 7));
    Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), filter);

    for (long id = 0; id < 12; id++) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", id);
      assertThat(evaluator.eval(row)).as("id %s", id).isEqualTo(id == 3 || id == 7 || id == 10);
    }
  }

  @Test
  void manyKeysAreFilteredByTheirRangeAlone() {
    long[] many = new long[KeyFilter.MAX_IN_VALUES + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = 10 + 2L * i;
    }
    Expression filter = KeyFilter.of(ids(many));
    assertThat(filter.toString()).doesNotContain(" in ");
    Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), filter);
    for (long id : new long[] {9, 10, 11, many[many.length - 1], many[many.length - 1] + 1}) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", id);
      assertThat(evaluator.eval(row))
          .as("id %s", id)
          .isEqualTo(id >= 10 && id <= many[many.length - 1]);
    }
  }

  @Test
  void columnsWhoseOrderIsNotTheirStatisticsOrderDoNotFilter() {
    GenericRecord key = GenericRecord.create(SCHEMA.select("score"));
    key.setField("score", 1.5);
    RetiredKeys keys = RetiredKeys.of(SCHEMA, Set.of(2), List.of(key));

    assertThat(KeyFilter.of(keys)).isEqualTo(Expressions.alwaysTrue());
    assertThat(KeyFilter.of(ids())).isEqualTo(Expressions.alwaysFalse());
  }
}
