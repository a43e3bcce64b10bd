/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every (source, column type) pair of the type mapping: a valid value converts to the exact Iceberg
 * value, an invalid one fails with the field path and without showing the value.
 */
class ValueConversionMatrixTest {
  private static final ConvertOptions DEFAULTS = ConvertOptions.defaults();
  private static final Type INT = Types.IntegerType.get();
  private static final Type LONG = Types.LongType.get();
  private static final Type FLOAT = Types.FloatType.get();
  private static final Type DOUBLE = Types.DoubleType.get();
  private static final Type STRING = Types.StringType.get();
  private static final Type DATE = Types.DateType.get();
  private static final Type TIME = Types.TimeType.get();
  private static final Type TSTZ = Types.TimestampType.withZone();
  private static final Type TS = Types.TimestampType.withoutZone();
  private static final Type TSTZ_NS = Types.TimestampNanoType.withZone();
  private static final Type TS_NS = Types.TimestampNanoType.withoutZone();
  private static final Type UUID_TYPE = Types.UUIDType.get();
  private static final Type BINARY = Types.BinaryType.get();
  private static final UUID A_UUID = UUID.fromString("6f1c1f4e-8a2b-4c3d-9e0f-123456789abc");

  private static Schema named(SchemaBuilder builder, String name) {
    return builder.name(name).optional().build();
  }

  private static Schema decimal(int scale) {
    return Decimal.builder(scale).optional().build();
  }

  private static Schema variableScaleDecimal() {
    return SchemaBuilder.struct()
        .name(SourceKind.DBZ_VARIABLE_SCALE_DECIMAL)
        .field("scale", Schema.INT32_SCHEMA)
        .field("value", Schema.BYTES_SCHEMA)
        .optional()
        .build();
  }

  private static Struct variableScaleDecimalValue(String unscaled, int scale) {
    return new Struct(variableScaleDecimal())
        .put("scale", scale)
        .put("value", new BigInteger(unscaled).toByteArray());
  }

