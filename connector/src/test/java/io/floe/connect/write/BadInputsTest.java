/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static io.floe.connect.write.SinkWriterRun.record;
import static io.floe.connect.write.SinkWriterRun.schemaless;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.write.SinkWriterRun.Refused;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each kind of bad input of the README's "What happens to each kind of bad input" table, through
 * the task's whole write path (routing, table creation, schema evolution, conversion, Parquet
 * files, commit): the input is written correctly or it is a bad record whose message names the
 * field but not the value, and the records around it are written in full either way.
 */
class BadInputsTest {
  private static final Schema ID_ONLY =
      SchemaBuilder.struct().name("Row").field("id", Schema.INT64_SCHEMA).build();

  /** A struct schema of {@code id} and one more field {@code f}. */
  private static Schema withF(Schema f) {
    return SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).field("f", f).build();
  }

  private static Struct row(Schema schema, long id, Object f) {
    return new Struct(schema).put("id", id).put("f", f);
  }

  private static Map<String, Object> map(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  /** Asserts the one bad record: its offset, and a message naming the field and not the value. */
  private static void assertOneBadRecord(
      SinkWriterRun run, long offset, String field, String secretValue) {
    assertThat(run.refused()).extracting(Refused::offset).containsExactly(offset);
    Refused refused = run.refused().get(0);
    assertThat(refused.message()).contains(field);
    if (secretValue != null) {
      assertThat(refused.message()).doesNotContain(secretValue);
    }
  }

  @Test
  void aNullKeyIsWrittenAndItsMetadataKeyIsNull() throws Exception {
    try (SinkWriterRun run =
        new SinkWriterRun(Map.of("iceberg.tables.kafka-metadata-column", "_kafka"))) {
      Struct value = new Struct(ID_ONLY).put("id", 1L);
      run.write(
          List.of(
              new SinkRecord("events", 0, Schema.STRING_SCHEMA, "k", ID_ONLY, value, 0),
              new SinkRecord(
                  "events", 0, null, null, ID_ONLY, new Struct(ID_ONLY).put("id", 2L), 1)));
      assertThat(run.refused()).isEmpty();
      Map<Long, org.apache.iceberg.data.Record> rows = run.rowsById("t");
      assertThat(rows).containsOnlyKeys(1L, 2L);
      assertThat(((org.apache.iceberg.data.Record) rows.get(1L).getField("_kafka")).getField("key"))
          .isEqualTo("k");
      assertThat(((org.apache.iceberg.data.Record) rows.get(2L).getField("_kafka")).getField("key"))
          .isNull();
      assertThat(run.nextOffset()).isEqualTo(2);
    }
  }

  @Test
  void aSchemalessFieldWhoseTypeFlipsIsABadRecordAndTheOthersAreWritten() throws Exception {
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              schemaless(0, map("id", 0L, "f", 10L)),
              schemaless(1, map("id", 1L, "f", "ten-thousand")),
              schemaless(2, map("id", 2L, "f", 2.5)),
              schemaless(3, map("id", 3L, "f", 30L))));
      assertThat(run.refused()).extracting(Refused::offset).containsExactly(1L, 2L);
      assertThat(run.refused()).allSatisfy(r -> assertThat(r.message()).contains("f"));
      assertThat(run.refused().get(0).message()).doesNotContain("ten-thousand");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 3L);
      assertThat(run.rowsById("t").get(3L).getField("f")).isEqualTo(30L);
      assertThat(run.nextOffset()).isEqualTo(4);
    }
  }

  @Test
  void aSchemaChangeInTheMiddleOfABatchEvolvesTheTableAndLosesNoRecord() throws Exception {
    Schema v1 = withF(Schema.INT32_SCHEMA);
    Schema v2 =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("f", Schema.OPTIONAL_INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    try (SinkWriterRun run = new SinkWriterRun()) {
      List<SinkRecord> batch = new ArrayList<>();
      batch.add(record(0, v1, row(v1, 0, 1)));
      batch.add(
          record(1, v2, new Struct(v2).put("id", 1L).put("f", 5_000_000_000L).put("note", "n")));
      batch.add(record(2, v1, row(v1, 2, 3)));
      batch.add(record(3, v2, new Struct(v2).put("id", 3L).put("note", "m")));
      run.write(batch);
      assertThat(run.refused()).isEmpty();
      Map<Long, org.apache.iceberg.data.Record> rows = run.rowsById("t");
      assertThat(rows).containsOnlyKeys(0L, 1L, 2L, 3L);
      assertThat(rows.get(1L).getField("f")).isEqualTo(5_000_000_000L);
      assertThat(rows.get(1L).getField("note")).isEqualTo("n");
      assertThat(rows.get(2L).getField("f")).isEqualTo(3L);
      assertThat(rows.get(2L).getField("note")).isNull();
      assertThat(run.table("t").schema().findType("f")).isEqualTo(Types.LongType.get());
    }
  }

  private static Schema decimal(int scale, int precision) {
    return Decimal.builder(scale)
        .parameter("connect.decimal.precision", Integer.toString(precision))
        .build();
  }

  @Test
  void aDecimalOfAnotherScaleIsABadRecordUnlessRoundingIsConfigured() throws Exception {
    Schema scale2 = withF(decimal(2, 10));
    Schema scale3 = withF(decimal(3, 10));
    List<SinkRecord> batch =
        List.of(
            record(0, scale2, row(scale2, 0, new BigDecimal("1.25"))),
            record(1, scale3, row(scale3, 1, new BigDecimal("1.255"))),
            record(2, scale2, row(scale2, 2, new BigDecimal("2.50"))));
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(batch);
      assertOneBadRecord(run, 1, "f", "1.255");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
    }
    try (SinkWriterRun run =
        new SinkWriterRun(Map.of("iceberg.tables.decimal-rounding", "HALF_UP"))) {
      run.write(batch);
      assertThat(run.refused()).isEmpty();
      assertThat(run.rowsById("t").get(1L).getField("f")).isEqualTo(new BigDecimal("1.26"));
      assertThat(run.table("t").schema().findType("f")).isEqualTo(Types.DecimalType.of(10, 2));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "HALF_UP"})
  void aDecimalWithMoreDigitsThanItsColumnIsAlwaysABadRecord(String rounding) throws Exception {
    try (SinkWriterRun run =
        new SinkWriterRun(Map.of("iceberg.tables.decimal-rounding", rounding))) {
      run.createTable(
          "t",
          new org.apache.iceberg.Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "f", Types.DecimalType.of(5, 2))));
      Schema schema = withF(decimal(2, 5));
      run.write(
          List.of(
              record(0, schema, row(schema, 0, new BigDecimal("123.45"))),
              record(1, schema, row(schema, 1, new BigDecimal("1234567.89"))),
              record(2, schema, row(schema, 2, new BigDecimal("-999.99")))));
      assertOneBadRecord(run, 1, "f", "1234567");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
    }
  }

  static Stream<Arguments> debeziumTimestamps() {
    // 2024-03-01T12:34:56.789123456Z in each of Debezium's encodings
    long seconds = OffsetDateTime.parse("2024-03-01T12:34:56Z").toEpochSecond();
    return Stream.of(
        Arguments.of(
            "io.debezium.time.Timestamp", seconds * 1_000 + 789, "2024-03-01T12:34:56.789Z"),
        Arguments.of(
            "io.debezium.time.MicroTimestamp",
            seconds * 1_000_000 + 789_123,
            "2024-03-01T12:34:56.789123Z"),
        Arguments.of(
            "io.debezium.time.NanoTimestamp",
            seconds * 1_000_000_000 + 789_123_456,
            "2024-03-01T12:34:56.789123Z"),
        Arguments.of(
            "io.debezium.time.ZonedTimestamp",
            "2024-03-01T14:34:56.789123456+02:00",
            "2024-03-01T12:34:56.789123Z"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("debeziumTimestamps")
  void debeziumTimestampsKeepTheirUnit(String name, Object value, String instant) throws Exception {
    SchemaBuilder field = value instanceof String ? SchemaBuilder.string() : SchemaBuilder.int64();
    Schema schema = withF(field.name(name).build());
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(List.of(record(0, schema, row(schema, 0, value))));
      assertThat(run.refused()).isEmpty();
      assertThat(run.table("t").schema().findType("f")).isEqualTo(Types.TimestampType.withZone());
      assertThat(run.rowsById("t").get(0L).getField("f")).isEqualTo(OffsetDateTime.parse(instant));
    }
  }

  private static final org.apache.iceberg.Schema TIMESTAMPTZ_TABLE =
      new org.apache.iceberg.Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "f", Types.TimestampType.withZone()));

  @Test
  void aZonelessTimestampStringIsABadRecordUnlessAZoneIsConfigured() throws Exception {
    List<SinkRecord> batch =
        List.of(
            schemaless(0, map("id", 0L, "f", "2024-03-01T12:00:00Z")),
            schemaless(1, map("id", 1L, "f", "2024-03-01T12:00:00")),
            schemaless(2, map("id", 2L, "f", "2024-03-01T13:00:00+01:00")));
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.createTable("t", TIMESTAMPTZ_TABLE);
      run.write(batch);
      assertOneBadRecord(run, 1, "f", "2024-03-01T12:00:00");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
      assertThat(run.rowsById("t").get(2L).getField("f"))
          .isEqualTo(OffsetDateTime.parse("2024-03-01T12:00:00Z"));
    }
    try (SinkWriterRun run =
        new SinkWriterRun(Map.of("iceberg.tables.local-timestamp-zone", "Europe/Paris"))) {
      run.createTable("t", TIMESTAMPTZ_TABLE);
      run.write(batch);
      assertThat(run.refused()).isEmpty();
      assertThat(run.rowsById("t").get(1L).getField("f"))
          .isEqualTo(OffsetDateTime.parse("2024-03-01T11:00:00Z"));
    }
  }

  static Stream<Arguments> timesOutOfRange() {
    return Stream.of(
        Arguments.of(
            SchemaBuilder.int64().name("io.debezium.time.MicroTime").build(), 86_400_000_000L),
        Arguments.of(SchemaBuilder.int64().name("io.debezium.time.MicroTime").build(), -1L),
        Arguments.of(SchemaBuilder.int32().name("io.debezium.time.Time").build(), 90_000_000),
        Arguments.of(
            SchemaBuilder.int64().name("io.debezium.time.NanoTime").build(), 86_400_000_000_000L),
        Arguments.of(org.apache.kafka.connect.data.Time.SCHEMA, new java.util.Date(86_400_000L)));
  }

  @ParameterizedTest
  @MethodSource("timesOutOfRange")
  void aTimeOutsideTheDayIsABadRecord(Schema field, Object outOfRange) throws Exception {
    Schema schema = withF(field);
    Object inRange;
    if (outOfRange instanceof java.util.Date) {
      inRange = new java.util.Date(3_600_000L);
    } else if (outOfRange instanceof Integer) {
      inRange = 3_600_000;
    } else if (field.name().endsWith("NanoTime")) {
      inRange = 3_600_000_000_000L;
    } else {
      inRange = 3_600_000_000L;
    }
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              record(0, schema, row(schema, 0, inRange)),
              record(1, schema, row(schema, 1, outOfRange)),
              record(2, schema, row(schema, 2, inRange))));
      assertOneBadRecord(run, 1, "f", null);
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
      // a long of microseconds since midnight, the default time type
      assertThat(run.rowsById("t").get(2L).getField("f")).isEqualTo(3_600_000_000L);
    }
  }

  @Test
  void aFiftyMegabyteStringIsWrittenWhole() throws Exception {
    char[] chars = new char[50 * 1024 * 1024];
    Arrays.fill(chars, 'x');
    chars[chars.length - 1] = 'y';
    String huge = new String(chars);
    Schema schema = withF(Schema.OPTIONAL_STRING_SCHEMA);
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              record(0, schema, row(schema, 0, "small")),
              record(1, schema, row(schema, 1, huge)),
              record(2, schema, row(schema, 2, "small"))));
      assertThat(run.refused()).isEmpty();
      String read = (String) run.rowsById("t").get(1L).getField("f");
      assertThat(read.length()).isEqualTo(huge.length());
      assertThat(read).endsWith("xy");
      // column bounds are truncated or left out, so manifests and control events stay small
      org.apache.iceberg.DataFile file;
      try (var tasks = run.table("t").newScan().includeColumnStats().planFiles()) {
        file = tasks.iterator().next().file();
      }
      if (file.upperBounds() != null && file.upperBounds().containsKey(2)) {
        assertThat(file.upperBounds().get(2).remaining()).isLessThan(64);
      }
      assertThat(file.recordCount()).isEqualTo(3);
    }
  }

  /** A schemaless value {@code levels} deep: {@code {v: 1, child: {v: 2, child: ...}}}. */
  private static Map<String, Object> nested(int levels) {
    Map<String, Object> inner = null;
    for (int level = levels; level >= 1; level--) {
      Map<String, Object> map = new HashMap<>();
      map.put("v", (long) level);
      if (inner != null) {
        map.put("child", inner);
      }
      inner = map;
    }
    return inner;
  }

  @Test
  void aRecordNested200DeepIsWrittenAndOneTooDeepIsABadRecordWithItsReason() throws Exception {
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              schemaless(0, map("id", 0L, "n", nested(200))),
              schemaless(1, map("id", 1L, "n", nested(5_000))),
              schemaless(2, map("id", 2L, "n", nested(200)))));
      assertOneBadRecord(run, 1, "levels of nesting", null);
      Map<Long, org.apache.iceberg.data.Record> rows = run.rowsById("t");
      assertThat(rows).containsOnlyKeys(0L, 2L);
      org.apache.iceberg.data.Record level =
          (org.apache.iceberg.data.Record) rows.get(2L).getField("n");
      int depth = 1;
      while (level.getField("child") != null) {
        level = (org.apache.iceberg.data.Record) level.getField("child");
        depth++;
      }
      assertThat(depth).isEqualTo(200);
      assertThat(level.getField("v")).isEqualTo(200L);
    }
  }

  @Test
  void mapKeysKeepTheirTypeAndANullKeyIsABadRecord() throws Exception {
    Schema schema =
        withF(SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA).build());
    Map<Integer, String> withNullKey = new HashMap<>();
    withNullKey.put(null, "x");
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              record(0, schema, row(schema, 0, Map.of(1, "one", 2, "two"))),
              schemaless(1, map("id", 1L, "m", Map.of(1L, "one"))),
              record(2, schema, row(schema, 2, Map.of(3, "three")))));
      assertThat(run.table("t").schema().findType("f"))
          .isEqualTo(
              Types.MapType.ofOptional(3, 4, Types.IntegerType.get(), Types.StringType.get()));
      assertThat(run.rowsById("t").get(0L).getField("f")).isEqualTo(Map.of(1, "one", 2, "two"));
      assertOneBadRecord(run, 1, "m", "one");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
    }
  }

  @Test
  void aNullElementInAListOfRequiredElementsIsABadRecord() throws Exception {
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.createTable(
          "t",
          new org.apache.iceberg.Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(
                  2, "f", Types.ListType.ofRequired(3, Types.LongType.get()))));
      run.write(
          List.of(
              schemaless(0, map("id", 0L, "f", List.of(1L, 2L))),
              schemaless(1, map("id", 1L, "f", Arrays.asList(1L, null))),
              schemaless(2, map("id", 2L, "f", List.of(3L)))));
      assertOneBadRecord(run, 1, "f[]", null);
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 2L);
      assertThat(run.rowsById("t").get(0L).getField("f")).isEqualTo(List.of(1L, 2L));
    }
  }

  @Test
  void fieldNamesWithDotsSpacesUnicodeAndLeadingDigitsAreKeptAsTheyAre() throws Exception {
    List<String> names = List.of("a.b", "with space", "größe", "名前", "1st", "id");
    SchemaBuilder builder = SchemaBuilder.struct();
    names.forEach(
        name ->
            builder.field(
                name, name.equals("id") ? Schema.INT64_SCHEMA : Schema.OPTIONAL_STRING_SCHEMA));
    Schema schema = builder.build();
    Struct value = new Struct(schema);
    names.forEach(name -> value.put(name, name.equals("id") ? (Object) 0L : "v-" + name));
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(List.of(record(0, schema, value)));
      assertThat(run.refused()).isEmpty();
      assertThat(run.table("t").schema().columns())
          .extracting(Types.NestedField::name)
          .containsExactlyElementsOf(names);
      org.apache.iceberg.data.Record row = run.rowsById("t").get(0L);
      for (String name : names) {
        if (!name.equals("id")) {
          assertThat(row.getField(name)).as(name).isEqualTo("v-" + name);
        }
      }
    }
  }

  @Test
  void fieldNamesEqualButForCaseAreABadRecord() throws Exception {
    Schema clash =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("ID", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    Schema nested =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field(
                "s",
                SchemaBuilder.struct()
                    .optional()
                    .field("Name", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("name", Schema.OPTIONAL_STRING_SCHEMA)
                    .build())
            .build();
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              record(0, ID_ONLY, new Struct(ID_ONLY).put("id", 0L)),
              record(1, clash, new Struct(clash).put("id", 1L).put("ID", 1L)),
              schemaless(2, map("id", 2L, "Kind", "a", "kind", "b")),
              record(3, nested, new Struct(nested).put("id", 3L)),
              record(4, ID_ONLY, new Struct(ID_ONLY).put("id", 4L))));
      assertThat(run.refused()).extracting(Refused::offset).containsExactly(1L, 2L, 3L);
      assertThat(run.refused().get(0).message()).contains("ID").contains("id");
      assertThat(run.refused().get(1).message()).contains("Kind").contains("kind");
      assertThat(run.refused().get(2).message()).contains("s.Name").contains("s.name");
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 4L);
      assertThat(run.table("t").schema().columns()).hasSize(1);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"_file", "_pos", "_partition", "_spec_id", "_deleted", "_row_id", "_kafka"})
  void reservedColumnNamesAreABadRecord(String reserved) throws Exception {
    Schema schema = withF(Schema.OPTIONAL_STRING_SCHEMA);
    Schema bad =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field(reserved, Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    try (SinkWriterRun run =
        new SinkWriterRun(Map.of("iceberg.tables.kafka-metadata-column", "_kafka"))) {
      run.write(
          List.of(
              record(0, bad, new Struct(bad).put("id", 0L).put(reserved, "x")),
              record(1, schema, row(schema, 1, "ok")),
              schemaless(2, map("id", 2L, reserved, "y")),
              record(3, bad, new Struct(bad).put("id", 3L).put(reserved, "z"))));
      assertThat(run.refused()).extracting(Refused::offset).containsExactly(0L, 2L, 3L);
      assertThat(run.refused()).allSatisfy(r -> assertThat(r.message()).contains(reserved));
      assertThat(run.rowsById("t")).containsOnlyKeys(1L);
    }
  }

  @Test
  void nanAndInfinityAreWrittenAndFoundByFiltersButNeverIntoADecimal() throws Exception {
    Schema schema = withF(Schema.OPTIONAL_FLOAT64_SCHEMA);
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.write(
          List.of(
              record(0, schema, row(schema, 0, Double.NaN)),
              record(1, schema, row(schema, 1, Double.POSITIVE_INFINITY)),
              record(2, schema, row(schema, 2, Double.NEGATIVE_INFINITY)),
              record(3, schema, row(schema, 3, 1.5))));
      assertThat(run.refused()).isEmpty();
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 1L, 2L, 3L);
      assertThat((Double) run.rowsById("t").get(0L).getField("f")).isNaN();
      // no row is lost to a filter: NaN sorts above every number, as in Iceberg and Spark
      assertThat(run.rows("t", Expressions.greaterThan("f", 1.0)))
          .extracting(r -> r.getField("id"))
          .containsExactlyInAnyOrder(0L, 1L, 3L);
      assertThat(run.rows("t", Expressions.lessThan("f", 0.0)))
          .extracting(r -> r.getField("id"))
          .containsExactly(2L);
      assertThat(run.rows("t", Expressions.isNaN("f"))).hasSize(1);
      try (var tasks = run.table("t").newScan().includeColumnStats().planFiles()) {
        assertThat(tasks.iterator().next().file().nanValueCounts()).containsEntry(2, 1L);
      }
    }
    try (SinkWriterRun run = new SinkWriterRun()) {
      run.createTable(
          "t",
          new org.apache.iceberg.Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "f", Types.DecimalType.of(10, 2))));
      run.write(
          List.of(
              schemaless(0, map("id", 0L, "f", 1.5)),
              schemaless(1, map("id", 1L, "f", Double.NaN)),
              schemaless(2, map("id", 2L, "f", Double.POSITIVE_INFINITY)),
              schemaless(3, map("id", 3L, "f", 2.25))));
      assertThat(run.refused()).extracting(Refused::offset).containsExactly(1L, 2L);
      assertThat(run.rowsById("t")).containsOnlyKeys(0L, 3L);
      assertThat(run.rowsById("t").get(0L).getField("f")).isEqualTo(new BigDecimal("1.50"));
    }
  }

  @Test
  void aRecordRoutedToTwoTablesIsWrittenToBothOrToNeither() throws Exception {
    try (SinkWriterRun run =
        new SinkWriterRun(
            Map.of(
                "iceberg.tables",
                "db.loose,db.strict",
                "iceberg.tables.evolve-schema-enabled",
                "false"))) {
      // the loose table has no column f, so it takes any record
      run.createTable(
          "loose",
          new org.apache.iceberg.Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      run.createTable(
          "strict",
          new org.apache.iceberg.Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "f", Types.LongType.get())));
      Schema asText = withF(Schema.OPTIONAL_STRING_SCHEMA);
      Schema asNumber = withF(Schema.OPTIONAL_INT64_SCHEMA);
      run.write(
          List.of(
              record(0, asNumber, row(asNumber, 0, 7L)),
              record(1, asText, row(asText, 1, "seven")),
              record(2, asNumber, row(asNumber, 2, 8L))));
      assertThat(run.refused()).extracting(Refused::offset).containsExactly(1L);
      assertThat(run.refused().get(0).table()).isEqualTo("db.strict");
      assertThat(run.rowsById("strict")).containsOnlyKeys(0L, 2L);
      assertThat(run.rowsById("loose")).containsOnlyKeys(0L, 2L);
      assertThat(run.nextOffset()).isEqualTo(3);
    }
  }
}
