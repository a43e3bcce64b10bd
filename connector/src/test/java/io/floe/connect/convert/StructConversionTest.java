/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class StructConversionTest {
  private static final ConvertOptions DEFAULTS = ConvertOptions.defaults();

  private static final Schema ADDRESS =
      SchemaBuilder.struct()
          .field("street", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema CUSTOMER =
      SchemaBuilder.struct()
          .field("name", Schema.STRING_SCHEMA)
          .field("addresses", SchemaBuilder.array(ADDRESS).build())
          .optional()
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("customer", CUSTOMER)
          .field(
              "quantities",
              SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA).build())
          .build();

  private static Struct order(String zip) {
    Struct address = new Struct(ADDRESS).put("street", "Main St").put("zip", zip);
    Struct customer =
        new Struct(CUSTOMER).put("name", "Ada").put("addresses", List.of(address, address));
    Map<Integer, Long> quantities = new LinkedHashMap<>();
    quantities.put(1, 10L);
    quantities.put(2, null);
    return new Struct(ORDER).put("id", 7L).put("customer", customer).put("quantities", quantities);
  }

  @Test
  void convertsNestedStructsListsOfStructsAndMapsWithIntKeys() {
    org.apache.iceberg.Schema table = ConnectSchemas.toIcebergSchema(ORDER, DEFAULTS);
    Record row = RecordConverters.forSchema(ORDER, table, DEFAULTS).convert(order("10115"));

    assertThat(row.getField("id")).isEqualTo(7L);
    Record customer = (Record) row.getField("customer");
    assertThat(customer.getField("name")).isEqualTo("Ada");
    List<?> addresses = (List<?>) customer.getField("addresses");
    assertThat(addresses).hasSize(2);
    assertThat(((Record) addresses.get(1)).getField("zip")).isEqualTo("10115");
    Map<?, ?> quantities = (Map<?, ?>) row.getField("quantities");
    assertThat(List.copyOf(quantities.keySet())).isEqualTo(List.of(1, 2));
    assertThat(quantities.get(1)).isEqualTo(10L);
    assertThat(quantities.get(2)).isNull();
    assertThat(quantities.keySet()).allMatch(Integer.class::isInstance);
  }

  @Test
  void errorDeepInsideAListOfStructsNamesTheFullPath() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(
                2,
                "customer",
                Types.StructType.of(
                    Types.NestedField.optional(
                        3,
                        "addresses",
                        Types.ListType.ofOptional(
                            4,
                            Types.StructType.of(
                                Types.NestedField.optional(5, "zip", Types.IntegerType.get())))))));
    RecordConverter converter = RecordConverters.forSchema(ORDER, table, DEFAULTS);

    assertThatThrownBy(() -> converter.convert(order("SW1A-2AA")))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("customer.addresses[].zip");
              assertThat(e.expectedType()).isEqualTo("int");
              assertThat(e.actualType()).contains("STRING").contains("java.lang.String");
              assertThat(e.getMessage()).doesNotContain("SW1A-2AA");
            });
    // A record whose zip is null has nothing to convert there
    assertThat(converter.convert(order(null)).getField("id")).isEqualTo(7L);
  }

  @Test
  void tableColumnsMissingFromTheRecordAreNullAndRecordFieldsMissingFromTheTableAreListed() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "added_later", Types.StringType.get()),
            Types.NestedField.optional(
                3,
                "customer",
                Types.StructType.of(
                    Types.NestedField.optional(4, "name", Types.StringType.get()),
                    Types.NestedField.optional(
                        5,
                        "addresses",
                        Types.ListType.ofOptional(
                            6,
                            Types.StructType.of(
                                Types.NestedField.optional(
                                    7, "street", Types.StringType.get())))))));
    RecordConverter converter = RecordConverters.forSchema(ORDER, table, DEFAULTS);

    Record row = converter.convert(order("10115"));
    assertThat(row.getField("added_later")).isNull();
    assertThat(row.size()).isEqualTo(3);
    assertThat(converter.absentFromTable(null))
        .extracting(AbsentField::path, AbsentField::parent, AbsentField::name)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "customer.addresses[].zip", "customer.addresses.element", "zip"),
            org.assertj.core.groups.Tuple.tuple("quantities", null, "quantities"));
    assertThat(converter.absentFromTable(null).get(1).type())
        .isEqualTo(Types.MapType.ofOptional(1, 2, Types.IntegerType.get(), Types.LongType.get()));
  }

  @Test
  void absentFieldsAreWhatUpdateSchemaNeedsToEvolveTheTable() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    org.apache.iceberg.Schema initial =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(
                2,
                "customer",
                Types.StructType.of(
                    Types.NestedField.optional(
                        3,
                        "addresses",
                        Types.ListType.ofOptional(
                            4,
                            Types.StructType.of(
                                Types.NestedField.optional(
                                    5, "street", Types.StringType.get())))))));
    Table table = catalog.createTable(TableIdentifier.of("db", "orders"), initial);

    List<AbsentField> absent =
        RecordConverters.forSchema(ORDER, table.schema(), DEFAULTS).absentFromTable(null);
    UpdateSchema update = table.updateSchema();
    for (AbsentField field : absent) {
      if (field.parent() == null) {
        update.addColumn(field.name(), field.type(), field.doc());
      } else {
        update.addColumn(field.parent(), field.name(), field.type(), field.doc());
      }
    }
    update.commit();
    table.refresh();

    RecordConverter evolved = RecordConverters.forSchema(ORDER, table.schema(), DEFAULTS);
    assertThat(evolved.absentFromTable(null)).isEmpty();
    Record row = evolved.convert(order("10115"));
    Record customer = (Record) row.getField("customer");
    assertThat(((Record) ((List<?>) customer.getField("addresses")).get(0)).getField("zip"))
        .isEqualTo("10115");
    assertThat(((Map<?, ?>) row.getField("quantities")).get(1)).isEqualTo(10L);
  }

  @Test
  void requiredColumnMissingFromTheRecordSchemaIsAnError() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "tenant", Types.StringType.get()));
    RecordConverter converter = RecordConverters.forSchema(ORDER, table, DEFAULTS);
    assertThatThrownBy(() -> converter.convert(order("1")))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("tenant");
              assertThat(e.getMessage()).contains("no such field");
            });
  }

  @Test
  void nullIntoARequiredColumnIsAnErrorAndIntoAnOptionalOneIsNull() {
    Schema record = Fixtures.record(Schema.OPTIONAL_INT32_SCHEMA);
    org.apache.iceberg.Schema required =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, Fixtures.FIELD, Types.IntegerType.get()));
    assertThatThrownBy(
            () ->
                RecordConverters.forSchema(record, required, DEFAULTS).convert(new Struct(record)))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo(Fixtures.FIELD));
    org.apache.iceberg.Schema optional = Fixtures.table(Types.IntegerType.get());
    assertThat(
            RecordConverters.forSchema(record, optional, DEFAULTS)
                .convert(new Struct(record))
                .get(0))
        .isNull();
  }

  @Test
  void nullElementsKeysAndValuesAreCheckedAgainstTheColumn() {
    Schema list = SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build();
    Types.ListType requiredElements = Types.ListType.ofRequired(2, Types.StringType.get());
    assertThatThrownBy(
            () -> Fixtures.convert(list, Arrays.asList("a", null), requiredElements, DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo("f[]"));
    assertThat(
            Fixtures.convert(
                list,
                Arrays.asList("a", null),
                Types.ListType.ofOptional(2, Types.StringType.get()),
                DEFAULTS))
        .isEqualTo(Arrays.asList("a", null));

    Schema map =
        SchemaBuilder.map(Schema.OPTIONAL_STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .build();
    Map<String, String> nullKey = new HashMap<>();
    nullKey.put(null, "v");
    Types.MapType optionalValues =
        Types.MapType.ofOptional(2, 3, Types.StringType.get(), Types.StringType.get());
    assertThatThrownBy(() -> Fixtures.convert(map, nullKey, optionalValues, DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo("f{key}"));
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("k", null);
    assertThatThrownBy(
            () ->
                Fixtures.convert(
                    map,
                    nullValue,
                    Types.MapType.ofRequired(2, 3, Types.StringType.get(), Types.StringType.get()),
                    DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo("f{value}"));
  }

  @Test
  void mapKeysThatCollideAfterConversionAreAnError() {
    Schema map = SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).optional().build();
    Map<String, Integer> keys = new LinkedHashMap<>();
    keys.put("6f1c1f4e-8a2b-4c3d-9e0f-123456789abc", 1);
    keys.put("6F1C1F4E-8A2B-4C3D-9E0F-123456789ABC", 2);
    Types.MapType uuidKeys =
        Types.MapType.ofOptional(2, 3, Types.UUIDType.get(), Types.IntegerType.get());
    assertThatThrownBy(() -> Fixtures.convert(map, keys, uuidKeys, DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo("f{key}");
              assertThat(e.getMessage()).doesNotContainIgnoringCase("6f1c1f4e");
            });
  }

  @Test
  void nullFieldWithASchemaDefaultGetsTheDefaultAsInConnect() {
    Schema record =
        SchemaBuilder.struct()
            .field(Fixtures.FIELD, SchemaBuilder.int32().optional().defaultValue(5).build())
            .build();
    Record row =
        RecordConverters.forSchema(record, Fixtures.table(Types.IntegerType.get()), DEFAULTS)
            .convert(new Struct(record));
    assertThat(row.get(0)).isEqualTo(5);
  }

  @Test
  void convertsTwoHundredLevelsOfNesting() {
    Schema schema = Deep.schema(200);
    org.apache.iceberg.Schema table = ConnectSchemas.toIcebergSchema(schema, DEFAULTS);
    Record row = RecordConverters.forSchema(schema, table, DEFAULTS).convert(Deep.value(schema));

    int levels = 1;
    Record level = row;
    while (level.getField("child") != null) {
      level = (Record) level.getField("child");
      levels++;
    }
    assertThat(levels).isEqualTo(200);
    assertThat(level.getField("v")).isEqualTo(200);
  }

  @Test
  void fiftyMegabyteStringIsPassedOnWithoutCopying() {
    String big = "x".repeat(50 * 1024 * 1024);
    Object converted =
        Fixtures.convert(Schema.OPTIONAL_STRING_SCHEMA, big, Types.StringType.get(), DEFAULTS);
    assertThat(converted).isSameAs(big);
  }

  @Test
  void bytesAreWrappedWithoutCopying() {
    byte[] bytes = new byte[1024];
    java.nio.ByteBuffer converted =
        (java.nio.ByteBuffer)
            Fixtures.convert(Schema.OPTIONAL_BYTES_SCHEMA, bytes, Types.BinaryType.get(), DEFAULTS);
    assertThat(converted.array()).isSameAs(bytes);
  }

  @Test
  void rejectsTombstonesAndValuesOfAnotherSchema() {
    org.apache.iceberg.Schema table = ConnectSchemas.toIcebergSchema(ORDER, DEFAULTS);
    RecordConverter converter = RecordConverters.forSchema(ORDER, table, DEFAULTS);
    assertThatThrownBy(() -> converter.convert(null))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> assertThat(e.path()).isEqualTo(ConversionException.ROOT));
    Schema other = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    assertThatThrownBy(() -> converter.convert(new Struct(other).put("id", 1L)))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("differs");
    assertThatThrownBy(() -> converter.convert(Map.of("id", 1L)))
        .isInstanceOf(ConversionException.class);
  }

  @Test
  void valueWithAnEqualButDistinctSchemaObjectConverts() {
    org.apache.iceberg.Schema table = ConnectSchemas.toIcebergSchema(ORDER, DEFAULTS);
    RecordConverter converter = RecordConverters.forSchema(ORDER, table, DEFAULTS);
    Schema copy = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Schema orderCopy =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("customer", CUSTOMER)
            .field("quantities", ORDER.field("quantities").schema())
            .build();
    assertThat(copy).isNotEqualTo(ORDER);
    Struct value =
        new Struct(orderCopy).put("id", 9L).put("customer", null).put("quantities", Map.of(3, 4L));
    assertThat(converter.convert(value).getField("id")).isEqualTo(9L);
  }

  @Test
  void misdeclaredLogicalTypeFailsAtCompileTime() {
    Schema record =
        Fixtures.record(SchemaBuilder.int32().name(SourceKind.DBZ_NANO_TIMESTAMP).build());
    assertThatThrownBy(
            () ->
                RecordConverters.forSchema(
                    record, Fixtures.table(Types.TimestampType.withZone()), DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.path()).isEqualTo(Fixtures.FIELD));
  }

  @Test
  void caseInsensitiveMatchingFillsColumnsWhoseNameDiffersInCaseOnly() {
    Schema record =
        SchemaBuilder.struct()
            .field("OrderId", Schema.INT64_SCHEMA)
            .field("Customer", SchemaBuilder.struct().field("ZIP", Schema.STRING_SCHEMA).build())
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .field("NOTE", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "orderid", Types.LongType.get()),
            Types.NestedField.optional(
                2,
                "customer",
                Types.StructType.of(Types.NestedField.optional(3, "zip", Types.StringType.get()))),
            Types.NestedField.optional(4, "note", Types.StringType.get()));
    Struct value =
        new Struct(record)
            .put("OrderId", 7L)
            .put("Customer", new Struct(record.field("Customer").schema()).put("ZIP", "10115"))
            .put("note", "exact")
            .put("NOTE", "other case");

    assertThatThrownBy(() -> RecordConverters.forSchema(record, table, DEFAULTS).convert(value))
        .hasMessageContaining("orderid");

    RecordConverter converter =
        RecordConverters.forSchema(record, table, DEFAULTS.withCaseInsensitive(true));
    Record row = converter.convert(value);
    assertThat(row.getField("orderid")).isEqualTo(7L);
    assertThat(((Record) row.getField("customer")).getField("zip")).isEqualTo("10115");
    assertThat(row.getField("note")).as("an exact match wins").isEqualTo("exact");
    assertThat(converter.absentFromTable(value)).isEmpty();
  }
}
