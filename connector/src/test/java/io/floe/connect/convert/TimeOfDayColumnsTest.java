/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.LocalTime;
import java.util.stream.Stream;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Time-of-day fields under both settings of the time type: the column a new field gets, and the
 * value written into a {@code time} or a {@code long} column, whichever the setting (the column's
 * type decides, not the setting).
 */
class TimeOfDayColumnsTest {
  private static final ConvertOptions AS_LONG = ConvertOptions.defaults();
  private static final ConvertOptions AS_TIME =
      ConvertOptions.defaults().withTimeOfDayType(TimeOfDayType.TIME);

  /** 01:02:03.004005006, in each source's unit: what each source can carry of it. */
  static Stream<Arguments> sources() {
    return Stream.of(
        arguments(
            "Connect Time",
            Time.builder().optional().build(),
            new java.util.Date(3_723_004L),
            3_723_004_000L),
        arguments(
            "Debezium Time",
            named(SchemaBuilder.int32(), "io.debezium.time.Time"),
            3_723_004,
            3_723_004_000L),
        arguments(
            "Debezium MicroTime",
            named(SchemaBuilder.int64(), "io.debezium.time.MicroTime"),
            3_723_004_005L,
            3_723_004_005L),
        arguments(
            "Debezium NanoTime, truncated to micros",
            named(SchemaBuilder.int64(), "io.debezium.time.NanoTime"),
            3_723_004_005_006L,
            3_723_004_005L));
  }

  private static Schema named(SchemaBuilder builder, String name) {
    return builder.name(name).optional().build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void aNewColumnIsLongMicrosByDefaultAndTimeWhenAsked(
      String name, Schema field, Object value, long micros) {
    assertThat(ConnectSchemas.toIcebergType(field, AS_TIME)).isEqualTo(Types.TimeType.get());
    assertThat(ConnectSchemas.toIcebergType(field, AS_LONG)).isEqualTo(Types.LongType.get());
    assertThat(ConnectSchemas.toIcebergSchema(Fixtures.record(field), AS_LONG).asStruct())
        .isEqualTo(Fixtures.table(Types.LongType.get()).asStruct());
    assertThat(ConnectSchemas.isTimeOfDay(field, AS_TIME)).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void valuesFollowTheColumnsTypeWhateverTheSetting(
      String name, Schema field, Object value, long micros) {
    LocalTime time = LocalTime.ofNanoOfDay(micros * 1000);
    for (ConvertOptions options : new ConvertOptions[] {AS_TIME, AS_LONG}) {
      assertThat(Fixtures.convert(field, value, Types.TimeType.get(), options)).isEqualTo(time);
      assertThat(Fixtures.convert(field, value, Types.LongType.get(), options)).isEqualTo(micros);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void midnightIsZeroAndTheLastMicrosecondFits(
      String name, Schema field, Object value, long micros) {
    Type column = Types.LongType.get();
    assertThat(Fixtures.convert(field, zero(value), column, AS_LONG)).isEqualTo(0L);
    assertThat(Fixtures.convert(field, null, column, AS_LONG)).isNull();
  }

  private static Object zero(Object value) {
    if (value instanceof java.util.Date) {
      return new java.util.Date(0L);
    }
    return value instanceof Integer ? (Object) 0 : (Object) 0L;
  }

  static Stream<Arguments> outOfDay() {
    return Stream.of(
        arguments(
            "Connect Time", Time.builder().optional().build(), new java.util.Date(86_400_000L)),
        arguments("Debezium Time", named(SchemaBuilder.int32(), "io.debezium.time.Time"), -1),
        arguments(
            "Debezium MicroTime",
            named(SchemaBuilder.int64(), "io.debezium.time.MicroTime"),
            86_400_000_000L),
        arguments(
            "Debezium NanoTime",
            named(SchemaBuilder.int64(), "io.debezium.time.NanoTime"),
            86_400_000_000_000L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outOfDay")
  void aTimeOutsideTheDayIsABadRecordNamingTheFieldInALongColumnToo(
      String name, Schema field, Object value) {
    for (Type column : new Type[] {Types.LongType.get(), Types.TimeType.get()}) {
      assertThatThrownBy(() -> Fixtures.convert(field, value, column, AS_LONG))
          .isInstanceOfSatisfying(
              ConversionException.class,
              e -> {
                assertThat(e.path()).isEqualTo(Fixtures.FIELD);
                assertThat(e.getMessage())
                    .contains("'" + Fixtures.FIELD + "'")
                    .contains("outside [00:00, 24:00)");
              });
    }
  }

  @Test
  void aPlainLongIntoALongColumnIsUnchanged() {
    assertThat(
            Fixtures.convert(
                Schema.OPTIONAL_INT64_SCHEMA, 3_723_004L, Types.LongType.get(), AS_LONG))
        .isEqualTo(3_723_004L);
    assertThat(ConnectSchemas.isTimeOfDay(Schema.OPTIONAL_INT64_SCHEMA, AS_LONG)).isFalse();
  }
}
