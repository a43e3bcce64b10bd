/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class SchemalessConversionTest {
  private static final ConvertOptions DEFAULTS = ConvertOptions.defaults();

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void convertsAValueIntoTheSchemaInferredFromIt() {
    Map<String, Object> value =
        map(
            "id", 42L,
            "customer", map("name", "Ada", "tags", List.of("x", "y")),
            "lines", List.of(map("sku", "A-1", "qty", 2L), map("sku", "B-2", "qty", 1L)));
    org.apache.iceberg.Schema table = SchemaInference.inferSchema(value);
    Record row = RecordConverters.forSchemaless(table, DEFAULTS).convert(value);

    assertThat(row.getField("id")).isEqualTo(42L);
    Record customer = (Record) row.getField("customer");
    assertThat(customer.getField("tags")).isEqualTo(List.of("x", "y"));
    List<?> lines = (List<?>) row.getField("lines");
    assertThat(((Record) lines.get(1)).getField("sku")).isEqualTo("B-2");
  }

  @Test
  void laterValueOfAnotherTypeIsAConflictNotACoercion() {
    org.apache.iceberg.Schema table = SchemaInference.inferSchema(map("amount", 10L));
    RecordConverter converter = RecordConverters.forSchemaless(table, DEFAULTS);
    assertThatThrownBy(() -> converter.convert(map("amount", "ten-thousand")))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("amount");
              assertThat(e.expectedType()).isEqualTo("long");
              assertThat(e.actualType()).isEqualTo("java.lang.String");
              assertThat(e.getMessage()).doesNotContain("ten-thousand");
            });
    assertThatThrownBy(() -> converter.convert(map("amount", 10.5d)))
        .isInstanceOf(ConversionException.class);
  }

  @Test
  void missingKeysAreNullAndUnknownKeysAreListedForEvolution() {
    org.apache.iceberg.Schema table =
        SchemaInference.inferSchema(
            map("id", 1L, "lines", List.of(map("sku", "A")), "attrs", map("color", map("r", 1L))));
    RecordConverter converter = RecordConverters.forSchemaless(table, DEFAULTS);
    Map<String, Object> later =
        map(
            "lines",
            List.of(map("sku", "A", "qty", 2L), map("qty", null, "price", 1.5d)),
            "note",
            "new",
            "empty",
            List.of(),
            "attrs",
            map("color", map("r", 1L, "g", 2L)));

    Record row = converter.convert(later);
    assertThat(row.getField("id")).isNull();

    assertThat(converter.absentFromTable(later))
        .extracting(AbsentField::path, AbsentField::parent, AbsentField::name, AbsentField::type)
        .containsExactly(
            tuple("attrs.color.g", "attrs.color", "g", Types.LongType.get()),
            tuple("lines[].price", "lines.element", "price", Types.DoubleType.get()),
            tuple("lines[].qty", "lines.element", "qty", Types.LongType.get()),
            tuple("note", null, "note", Types.StringType.get()));
  }

  @Test
  void conflictingAbsentKeysAcrossListElementsAreReported() {
    org.apache.iceberg.Schema table =
        SchemaInference.inferSchema(map("lines", List.of(map("sku", "A"))));
    RecordConverter converter = RecordConverters.forSchemaless(table, DEFAULTS);
    Map<String, Object> value = map("lines", List.of(map("qty", 1L), map("qty", "one-ish")));
    assertThatThrownBy(() -> converter.absentFromTable(value))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("lines[].qty");
              assertThat(e.getMessage()).doesNotContain("one-ish");
            });
  }

  @Test
  void convertsIntoMapColumnsWithTypedValues() {
    org.apache.iceberg.Schema table =
        Fixtures.table(
            Types.MapType.ofOptional(2, 3, Types.StringType.get(), Types.LongType.get()));
    Record row =
        RecordConverters.forSchemaless(table, DEFAULTS)
            .convert(map(Fixtures.FIELD, map("a", 1L, "b", 2)));
    Map<?, ?> converted = (Map<?, ?>) row.get(0);
    assertThat(converted.get("a")).isEqualTo(1L);
    assertThat(converted.get("b")).isEqualTo(2L);
  }

  @Test
  void convertsTwoHundredLevelsOfNesting() {
    Map<String, Object> value = Deep.map(200);
    org.apache.iceberg.Schema table = SchemaInference.inferSchema(value);
    Record level = RecordConverters.forSchemaless(table, DEFAULTS).convert(value);
    int levels = 1;
    while (level.getField("child") != null) {
      level = (Record) level.getField("child");
      levels++;
    }
    assertThat(levels).isEqualTo(200);
    assertThat(level.getField("v")).isEqualTo(200L);
  }

  @Test
  void rejectsNonMapValues() {
    RecordConverter converter =
        RecordConverters.forSchemaless(Fixtures.table(Types.StringType.get()), DEFAULTS);
    assertThatThrownBy(() -> converter.convert("a string"))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> assertThat(e.path()).isEqualTo(ConversionException.ROOT));
    assertThatThrownBy(() -> converter.convert(null)).isInstanceOf(ConversionException.class);
  }

  @Test
  void caseInsensitiveMatchingReadsKeysWhoseNameDiffersInCaseOnly() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            Types.NestedField.optional(1, "orderid", Types.LongType.get()),
            Types.NestedField.optional(2, "note", Types.StringType.get()));
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("OrderId", 7L);
    value.put("NOTE", "other case");
    value.put("note", "exact");

    Record exact = RecordConverters.forSchemaless(table, DEFAULTS).convert(value);
    assertThat(exact.getField("orderid")).isNull();
    assertThat(RecordConverters.forSchemaless(table, DEFAULTS).absentFromTable(value))
        .extracting(AbsentField::name)
        .containsExactlyInAnyOrder("OrderId", "NOTE");

    RecordConverter converter =
        RecordConverters.forSchemaless(table, DEFAULTS.withCaseInsensitive(true));
    Record row = converter.convert(value);
    assertThat(row.getField("orderid")).isEqualTo(7L);
    assertThat(row.getField("note")).as("an exact match wins").isEqualTo("exact");
    assertThat(converter.absentFromTable(value)).isEmpty();
  }
}