  static Stream<Arguments> validWithSchema() {
    ConvertOptions rounding = DEFAULTS.withDecimalRounding(RoundingMode.HALF_UP);
    ConvertOptions parsing = DEFAULTS.withParseNumericStrings(true);
    ConvertOptions paris = DEFAULTS.withZoneForLocalTimestamps(ZoneId.of("Europe/Paris"));
    byte[] sixteen = new byte[16];
    sixteen[15] = 7;
    return Stream.of(
        arguments("INT8 → int", Schema.OPTIONAL_INT8_SCHEMA, (byte) 7, INT, DEFAULTS, 7),
        arguments("INT16 → int", Schema.OPTIONAL_INT16_SCHEMA, (short) -7, INT, DEFAULTS, -7),
        arguments("INT32 → int", Schema.OPTIONAL_INT32_SCHEMA, 70_000, INT, DEFAULTS, 70_000),
        arguments("INT64 in range → int", Schema.OPTIONAL_INT64_SCHEMA, 42L, INT, DEFAULTS, 42),
        arguments("INT32 → long", Schema.OPTIONAL_INT32_SCHEMA, 5, LONG, DEFAULTS, 5L),
        arguments("INT64 → long", Schema.OPTIONAL_INT64_SCHEMA, 1L << 40, LONG, DEFAULTS, 1L << 40),
        arguments("FLOAT32 → float", Schema.OPTIONAL_FLOAT32_SCHEMA, 1.5f, FLOAT, DEFAULTS, 1.5f),
        arguments("FLOAT32 → double", Schema.OPTIONAL_FLOAT32_SCHEMA, 1.5f, DOUBLE, DEFAULTS, 1.5d),
        arguments("FLOAT64 → double", Schema.OPTIONAL_FLOAT64_SCHEMA, 0.1d, DOUBLE, DEFAULTS, 0.1d),
        arguments(
            "FLOAT64 NaN kept",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            Double.NaN,
            DOUBLE,
            DEFAULTS,
            Double.NaN),
        arguments(
            "FLOAT64 -Infinity kept",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            Double.NEGATIVE_INFINITY,
            DOUBLE,
            DEFAULTS,
            Double.NEGATIVE_INFINITY),
        arguments(
            "FLOAT32 Infinity kept",
            Schema.OPTIONAL_FLOAT32_SCHEMA,
            Float.POSITIVE_INFINITY,
            FLOAT,
            DEFAULTS,
            Float.POSITIVE_INFINITY),
        arguments(
            "FLOAT64 exact → float", Schema.OPTIONAL_FLOAT64_SCHEMA, 0.5d, FLOAT, DEFAULTS, 0.5f),
        arguments("INT32 → double", Schema.OPTIONAL_INT32_SCHEMA, 3, DOUBLE, DEFAULTS, 3.0d),
        arguments(
            "INT64 2^53 → double",
            Schema.OPTIONAL_INT64_SCHEMA,
            1L << 53,
            DOUBLE,
            DEFAULTS,
            (double) (1L << 53)),
        arguments(
            "BOOLEAN",
            Schema.OPTIONAL_BOOLEAN_SCHEMA,
            true,
            Types.BooleanType.get(),
            DEFAULTS,
            true),
        arguments("STRING", Schema.OPTIONAL_STRING_SCHEMA, "héllo", STRING, DEFAULTS, "héllo"),
        arguments(
            "BYTES byte[] → binary",
            Schema.OPTIONAL_BYTES_SCHEMA,
            new byte[] {1, 2},
            BINARY,
            DEFAULTS,
            ByteBuffer.wrap(new byte[] {1, 2})),
        arguments(
            "BYTES ByteBuffer → binary",
            Schema.OPTIONAL_BYTES_SCHEMA,
            ByteBuffer.wrap(new byte[] {3}),
            BINARY,
            DEFAULTS,
            ByteBuffer.wrap(new byte[] {3})),
        arguments(
            "BYTES → fixed(16)",
            Schema.OPTIONAL_BYTES_SCHEMA,
            sixteen,
            Types.FixedType.ofLength(16),
            DEFAULTS,
            sixteen),
        arguments(
            "BYTES 16 → uuid",
            Schema.OPTIONAL_BYTES_SCHEMA,
            sixteen,
            UUID_TYPE,
            DEFAULTS,
            new UUID(0, 7)),
        arguments(
            "Decimal same scale",
            decimal(2),
            new BigDecimal("12.34"),
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            new BigDecimal("12.34")),
        arguments(
            "Decimal rounded when enabled",
            decimal(3),
            new BigDecimal("1.235"),
            Types.DecimalType.of(10, 2),
            rounding,
            new BigDecimal("1.24")),
        arguments(
            "Decimal into wider precision",
            decimal(2),
            new BigDecimal("-99.99"),
            Types.DecimalType.of(38, 2),
            DEFAULTS,
            new BigDecimal("-99.99")),
        arguments(
            "INT64 → decimal",
            Schema.OPTIONAL_INT64_SCHEMA,
            5L,
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            new BigDecimal("5.00")),
        arguments(
            "VariableScaleDecimal → decimal, exact rescale",
            variableScaleDecimal(),
            variableScaleDecimalValue("12345", 2),
            Types.DecimalType.of(38, 4),
            DEFAULTS,
            new BigDecimal("123.4500")),
        arguments(
            "Connect Date",
            Date.builder().optional().build(),
            new java.util.Date(19_000L * 86_400_000L),
            DATE,
            DEFAULTS,
            LocalDate.ofEpochDay(19_000)),
        arguments(
            "Connect Date before 1970",
            Date.builder().optional().build(),
            new java.util.Date(-2L * 86_400_000L),
            DATE,
            DEFAULTS,
            LocalDate.of(1969, 12, 30)),
        arguments(
            "Connect Time",
            Time.builder().optional().build(),
            new java.util.Date(3_723_004L),
            TIME,
            DEFAULTS,
            LocalTime.of(1, 2, 3, 4_000_000)),
        arguments(
            "Connect Timestamp → timestamptz",
            Timestamp.builder().optional().build(),
            new java.util.Date(1_700_000_000_123L),
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000, ZoneOffset.UTC)),
        arguments(
            "Connect Timestamp → timestamp",
            Timestamp.builder().optional().build(),
            new java.util.Date(1_700_000_000_123L),
            TS,
            DEFAULTS,
            LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000)),
        arguments(
            "Debezium Date",
            named(SchemaBuilder.int32(), SourceKind.DBZ_DATE),
            19_000,
            DATE,
            DEFAULTS,
            LocalDate.ofEpochDay(19_000)),
        arguments(
            "Debezium Time (millis)",
            named(SchemaBuilder.int32(), SourceKind.DBZ_TIME),
            3_723_004,
            TIME,
            DEFAULTS,
            LocalTime.of(1, 2, 3, 4_000_000)),
        arguments(
            "Debezium MicroTime",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIME),
            3_723_000_005L,
            TIME,
            DEFAULTS,
            LocalTime.of(1, 2, 3, 5_000)),
        arguments(
            "Debezium NanoTime truncated to micros",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIME),
            123_456_789L,
            TIME,
            DEFAULTS,
            LocalTime.of(0, 0, 0, 123_456_000)),
        arguments(
            "Debezium Timestamp (millis) → timestamptz",
            named(SchemaBuilder.int64(), SourceKind.DBZ_TIMESTAMP),
            1_700_000_000_123L,
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000, ZoneOffset.UTC)),
        arguments(
            "Debezium Timestamp (millis) → timestamp",
            named(SchemaBuilder.int64(), SourceKind.DBZ_TIMESTAMP),
            1_700_000_000_123L,
            TS,
            DEFAULTS,
            LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000)),
        arguments(
            "Debezium MicroTimestamp",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIMESTAMP),
            1_700_000_000_123_456L,
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_000, ZoneOffset.UTC)),
        arguments(
            "Debezium NanoTimestamp truncated to micros",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIMESTAMP),
            1_700_000_000_123_456_789L,
            TS,
            DEFAULTS,
            LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_000)),
        arguments(
            "Debezium NanoTimestamp before 1970 truncates towards the past",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIMESTAMP),
            -1L,
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC)),
        arguments(
            "Debezium NanoTimestamp → timestamp_ns keeps nanos",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIMESTAMP),
            1_700_000_000_123_456_789L,
            TSTZ_NS,
            DEFAULTS,
            OffsetDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_789, ZoneOffset.UTC)),
        arguments(
            "Debezium MicroTimestamp → timestamp_ns",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIMESTAMP),
            1_700_000_000_123_456L,
            TS_NS,
            DEFAULTS,
            LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_000)),
        arguments(
            "Debezium ZonedTimestamp normalized to UTC",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIMESTAMP),
            "2024-03-05T10:11:12.123456789+02:00",
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(2024, 3, 5, 8, 11, 12, 123_456_000, ZoneOffset.UTC)),
        arguments(
            "Debezium ZonedTimestamp with Z",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIMESTAMP),
            "2024-03-05T10:11:12Z",
            TSTZ,
            DEFAULTS,
            OffsetDateTime.of(2024, 3, 5, 10, 11, 12, 0, ZoneOffset.UTC)),
        arguments(
            "Debezium ZonedTime kept as text",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIME),
            "10:11:12+02:00",
            STRING,
            DEFAULTS,
            "10:11:12+02:00"),
        arguments(
            "Debezium Uuid → uuid",
            named(SchemaBuilder.string(), ConvertOptions.DEBEZIUM_UUID),
            A_UUID.toString(),
            UUID_TYPE,
            DEFAULTS,
            A_UUID),
        arguments(
            "upper-case UUID string → uuid",
            Schema.OPTIONAL_STRING_SCHEMA,
            A_UUID.toString().toUpperCase(java.util.Locale.ROOT),
            UUID_TYPE,
            DEFAULTS,
            A_UUID),
        arguments(
            "ISO date string → date",
            Schema.OPTIONAL_STRING_SCHEMA,
            "2024-02-29",
            DATE,
            DEFAULTS,
            LocalDate.of(2024, 2, 29)),
        arguments(
            "ISO time string → time",
            Schema.OPTIONAL_STRING_SCHEMA,
            "23:59:59.9999999",
            TIME,
            DEFAULTS,
            LocalTime.of(23, 59, 59, 999_999_000)),
        arguments(
            "ISO local string → timestamp",
            Schema.OPTIONAL_STRING_SCHEMA,
            "2024-03-05T10:11:12.5",
            TS,
            DEFAULTS,
            LocalDateTime.of(2024, 3, 5, 10, 11, 12, 500_000_000)),
        arguments(
            "zone-less string → timestamptz with a zone for local timestamps",
            Schema.OPTIONAL_STRING_SCHEMA,
            "2024-07-01T12:00:00",
            TSTZ,
            paris,
            OffsetDateTime.of(2024, 7, 1, 10, 0, 0, 0, ZoneOffset.UTC)),
        arguments(
            "numeric string → int, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "-42",
            INT,
            parsing,
            -42),
        arguments(
            "numeric string → long, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "9000000000",
            LONG,
            parsing,
            9_000_000_000L),
        arguments(
            "numeric string → double, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "1.5e3",
            DOUBLE,
            parsing,
            1500.0d),
        arguments(
            "numeric string → decimal, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "12.3",
            Types.DecimalType.of(10, 2),
            parsing,
            new BigDecimal("12.30")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validWithSchema")
  void convertsValidValueWithSchema(
      String name,
      Schema field,
      Object value,
      Type target,
      ConvertOptions options,
      Object expected) {
    assertThat(Fixtures.convert(field, value, target, options)).isEqualTo(expected);
  }

  static Stream<Arguments> invalidWithSchema() {
    return Stream.of(
        arguments(
            "INT64 2^40 → int",
            Schema.OPTIONAL_INT64_SCHEMA,
            1L << 40,
            INT,
            DEFAULTS,
            "1099511627776"),
        arguments(
            "STRING → int",
            Schema.OPTIONAL_STRING_SCHEMA,
            "secret-4711",
            INT,
            DEFAULTS,
            "secret-4711"),
        arguments(
            "numeric STRING → long, parsing off",
            Schema.OPTIONAL_STRING_SCHEMA,
            "98765",
            LONG,
            DEFAULTS,
            "98765"),
        arguments(
            "bad numeric STRING → long, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "98x765",
            LONG,
            DEFAULTS.withParseNumericStrings(true),
            "98x765"),
        arguments(
            "hex STRING → double, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "0x1p3",
            DOUBLE,
            DEFAULTS.withParseNumericStrings(true),
            "0x1p3"),
        arguments(
            "huge STRING → double, parsing on",
            Schema.OPTIONAL_STRING_SCHEMA,
            "7e777",
            DOUBLE,
            DEFAULTS.withParseNumericStrings(true),
            "7e777"),
        arguments("FLOAT64 → int", Schema.OPTIONAL_FLOAT64_SCHEMA, 3.75d, INT, DEFAULTS, "3.75"),
        arguments("FLOAT64 → long", Schema.OPTIONAL_FLOAT64_SCHEMA, 3.75d, LONG, DEFAULTS, "3.75"),
        arguments(
            "FLOAT64 inexact → float",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            0.1d,
            FLOAT,
            DEFAULTS,
            "0.1"),
        arguments(
            "INT64 inexact → double",
            Schema.OPTIONAL_INT64_SCHEMA,
            (1L << 53) + 1,
            DOUBLE,
            DEFAULTS,
            "9007199254740993"),
        arguments(
            "INT64 max → double",
            Schema.OPTIONAL_INT64_SCHEMA,
            Long.MAX_VALUE,
            DOUBLE,
            DEFAULTS,
            "9223372036854775807"),
        arguments(
            "INT32 inexact → float",
            Schema.OPTIONAL_INT32_SCHEMA,
            16_777_217,
            FLOAT,
            DEFAULTS,
            "16777217"),
        arguments(
            "Decimal other scale, rounding off",
            decimal(3),
            new BigDecimal("1.234"),
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            "1.234"),
        arguments(
            "Decimal lower scale, rounding off",
            decimal(1),
            new BigDecimal("7.5"),
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            "7.5"),
        arguments(
            "Decimal beyond precision",
            decimal(2),
            new BigDecimal("12345678.91"),
            Types.DecimalType.of(5, 2),
            DEFAULTS,
            "12345678.91"),
        arguments(
            "Decimal beyond precision after rounding",
            decimal(3),
            new BigDecimal("999.995"),
            Types.DecimalType.of(5, 2),
            DEFAULTS.withDecimalRounding(RoundingMode.HALF_UP),
            "999.995"),
        arguments(
            "FLOAT64 NaN → decimal",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            Double.NaN,
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            "NaN"),
        arguments(
            "FLOAT64 Infinity → decimal",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            Double.POSITIVE_INFINITY,
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            "Infinity"),
        arguments(
            "FLOAT64 needing rounding → decimal",
            Schema.OPTIONAL_FLOAT64_SCHEMA,
            2.71828d,
            Types.DecimalType.of(10, 2),
            DEFAULTS,
            "2.71828"),
        arguments(
            "VariableScaleDecimal needing rounding",
            variableScaleDecimal(),
            variableScaleDecimalValue("123456789", 6),
            Types.DecimalType.of(38, 4),
            DEFAULTS,
            "123.456789"),
        arguments(
            "Connect Date with a time of day",
            Date.builder().optional().build(),
            new java.util.Date(86_400_000L + 5),
            DATE,
            DEFAULTS,
            new java.util.Date(86_400_000L + 5).toString()),
        arguments(
            "Connect Time beyond 24h",
            Time.builder().optional().build(),
            new java.util.Date(90_000_123L),
            TIME,
            DEFAULTS,
            "90000123"),
        arguments(
            "Debezium Time negative",
            named(SchemaBuilder.int32(), SourceKind.DBZ_TIME),
            -3_600_123,
            TIME,
            DEFAULTS,
            "3600123"),
        arguments(
            "Debezium MicroTime of 24h",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIME),
            86_400_000_000L,
            TIME,
            DEFAULTS,
            "86400000000"),
        arguments(
            "Debezium NanoTime negative",
            named(SchemaBuilder.int64(), SourceKind.DBZ_NANO_TIME),
            -123_456_789L,
            TIME,
            DEFAULTS,
            "123456789"),
        arguments(
            "Debezium MicroTimestamp overflowing timestamp_ns",
            named(SchemaBuilder.int64(), SourceKind.DBZ_MICRO_TIMESTAMP),
            Long.MAX_VALUE / 10,
            TS_NS,
            DEFAULTS,
            String.valueOf(Long.MAX_VALUE / 10)),
        arguments(
            "Debezium ZonedTimestamp → timestamp without zone",
            named(SchemaBuilder.string(), SourceKind.DBZ_ZONED_TIMESTAMP),
            "2024-03-05T10:11:12+02:00",
            TS,
            DEFAULTS,
            "2024-03-05T10:11:12+02:00"),
        arguments(
            "zone-less string → timestamptz without a zone for local timestamps",
            Schema.OPTIONAL_STRING_SCHEMA,
            "2024-03-05T10:11:12",
            TSTZ,
            DEFAULTS,
            "2024-03-05T10:11:12"),
        arguments(
            "garbage → timestamptz",
            Schema.OPTIONAL_STRING_SCHEMA,
            "yesterday-ish-777",
            TSTZ,
            DEFAULTS,
            "yesterday-ish-777"),
        arguments(
            "year 3000 → timestamp_ns",
            Schema.OPTIONAL_STRING_SCHEMA,
            "3000-01-01T00:00:00",
            TS_NS,
            DEFAULTS,
            "3000-01-01"),
        arguments(
            "bad ISO date",
            Schema.OPTIONAL_STRING_SCHEMA,
            "2023-02-29",
            DATE,
            DEFAULTS,
            "2023-02-29"),
        arguments(
            "bad ISO time", Schema.OPTIONAL_STRING_SCHEMA, "24:00:01", TIME, DEFAULTS, "24:00:01"),
        arguments("INT32 → date", Schema.OPTIONAL_INT32_SCHEMA, 19_001, DATE, DEFAULTS, "19001"),
        arguments(
            "INT64 without logical type → timestamptz",
            Schema.OPTIONAL_INT64_SCHEMA,
            1_700_000_000_123L,
            TSTZ,
            DEFAULTS,
            "1700000000123"),
        arguments(
            "non-canonical UUID string",
            Schema.OPTIONAL_STRING_SCHEMA,
            "6f1c1f4e8a2b4c3d9e0f123456789abc",
            UUID_TYPE,
            DEFAULTS,
            "6f1c1f4e8a2b4c3d9e0f123456789abc"),
        arguments(
            "short UUID form",
            Schema.OPTIONAL_STRING_SCHEMA,
            "1-2-3-4-5",
            UUID_TYPE,
            DEFAULTS,
            "1-2-3-4-5"),
        arguments(
            "INT64 → string",
            Schema.OPTIONAL_INT64_SCHEMA,
            5_550_123L,
            STRING,
            DEFAULTS,
            "5550123"),
        arguments(
            "STRING → boolean",
            Schema.OPTIONAL_STRING_SCHEMA,
            "yes-please",
            Types.BooleanType.get(),
            DEFAULTS,
            "yes-please"),
        arguments(
            "STRING → binary",
            Schema.OPTIONAL_STRING_SCHEMA,
            "c2VjcmV0",
            BINARY,
            DEFAULTS,
            "c2VjcmV0"),
        arguments(
            "BYTES wrong length → fixed",
            Schema.OPTIONAL_BYTES_SCHEMA,
            "secret-bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Types.FixedType.ofLength(16),
            DEFAULTS,
            "secret-bytes"),
        arguments(
            "Decimal → double", decimal(2), new BigDecimal("31.41"), DOUBLE, DEFAULTS, "31.41"),
        arguments(
            "Connect Timestamp → date",
            Timestamp.builder().optional().build(),
            new java.util.Date(1_700_000_000_123L),
            DATE,
            DEFAULTS,
            "1700000000123"),
        arguments(
            "STRUCT → string",
            SchemaBuilder.struct().field("secret", Schema.STRING_SCHEMA).optional().build(),
            new Struct(
                    SchemaBuilder.struct().field("secret", Schema.STRING_SCHEMA).optional().build())
                .put("secret", "hunter2"),
            STRING,
            DEFAULTS,
            "hunter2"),
        arguments(
            "STRING → struct",
            Schema.OPTIONAL_STRING_SCHEMA,
            "hunter3",
            Types.StructType.of(Types.NestedField.optional(9, "x", STRING)),
            DEFAULTS,
            "hunter3"),
        arguments(
            "STRING → list",
            Schema.OPTIONAL_STRING_SCHEMA,
            "hunter4",
            Types.ListType.ofOptional(9, STRING),
            DEFAULTS,
            "hunter4"),
        arguments(
            "STRING → map",
            Schema.OPTIONAL_STRING_SCHEMA,
            "hunter5",
            Types.MapType.ofOptional(9, 10, STRING, STRING),
            DEFAULTS,
            "hunter5"),
        arguments(
            "STRING → variant (not written by Floe)",
            Schema.OPTIONAL_STRING_SCHEMA,
            "hunter6",
            Types.VariantType.get(),
            DEFAULTS,
            "hunter6"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidWithSchema")
  void rejectsInvalidValueWithSchemaNamingPathNotValue(
      String name, Schema field, Object value, Type target, ConvertOptions options, String text) {
    assertThatThrownBy(() -> Fixtures.convert(field, value, target, options))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo(Fixtures.FIELD);
              assertThat(e.getMessage()).contains("'" + Fixtures.FIELD + "'");
              assertThat(e.getMessage()).doesNotContain(text);
              assertThat(e.expectedType()).isNotBlank();
              assertThat(e.actualType()).isNotBlank();
              assertThat(e.getCause()).isNull();
            });
  }

  static Stream<Arguments> validSchemaless() {
    return Stream.of(
        arguments("Long → long", 7L, LONG, 7L),
        arguments("Integer → long", 7, LONG, 7L),
        arguments("Long in range → int", -7L, INT, -7),
        arguments("Double → double", 2.5d, DOUBLE, 2.5d),
        arguments("Long → double", 2L, DOUBLE, 2.0d),
        arguments("Boolean", false, Types.BooleanType.get(), false),
        arguments("String", "text", STRING, "text"),
        arguments(
            "BigDecimal → decimal",
            new BigDecimal("1.50"),
            Types.DecimalType.of(9, 2),
            new BigDecimal("1.50")),
        arguments(
            "BigDecimal lower scale → decimal, exact",
            new BigDecimal("1.5"),
            Types.DecimalType.of(9, 2),
            new BigDecimal("1.50")),
        arguments(
            "Double → decimal, as written",
            0.1d,
            Types.DecimalType.of(9, 2),
            new BigDecimal("0.10")),
        arguments(
            "BigInteger → decimal",
            new BigInteger("123456789012345678901234567890"),
            Types.DecimalType.of(38, 0),
            new BigDecimal("123456789012345678901234567890")),
        arguments("Long → decimal", 12L, Types.DecimalType.of(9, 2), new BigDecimal("12.00")),
        arguments(
            "ISO string → timestamptz",
            "2024-03-05T10:11:12.1234567-05:00",
            TSTZ,
            OffsetDateTime.of(2024, 3, 5, 15, 11, 12, 123_456_000, ZoneOffset.UTC)),
        arguments(
            "ISO string with region → timestamptz",
            "2024-07-01T12:00:00+02:00[Europe/Paris]",
            TSTZ,
            OffsetDateTime.of(2024, 7, 1, 10, 0, 0, 0, ZoneOffset.UTC)),
        arguments("UUID string → uuid", A_UUID.toString(), UUID_TYPE, A_UUID),
        arguments("byte[] → binary", new byte[] {9}, BINARY, ByteBuffer.wrap(new byte[] {9})),
        arguments("LocalDate → date", LocalDate.of(2020, 1, 2), DATE, LocalDate.of(2020, 1, 2)),
        arguments(
            "LocalTime → time, truncated",
            LocalTime.of(1, 2, 3, 456_789_999),
            TIME,
            LocalTime.of(1, 2, 3, 456_789_000)),
        arguments(
            "OffsetDateTime → timestamptz in UTC",
            OffsetDateTime.of(2020, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(3)),
            TSTZ,
            OffsetDateTime.of(2020, 1, 2, 0, 4, 5, 0, ZoneOffset.UTC)),
        arguments(
            "Instant → timestamptz",
            java.time.Instant.ofEpochSecond(1, 999),
            TSTZ_NS,
            OffsetDateTime.of(1970, 1, 1, 0, 0, 1, 999, ZoneOffset.UTC)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validSchemaless")
  void convertsValidSchemalessValue(String name, Object value, Type target, Object expected) {
    assertThat(Fixtures.convertSchemaless(value, target, DEFAULTS)).isEqualTo(expected);
  }

  static Stream<Arguments> invalidSchemaless() {
    return Stream.of(
        arguments("String → long", "31337", LONG, "31337"),
        arguments("Double → long (a later conflicting type)", 2.5d, LONG, "2.5"),
        arguments("Long 2^40 → int", 1L << 40, INT, "1099511627776"),
        arguments("Boolean → string", Boolean.TRUE, STRING, "true"),
        arguments("Long → string", 4_242_4242L, STRING, "42424242"),
        arguments("Map → string", java.util.Map.of("pin", "8642"), STRING, "8642"),
        arguments("List → long", java.util.List.of(97_531L), LONG, "97531"),
        arguments(
            "String → struct",
            "plain-secret",
            Types.StructType.of(Types.NestedField.optional(9, "x", STRING)),
            "plain-secret"),
        arguments(
            "BigDecimal needing rounding",
            new BigDecimal("1.23456"),
            Types.DecimalType.of(9, 2),
            "1.23456"),
        arguments(
            "BigDecimal with a huge exponent is rejected before rescaling",
            new BigDecimal("7E+999999999"),
            Types.DecimalType.of(9, 2),
            "7E+999999999"),
        arguments("Long → timestamptz (unit unknown)", 1_700_000_000_123L, TSTZ, "1700000000123"),
        arguments(
            "LocalDateTime → timestamptz without a zone",
            LocalDateTime.of(2001, 2, 3, 4, 5, 6),
            TSTZ,
            "2001-02-03"),
        arguments(
            "OffsetDateTime → timestamp without zone",
            OffsetDateTime.of(2001, 2, 3, 4, 5, 6, 0, ZoneOffset.UTC),
            TS,
            "2001-02-03"),
        arguments(
            "java.util.Date → timestamptz (ambiguous)",
            new java.util.Date(1_234_567L),
            TSTZ,
            "1234567"),
        arguments("Long → unknown", 55_555L, Types.UnknownType.get(), "55555"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidSchemaless")
  void rejectsInvalidSchemalessValueNamingPathNotValue(
      String name, Object value, Type target, String text) {
    assertThatThrownBy(() -> Fixtures.convertSchemaless(value, target, DEFAULTS))
        .isInstanceOfSatisfying(
            ConversionException.class,
            e -> {
              assertThat(e.path()).isEqualTo(Fixtures.FIELD);
              assertThat(e.getMessage()).doesNotContain(text);
              assertThat(e.getMessage()).contains(value.getClass().getTypeName());
            });
  }
}
