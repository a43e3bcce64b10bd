/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteTables.append;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The key scan finds, in every file, exactly the rows the generic read finds: for keys of every
 * type it reads, one column and several, ASCII and other strings, dictionary-encoded and plain
 * columns, an int column widened to long, files with deletion vectors and without.
 */
class ParquetKeyScanTest {
  @RegisterExtension final DeleteTables tables = new DeleteTables();

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "name", Types.StringType.get()),
          Types.NestedField.required(3, "day", Types.DateType.get()),
          Types.NestedField.required(4, "ts", Types.TimestampType.withZone()),
          Types.NestedField.required(5, "u", Types.UUIDType.get()),
          Types.NestedField.required(6, "code", Types.FixedType.ofLength(3)),
          Types.NestedField.optional(7, "n", Types.IntegerType.get()),
          Types.NestedField.optional(8, "blob", Types.BinaryType.get()));

  private static final List<String> NAMES =
      List.of("alpha", "m\u00fcller", "\u6771\u4eac", "emoji \uD83D\uDE00", "", "zeta");

  private static List<Record> rows(Schema schema, long from, int count, Random random) {
    List<Record> rows = new ArrayList<>();
    for (long id = from; id < from + count; id++) {
      GenericRecord row = GenericRecord.create(schema);
      row.setField("id", id);
      // a few names, so the column is dictionary-encoded; every 7th one unique
      row.setField(
          "name", id % 7 == 0 ? "n" + id + "\u00e9" : NAMES.get(random.nextInt(NAMES.size())));
      row.setField("day", LocalDate.ofEpochDay(random.nextInt(40)));
      row.setField(
          "ts", OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(id * 13));
      row.setField("u", new UUID(random.nextLong(), random.nextLong()));
      row.setField("code", new byte[] {(byte) id, (byte) (id >> 8), (byte) random.nextInt()});
      boolean widened = schema.findType("n").equals(Types.LongType.get());
      Integer n = id % 5 == 0 ? null : random.nextInt(50);
      Object value = widened && n != null ? (Object) Long.valueOf(n) : (Object) n;
      row.setField("n", value);
      byte[] blob = new byte[random.nextInt(4)];
      random.nextBytes(blob);
      row.setField("blob", ByteBuffer.wrap(blob));
      rows.add(row);
    }
    return rows;
  }

  @Test
  void theScanFindsTheRowsTheGenericReadFinds() {
    Random random = new Random(11);
    Table table = tables.create(SCHEMA, PartitionSpec.unpartitioned(), 3, Map.of());
    append(table, rows(table.schema(), 0, 3_000, random));
    append(table, rows(table.schema(), 3_000, 500, random));
    // deletion vectors on both files
    UpsertCommitTest.commit(table, DeleteTables.keys(table, 5, 17, 2_999, 3_001), List.of());
    table.updateSchema().updateColumn("n", Types.LongType.get()).commit();
    append(table, rows(table.schema(), 3_500, 800, random));
    table.refresh();

    List<Set<Integer>> keyColumns =
        List.of(
            Set.of(1),
            Set.of(2),
            Set.of(3),
            Set.of(4),
            Set.of(5),
            Set.of(6),
            Set.of(7),
            Set.of(8),
            Set.of(2, 3),
            Set.of(1, 2, 5),
            Set.of(3, 7, 8));
    for (Set<Integer> columns : keyColumns) {
      Schema keySchema = table.schema().select(names(table.schema(), columns));
      RetiredKeys keys = someKeys(table, keySchema, columns, random);
      ParquetKeyScan scan = ParquetKeyScan.of(keys);
      assertThat(scan).as("a scan of %s", columns).isNotNull();
      LiveKeyReader generic = LiveKeyReader.allRows(table, keySchema);
      int files = 0;
      for (FileScanTask task : DeleteTables.tasks(table)) {
        Set<String> expected = new TreeSet<>();
        long[] expectedLive = new long[1];
        PositionDeleteIndex deleted =
            generic.visit(
                task,
                true,
                (key, position) -> {
                  expectedLive[0]++;
                  int ordinal = keys.ordinal(key);
                  if (ordinal >= 0) {
                    expected.add(ordinal + "@" + position);
                  }
                });
        Set<String> found = new TreeSet<>();
        long live =
            scan.scan(
                table.io(),
                task.file(),
                deleted,
                (ordinal, position) -> found.add(ordinal + "@" + position));
        assertThat(live)
            .as(
                "live rows of %s by %s (no bounds: every row group read)",
                task.file().location(), columns)
            .isEqualTo(expectedLive[0]);
        assertThat(found)
            .as("rows of %s by %s", task.file().location(), columns)
            .isEqualTo(expected);
        files++;
      }
      assertThat(files).isEqualTo(3);
    }
  }

  @Test
  void rowGroupsWhoseStatisticsHoldNoKeyAreSkippedAndTheRestReadAtTheirPositions() {
    Table table =
        tables.create(
            SCHEMA,
            PartitionSpec.unpartitioned(),
            3,
            Map.of(
                "write.parquet.row-group-size-bytes", "1",
                "write.parquet.row-group-check-min-record-count", "100",
                "write.parquet.row-group-check-max-record-count", "100"));
    append(table, rows(table.schema(), 0, 1_000, new Random(3)));
    FileScanTask task = DeleteTables.tasks(table).get(0);
    RetiredKeys keys = DeleteTables.keys(table, 5, 550, 551, 999);
    ParquetKeyScan scan = ParquetKeyScan.of(keys, KeyBounds.of(keys));

    Set<String> found = new TreeSet<>();
    long read =
        scan.scan(
            table.io(),
            task.file(),
            null,
            (ordinal, position) ->
                found.add(keys.key(ordinal).get(0, Long.class) + "@" + position));

    assertThat(found).containsExactly("550@550", "551@551", "5@5", "999@999");
    // row groups of 100 rows: the three that hold a key are read, the other seven skipped
    assertThat(read).isEqualTo(300);
    assertThat(ParquetKeyScan.of(keys).scan(table.io(), task.file(), null, (o, p) -> {}))
        .isEqualTo(1_000);
  }

  @Test
  void keysOfOtherTypesAreNotScanned() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.DoubleType.get()),
            Types.NestedField.required(
                2,
                "s",
                Types.StructType.of(Types.NestedField.required(3, "x", Types.LongType.get()))));
    assertThat(ParquetKeyScan.of(RetiredKeys.of(schema, Set.of(1), List.of()))).isNull();
    assertThat(ParquetKeyScan.of(RetiredKeys.of(schema, Set.of(3), List.of()))).isNull();
  }

  private static String[] names(Schema schema, Set<Integer> ids) {
    return ids.stream().map(schema::findColumnName).toArray(String[]::new);
  }

  /** About a third of the table's keys, read as the generic read gives them. */
  private static RetiredKeys someKeys(
      Table table, Schema keySchema, Set<Integer> columns, Random random) {
    RetiredKeys.Builder builder = RetiredKeys.builder(table.schema(), new HashSet<>(columns));
    LiveKeyReader all = LiveKeyReader.allRows(table, keySchema);
    for (FileScanTask task : DeleteTables.tasks(table)) {
      all.visit(
          task,
          true,
          (key, position) -> {
            if (random.nextInt(3) == 0) {
              try {
                builder.add(key);
              } catch (IllegalArgumentException e) {
                // a key with a null column value is no key
              }
            }
          });
    }
    return builder.build();
  }
}
