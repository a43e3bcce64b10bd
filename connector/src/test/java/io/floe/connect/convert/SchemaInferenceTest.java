/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class SchemaInferenceTest {

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void infersJsonTypesWithEveryFieldOptionalAndSortedByName() {
    Map<String, Object> value =
        map(
            "name",
            "Ada",
            "age",
            36L,
            "score",
            9.5d,
            "active",
            true,
            "price",
            new BigDecimal("12.30"),
            "big",
            new BigInteger("12345678901234567890"),
            "blob",
            new byte[] {1},
            "tags",
            List.of("a", "b"),
            "address",
            map("zip", "10115", "floor", 3));

    org.apache.iceberg.Schema schema = SchemaInference.inferSchema(value);

    org.apache.iceberg.Schema expected =
        new org.apache.iceberg.Schema(
            Types.NestedField.optional(1, "active", Types.BooleanType.get()),
            Types.NestedField.optional(
                2,
                "address",
                Types.StructType.of(
                    Types.NestedField.optional(10, "floor", Types.LongType.get()),
                    Types.NestedField.optional(11, "zip", Types.StringType.get()))),
            Types.NestedField.optional(3, "age", Types.LongType.get()),
            Types.NestedField.optional(4, "big", Types.DecimalType.of(38, 0)),
            Types.NestedField.optional(5, "blob", Types.BinaryType.get()),
            Types.NestedField.optional(6, "name", Types.StringType.get()),
            Types.NestedField.optional(7, "price", Types.DecimalType.of(38, 2)),
            Types.NestedField.optional(8, "score", Types.DoubleType.get()),
            Types.NestedField.optional(
                9, "tags", Types.ListType.ofOptional(12, Types.StringType.get())));
    assertThat(schema.asStruct()).as(schema.toString()).isEqualTo(expected.asStruct());
  }

  @Test
  void sameValueInAnotherKeyOrderGivesTheSameSchema() {
    Map<String, Object> first = map("b", 1L, "a", map("y", "s", "x", 2.0d), "c", List.of(true));
    Map<String, Object> second = map("c", List.of(true), "a", map("x", 2.0d, "y", "s"), "b", 1L);
    Map<String, Object> hashed = new HashMap<>(second);
    assertThat(SchemaInference.inferSchema(first).asStruct())
        .isEqualTo(SchemaInference.inferSchema(second).asStruct())
        .isEqualTo(SchemaInference.inferSchema(hashed).asStruct());
  }

  @Test
  void nullsEmptyListsAndEmptyMapsGetNoColumnUntilTheyCarryAType() {
    Map<String, Object> value =
        map(
            "id", 1L,
            "unknown", null,
            "empty", List.of(),
            "nulls", Arrays.asList(null, null),
            "nothing", map("inner", null),
            "some", Arrays.asList(null, 4L));
    org.apache.iceberg.Schema schema = SchemaInference.inferSchema(value);
    assertThat(schema.columns()).extracting(Types.NestedField::name).containsExactly("id", "some");
    assertThat(schema.findType("some"))
        .isEqualTo(Types.ListType.ofOptional(3, Types.LongType.get()));
  }

  @Test
  void listsOfMapsMergeTheirFields() {
    Map<String, Object> value =
        map("items", List.of(map("a", 1L), map("b", "x", "a", null), map("c", List.of(1.5d))));
    org.apache.iceberg.Schema schema = SchemaInference.inferSchema(value);
    assertThat(schema.findType("items.element"))
        .isEqualTo(
            Types.StructType.of(
                Types.NestedField.optional(3, "a", Types.LongType.get()),
                Types.NestedField.optional(4, "b", Types.StringType.get()),
                Types.NestedField.optional(
                    5, "c", Types.ListType.ofOptional(6, Types.DoubleType.get()))));
  }

  @Test
  void decimalsInOneListTakeTheLargestScale() {
    Map<String, Object> value = map("d", List.of(new BigDecimal("1.5"), new BigDecimal("-20.125")));
    assertThat(SchemaInference.inferSchema(value).findType("d.element"))
        .isEqualTo(Types.DecimalType.of(38, 3));
  }

  @Test
  void mixedTypesInAListAreAConflictEvenLongAndDouble() {
    assertThatThrownBy(() -> SchemaInference.inferSchema(map("xs", List.of(1L, 2.5d))))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("xs[]");
              assertThat(e.getMessage()).contains("long").contains("double").doesNotContain("2.5");
            });
    assertThatThrownBy(
            () ->
                SchemaInference.inferSchema(
                    map("xs", List.of(map("a", 1L), map("a", "secret-text")))))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("xs[].a");
              assertThat(e.getMessage()).doesNotContain("secret-text");
            });
  }

  @Test
  void rejectsWhatHasNoColumnType() {
    assertThatThrownBy(() -> SchemaInference.inferSchema("just a string"))
        .isInstanceOf(ConversionException.class);
    assertThatThrownBy(() -> SchemaInference.inferSchema(map("a", null)))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("typed field");
    Map<Object, Object> intKeys = new HashMap<>();
    intKeys.put(1, "x");
    assertThatThrownBy(() -> SchemaInference.inferSchema(map("m", intKeys)))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo("m"));
    assertThatThrownBy(() -> SchemaInference.inferSchema(map("when", new java.util.Date())))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo("when"));
    assertThatThrownBy(
            () -> SchemaInference.inferSchema(map("d", new BigDecimal("1e40").add(BigDecimal.ONE))))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("38 digits");
    assertThatThrownBy(() -> SchemaInference.inferSchema(map("d", new BigDecimal("1E+2147483647"))))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("38 digits");
    assertThat(SchemaInference.inferSchema(map("d", new BigDecimal("0E+5"))).findType("d"))
        .isEqualTo(Types.DecimalType.of(38, 0));
  }

  @Test
  void infersTwoHundredLevelsAndRejectsBeyondTheLimit() {
    org.apache.iceberg.Schema schema = SchemaInference.inferSchema(Deep.map(200));
    assertThat(schema.highestFieldId()).isEqualTo(399);
    assertThatThrownBy(() -> SchemaInference.inferSchema(Deep.map(ConnectSchemas.MAX_DEPTH + 1)))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("too deep");
  }

  @Test
  void infersSingleValueTypes() {
    assertThat(SchemaInference.inferType(List.of(1)))
        .isEqualTo(Types.ListType.ofOptional(1, Types.LongType.get()));
    assertThat(SchemaInference.inferType(null)).isNull();
  }
}
