/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.junit.jupiter.api.Test;

class RowPartitionerTest {
  private static final long DAY = 86_400_000_000L;
  private static final long HOUR = 3_600_000_000L;

  private static final Types.StructType ADDRESS =
      Types.StructType.of(
          Types.NestedField.optional(11, "seen", Types.TimestampType.withZone()),
          Types.NestedField.optional(12, "zip", Types.IntegerType.get()));

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.optional(1, "tz", Types.TimestampType.withZone()),
          Types.NestedField.optional(2, "local", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(3, "day", Types.DateType.get()),
          Types.NestedField.optional(4, "n", Types.IntegerType.get()),
          Types.NestedField.optional(5, "id", Types.LongType.get()),
          Types.NestedField.optional(6, "name", Types.StringType.get()),
          Types.NestedField.optional(7, "flag", Types.BooleanType.get()),
          Types.NestedField.optional(8, "address", ADDRESS),
          Types.NestedField.optional(9, "uuid", Types.UUIDType.get()),
          Types.NestedField.optional(10, "amount", Types.DoubleType.get()),
          Types.NestedField.optional(13, "tz_ns", Types.TimestampNanoType.withZone()));

  private static List<PartitionSpec> coveredSpecs() {
    List<UnaryOperator<PartitionSpec.Builder>> specs =
        List.of(
            b -> b.day("tz"),
            b -> b.hour("tz"),
            b -> b.month("tz"),
            b -> b.year("tz"),
            b -> b.day("local"),
            b -> b.hour("local"),
            b -> b.month("local"),
            b -> b.year("local"),
            b -> b.day("day"),
            b -> b.month("day"),
            b -> b.year("day"),
            b -> b.identity("tz").identity("local").identity("day"),
            b -> b.identity("n").identity("id").identity("name").identity("flag"),
            b -> b.day("address.seen").identity("address.zip"),
            b -> b.hour("tz").identity("name").month("day"));
    List<PartitionSpec> built = new ArrayList<>();
    for (UnaryOperator<PartitionSpec.Builder> spec : specs) {
      built.add(spec.apply(PartitionSpec.builderFor(SCHEMA)).build());
    }
    return built;
  }

  @Test
  void everyCoveredSpecGivesTheKeyIcebergsTransformsGive() {
    Random random = new Random(20261206);
    List<Record> rows = rows(random);
    for (PartitionSpec spec : coveredSpecs()) {
      RowPartitioner partitioner = RowPartitioner.of(spec, SCHEMA);
      assertThat(partitioner).as("%s", spec).isNotNull();
      PartitionKey iceberg = new PartitionKey(spec, SCHEMA);
      PartitionKey direct = new PartitionKey(spec, SCHEMA);
      InternalRecordWrapper wrapper = new InternalRecordWrapper(SCHEMA.asStruct());
      for (Record row : rows) {
        iceberg.partition(wrapper.wrap(row));
        partitioner.partition(row, direct);
        assertThat(direct).as("%s of %s", spec, row).isEqualTo(iceberg);
        assertThat(direct.toPath()).isEqualTo(iceberg.toPath());
      }
    }
  }

  @Test
  void otherTransformsAndTypesAreLeftToIceberg() {
    assertThat(RowPartitioner.of(PartitionSpec.unpartitioned(), SCHEMA)).isNull();
    List<UnaryOperator<PartitionSpec.Builder>> others =
        List.of(
            b -> b.bucket("id", 16),
            b -> b.truncate("name", 4),
            b -> b.identity("uuid"),
            b -> b.identity("amount"),
            b -> b.day("tz_ns"),
            b -> b.day("tz").bucket("n", 4));
    for (UnaryOperator<PartitionSpec.Builder> spec : others) {
      PartitionSpec built = spec.apply(PartitionSpec.builderFor(SCHEMA)).build();
      assertThat(RowPartitioner.of(built, SCHEMA)).as("%s", built).isNull();
    }
  }

  @Test
  void aTimestampBeyondALongOfMicrosecondsFailsAsIcebergsWriterFails() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).day("tz").build();
    Record row = GenericRecord.create(SCHEMA);
    row.setField("tz", OffsetDateTime.of(300_000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
    assertThatThrownBy(
            () -> RowPartitioner.of(spec, SCHEMA).partition(row, new PartitionKey(spec, SCHEMA)))
        .isInstanceOf(ArithmeticException.class);
  }

  /** Rows around the epoch, unit boundaries and far dates, with nulls, sub-microsecond digits. */
  private static List<Record> rows(Random random) {
    List<Long> micros = new ArrayList<>();
    for (long unit : new long[] {DAY, HOUR}) {
      for (long n : new long[] {-800_000, -1, 0, 1, 20_000, 5_000_000}) {
        micros.add(n * unit - 1);
        micros.add(n * unit);
        micros.add(n * unit + 1);
      }
    }
    for (int i = 0; i < 3_000; i++) {
      micros.add(random.nextLong() / 16);
      micros.add((random.nextInt(200_000) - 100_000) * DAY + random.nextInt(3) - 1);
    }
    List<Record> rows = new ArrayList<>();
    for (long value : micros) {
      Record row = GenericRecord.create(SCHEMA);
      OffsetDateTime tz = DateTimeUtil.timestamptzFromMicros(value);
      if (random.nextInt(10) == 0) {
        // finer than a microsecond, as only a value built outside the converter can be
        tz = tz.withNano(random.nextInt(1_000_000_000));
      }
      row.setField("tz", tz);
      row.setField("local", DateTimeUtil.timestampFromMicros(value - random.nextInt(1000)));
      row.setField("day", LocalDate.ofEpochDay(Math.floorDiv(value, DAY)));
      row.setField("n", random.nextInt());
      row.setField("id", random.nextLong());
      row.setField("name", "n" + random.nextInt(50));
      row.setField("flag", random.nextBoolean());
      if (random.nextInt(4) != 0) {
        Record address = GenericRecord.create(ADDRESS);
        address.setField(
            "seen", random.nextInt(5) == 0 ? null : DateTimeUtil.timestamptzFromMicros(value / 3));
        address.setField("zip", random.nextInt(5) == 0 ? null : random.nextInt(99_999));
        row.setField("address", address);
      }
      rows.add(nullSome(row, random));
    }
    Record allNull = GenericRecord.create(SCHEMA);
    rows.add(allNull);
    Record local = GenericRecord.create(SCHEMA);
    local.setField("local", LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_500));
    rows.add(local);
    return rows;
  }

  private static Record nullSome(Record row, Random random) {
    for (String field : List.of("tz", "local", "day", "n", "id", "name", "flag")) {
      if (random.nextInt(20) == 0) {
        row.setField(field, null);
      }
    }
    return row;
  }
}
