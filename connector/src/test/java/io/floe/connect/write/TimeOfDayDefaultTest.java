/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static io.floe.connect.write.SinkWriterRun.record;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.junit.jupiter.api.Test;

/**
 * Time-of-day fields with the default time type ({@code long-micros}), through the task's whole
 * write path: a table Floe creates gets {@code long} columns of microseconds since midnight, while
 * a table that already has a {@code time} column (created with {@code
 * iceberg.tables.time-type=time}, or by another writer such as the Apache Iceberg sink) keeps it
 * and keeps getting {@code time} values, before and after schema evolution adds a column.
 */
class TimeOfDayDefaultTest {
  /** 01:02:03.004 */
  private static final long MILLIS = 3_723_004L;

  private static final Schema V1 =
      SchemaBuilder.struct()
          .name("Shift")
          .field("id", Schema.INT64_SCHEMA)
          .field("starts", Time.builder().optional().build())
          .build();
  private static final Schema V2 =
      SchemaBuilder.struct()
          .name("Shift")
          .field("id", Schema.INT64_SCHEMA)
          .field("starts", Time.builder().optional().build())
          .field("ends", Time.builder().optional().build())
          .build();

  private static Struct v1(long id, long startsMillis) {
    return new Struct(V1).put("id", id).put("starts", new java.util.Date(startsMillis));
  }

  private static Struct v2(long id, long startsMillis, long endsMillis) {
    return new Struct(V2)
        .put("id", id)
        .put("starts", new java.util.Date(startsMillis))
        .put("ends", new java.util.Date(endsMillis));
  }

  @Test
  void aTableFloeCreatesGetsLongMicrosecondsSinceMidnight() throws Exception {
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(List.of(record(0, V1, v1(0, MILLIS))));

      assertThat(run.refused()).isEmpty();
      assertThat(run.table("t").schema().findType("starts")).isEqualTo(Types.LongType.get());
      assertThat(run.rowsById("t").get(0L).getField("starts")).isEqualTo(MILLIS * 1000);
    }
  }

  @Test
  void anExistingTimeColumnKeepsItsTypeAndItsValuesWhileEvolutionAddsLongColumns()
      throws Exception {
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.createTable(
          "t",
          new org.apache.iceberg.Schema(
              required(1, "id", Types.LongType.get()),
              optional(2, "starts", Types.TimeType.get())));

      run.write(List.of(record(0, V1, v1(0, MILLIS))));
      run.write(
          List.of(record(1, V2, v2(1, MILLIS + 1, 86_399_999L)), record(2, V1, v1(2, MILLIS + 2))));

      assertThat(run.refused()).isEmpty();
      org.apache.iceberg.Schema schema = run.table("t").schema();
      assertThat(schema.findType("starts")).isEqualTo(Types.TimeType.get());
      assertThat(schema.findType("ends")).isEqualTo(Types.LongType.get());
      Map<Long, Record> rows = run.rowsById("t");
      assertThat(rows).containsOnlyKeys(0L, 1L, 2L);
      assertThat(rows.get(0L).getField("starts")).isEqualTo(time(MILLIS));
      assertThat(rows.get(1L).getField("starts")).isEqualTo(time(MILLIS + 1));
      assertThat(rows.get(1L).getField("ends")).isEqualTo(86_399_999_000L);
      assertThat(rows.get(2L).getField("starts")).isEqualTo(time(MILLIS + 2));
      assertThat(rows.get(2L).getField("ends")).isNull();
    }
  }

  @Test
  void withTheTimeTypeANewTableGetsTimeColumns() throws Exception {
    try (SinkWriterRun run = new SinkWriterRun(Map.of("iceberg.tables.time-type", "time"))) {
      run.write(List.of(record(0, V1, v1(0, MILLIS))));

      assertThat(run.refused()).isEmpty();
      assertThat(run.table("t").schema().findType("starts")).isEqualTo(Types.TimeType.get());
      assertThat(run.rowsById("t").get(0L).getField("starts")).isEqualTo(time(MILLIS));
    }
  }

  private static LocalTime time(long millis) {
    return LocalTime.ofNanoOfDay(millis * 1_000_000);
  }
}
