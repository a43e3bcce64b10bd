/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConnectSchemasTest {
  private static final ConvertOptions DEFAULTS = ConvertOptions.defaults();

  private static Schema named(SchemaBuilder builder, String name) {
    return builder.name(name).build();
  }

  static Stream<Arguments> mappings() {
    ConvertOptions zoneless = DEFAULTS.withTimestampsWithZone(false);
    ConvertOptions asTime = DEFAULTS.withTimeOfDayType(TimeOfDayType.TIME);
    Type micros = Types.LongType.get();
    Type tstz = Types.TimestampType.withZone();
    Type ts = Types.TimestampType.withoutZone();
    return Stream.of(
        arguments("INT8", Schema.INT8_SCHEMA, DEFAULTS, Types.IntegerType.get()),
        arguments("INT16", Schema.INT16_SCHEMA, DEFAULTS, Types.IntegerType.get()),
        arguments("INT32", Schema.INT32_SCHEMA, DEFAULTS, Types.IntegerType.get()),
        arguments("INT64", Schema.INT64_SCHEMA, DEFAULTS, Types.LongType.get()),
        arguments("FLOAT32", Schema.FLOAT32_SCHEMA, DEFAULTS, Types.FloatType.get()),
        arguments("FLOAT64", Schema.FLOAT64_SCHEMA, DEFAULTS, Types.DoubleType.get()),
        arguments("BOOLEAN", Schema.BOOLEAN_SCHEMA, DEFAULTS, Types.BooleanType.get()),
        arguments("STRING", Schema.STRING_SCHEMA, DEFAULTS, Types.StringType.get()),
        arguments("BYTES", Schema.BYTES_SCHEMA, DEFAULTS, Types.BinaryType.get()),
        arguments(
            "Decimal without precision → 38",
            Decimal.schema(4),
            DEFAULTS,
            Types.DecimalType.of(38, 4)),
        arguments(
            "Decimal with precision parameter",
            Decimal.builder(2).parameter(Decimals.PRECISION_PARAMETER, "10").build(),
            DEFAULTS,
            Types.DecimalType.of(10, 2)),
        arguments("Date", Date.SCHEMA, DEFAULTS, Types.DateType.get()),
        arguments("Time → microseconds", Time.SCHEMA, DEFAULTS, micros),
        arguments("Time, time option", Time.SCHEMA, asTime, Types.TimeType.get()),
        arguments("Timestamp", Timestamp.SCHEMA, DEFAULTS, tstz),
        arguments("Timestamp, zone-less option", Timestamp.SCHEMA, zoneless, ts),
        arguments(
            "Debezium Date",
            named(SchemaBuilder.int32(), SourceKind.DBZ_DATE),
            DEFAULTS,
            Types.DateType.get()),
        arguments(
            "Debezium Time → microseconds",
            named(SchemaBuilder.int32(), SourceKind.DBZ_TIME),
            DEFAULTS,
            micros),
        arguments(
            "Debezium Time, time option",
            named(SchemaBuilder.int32(), SourceKind.DBZ_TIME),
            asTime,
            Types.TimeType.get()),
        arguments(
            "Debezium MicroTime → microseconds",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIME),
            DEFAULTS,
            micros),
        arguments(
            "Debezium MicroTime, time option",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIME),
            asTime,
            Types.TimeType.get()),
        arguments(
            "Debezium NanoTime → microseconds",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIME),
            DEFAULTS,
            micros),
        arguments(
            "Debezium NanoTime, time option",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIME),
            asTime,
            Types.TimeType.get()),
        arguments(
            "Debezium Timestamp",
            named(SchemaBuilder.int64(), SourceKind.DBZ_TIMESTAMP),
            DEFAULTS,
            tstz),
        arguments(
            "Debezium Timestamp, zone-less option",
            named(SchemaBuilder.int64(), SourceKind.DBZ_TIMESTAMP),
            zoneless,
            ts),
        arguments(
            "Debezium MicroTimestamp",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIMESTAMP),
            DEFAULTS,
            tstz),
        arguments(
            "Debezium MicroTimestamp, zone-less option",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIMESTAMP),
            zoneless,
            ts),
        arguments(
            "Debezium NanoTimestamp, zone-less option",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIMESTAMP),
            zoneless,
            ts),
        arguments(
            "Debezium ZonedTimestamp is always timestamptz",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIMESTAMP),
            zoneless,
            tstz),
        arguments(
            "Debezium ZonedTime stays text",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIME),
            DEFAULTS,
            Types.StringType.get()),
        arguments(
            "Debezium Uuid",
            named(SchemaBuilder.string(), ConvertOptions.DEBEZIUM_UUID),
            DEFAULTS,
            Types.UUIDType.get()),
        arguments(
            "Debezium Uuid as text when not configured",
            named(SchemaBuilder.string(), ConvertOptions.DEBEZIUM_UUID),
            DEFAULTS.withUuidSchemaNames(Set.of()),
            Types.StringType.get()),
        arguments(
            "configured UUID name",
            named(SchemaBuilder.string(), "com.example.Uuid"),
            DEFAULTS.withUuidSchemaNames(Set.of("com.example.Uuid")),
            Types.UUIDType.get()),
        arguments(
            "VariableScaleDecimal with a configured scale",
            SchemaBuilder.struct()
                .name(SourceKind.DBZ_VARIABLE_SCALE_DECIMAL)
                .field("scale", Schema.INT32_SCHEMA)
                .field("value", Schema.BYTES_SCHEMA)
                .build(),
            DEFAULTS.withVariableScaleDecimalScale(6),
            Types.DecimalType.of(38, 6)),
        arguments(
            "unknown logical name keeps the physical type",
            named(SchemaBuilder.int64(), "io.debezium.time.MicroDuration"),
            DEFAULTS,
            Types.LongType.get()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mappings")
  void mapsConnectTypeToIcebergType(String name, Schema field, ConvertOptions options, Type type) {
    org.apache.iceberg.Schema schema =
        ConnectSchemas.toIcebergSchema(Fixtures.record(field), options);
    assertThat(schema.findType(Fixtures.FIELD)).isEqualTo(type);
  }

  @Test
  void mapsStructsListsAndMapsWithOptionalityDocsAndFreshIds() {
    Schema address =
        SchemaBuilder.struct()
            .field("zip", SchemaBuilder.string().doc("postal code").build())
            .field("lines", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).build())
            .optional()
            .build();
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("addresses", SchemaBuilder.array(address).optional().build())
            .field("scores", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.FLOAT64_SCHEMA).build())
            .field("note", SchemaBuilder.string().optional().doc("free text").build())
            .build();

    org.apache.iceberg.Schema schema = ConnectSchemas.toIcebergSchema(record, DEFAULTS);

    org.apache.iceberg.Schema expected =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(
                2,
                "addresses",
                Types.ListType.ofOptional(
                    5,
                    Types.StructType.of(
                        Types.NestedField.required(6, "zip", Types.StringType.get(), "postal code"),
                        Types.NestedField.required(
                            7, "lines", Types.ListType.ofOptional(8, Types.StringType.get()))))),
            Types.NestedField.required(
                3,
                "scores",
                Types.MapType.ofRequired(9, 10, Types.IntegerType.get(), Types.DoubleType.get())),
            Types.NestedField.optional(4, "note", Types.StringType.get(), "free text"));
    assertThat(schema.sameSchema(expected)).as(schema.toString()).isTrue();
    assertThat(schema.findField("addresses.element.zip").doc()).isEqualTo("postal code");
  }

  @Test
  void equalConnectSchemasMapToEqualIcebergSchemas() {
    Schema first = SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).build();
    Schema second = SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).build();
    assertThat(ConnectSchemas.toIcebergSchema(first, DEFAULTS).asStruct())
        .isEqualTo(ConnectSchemas.toIcebergSchema(second, DEFAULTS).asStruct());
  }

  static Stream<Arguments> unmappable() {
    return Stream.of(
        arguments(
            "VariableScaleDecimal without a configured scale",
            SchemaBuilder.struct()
                .name(SourceKind.DBZ_VARIABLE_SCALE_DECIMAL)
                .field("scale", Schema.INT32_SCHEMA)
                .field("value", Schema.BYTES_SCHEMA)
                .build(),
            "VariableScaleDecimal"),
        arguments(
            "MicroTimestamp on INT32",
            named(SchemaBuilder.int32(), SourceKind.DBZ_MICRO_TIMESTAMP),
            "INT64"),
        arguments(
            "Decimal precision above 38",
            Decimal.builder(2).parameter(Decimals.PRECISION_PARAMETER, "39").build(),
            "precision"),
        arguments(
            "Decimal scale above precision",
            Decimal.builder(6).parameter(Decimals.PRECISION_PARAMETER, "5").build(),
            "scale"),
        arguments(
            "Decimal with a non-numeric precision",
            Decimal.builder(2).parameter(Decimals.PRECISION_PARAMETER, "ten").build(),
            "connect.decimal.precision"),
        arguments("empty nested struct", SchemaBuilder.struct().build(), "empty struct"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unmappable")
  void rejectsUnmappableSchemaNamingTheField(String name, Schema field, String detail) {
    assertThatThrownBy(() -> ConnectSchemas.toIcebergSchema(Fixtures.record(field), DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo(Fixtures.FIELD);
              assertThat(e.getMessage()).contains(detail);
            });
  }

  @Test
  void rejectsNonStructRecordSchema() {
    assertThatThrownBy(() -> ConnectSchemas.toIcebergSchema(Schema.STRING_SCHEMA, DEFAULTS))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("STRUCT");
    assertThatThrownBy(() -> ConnectSchemas.toIcebergSchema(null, DEFAULTS))
        .isInstanceOf(ConversionException.class);
  }

  @Test
  void mapsDeepNestingUpToTheLimit() {
    // 200 levels: 200 'v' fields and 199 'child' fields
    assertThat(ConnectSchemas.toIcebergSchema(Deep.schema(200), DEFAULTS).highestFieldId())
        .isEqualTo(399);
    assertThat(ConnectSchemas.toIcebergSchema(Deep.schema(ConnectSchemas.MAX_DEPTH), DEFAULTS))
        .isNotNull();
    assertThatThrownBy(
            () ->
                ConnectSchemas.toIcebergSchema(Deep.schema(ConnectSchemas.MAX_DEPTH + 1), DEFAULTS))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("too deep");
  }

  @Test
  void forceOptionalMakesEveryColumnElementAndValueOptional() {
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("address", SchemaBuilder.struct().field("zip", Schema.STRING_SCHEMA).build())
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .field("scores", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build())
            .build();

    org.apache.iceberg.Schema asDeclared = ConnectSchemas.toIcebergSchema(record, DEFAULTS);
    assertThat(asDeclared.findField("id").isRequired()).isTrue();
    assertThat(asDeclared.findField("address.zip").isRequired()).isTrue();

    org.apache.iceberg.Schema forced =
        ConnectSchemas.toIcebergSchema(record, DEFAULTS.withForceOptional(true));
    for (String column : List.of("id", "address", "address.zip", "tags", "scores")) {
      assertThat(forced.findField(column).isOptional()).as(column).isTrue();
    }
    assertThat(forced.findField("tags").type().asListType().isElementOptional()).isTrue();
    assertThat(forced.findField("scores").type().asMapType().isValueOptional()).isTrue();
  }
}
