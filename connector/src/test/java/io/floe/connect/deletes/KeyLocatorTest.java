/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteRules.checkDeletes;
import static io.floe.connect.deletes.DeleteTables.append;
import static io.floe.connect.deletes.DeleteTables.ids;
import static io.floe.connect.deletes.DeleteTables.keys;
import static io.floe.connect.deletes.DeleteTables.read;
import static io.floe.connect.deletes.DeleteTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pruned scan: which files it plans and reads, and which rows it finds. */
class KeyLocatorTest {
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  @RegisterExtension final DeleteTables tables = new DeleteTables();

  /** Ten files of 100 ids each, 1–100 in the first, 901–1000 in the last. */
  private Table clustered(Map<String, String> properties) {
    Table table = tables.create(DeleteTables.SCHEMA, PartitionSpec.unpartitioned(), 3, properties);
    for (long first = 1; first <= 1000; first += 100) {
      append(table, rows(first, first + 99, "a"));
    }
    return table;
  }

  private static LocatedRows locate(Table table, RetiredKeys keys) {
    return new KeyLocator(table).locate(table.currentSnapshot(), keys);
  }

  @Test
  void clusteredKeysReadOnlyTheFileThatHoldsThem() {
    Table table = clustered(Map.of());

    LocatedRows rows = locate(table, keys(table, 301, 320, 350, 399, 400));

    assertThat(rows.stats().dataFilesInSnapshot()).isEqualTo(10);
    assertThat(rows.stats().filesPlanned()).isEqualTo(1);
    assertThat(rows.stats().filesRead()).isEqualTo(1);
    assertThat(rows.stats().rowsRead()).isEqualTo(100);
    assertThat(rows.stats().keysMatched()).isEqualTo(5);
    assertThat(rows.files())
        .singleElement()
        .satisfies(file -> assertPositions(file, 0, 19, 49, 98, 99));
  }

  private static void assertPositions(LocatedRows.FileRows file, long... positions) {
    assertThat(file.positions()).containsExactly(positions);
  }

  @Test
  void manyClusteredKeysAreCheckedAgainstEachFilesBounds() {
    Table table = clustered(Map.of());
    // 250 keys: too many for Iceberg to check an in-list against bounds, so it plans every file
    // within their range (301–850); the keys themselves rule out the files of 401–700
    long[] ids =
        LongStream.concat(LongStream.rangeClosed(301, 400), LongStream.rangeClosed(701, 850))
            .toArray();

    LocatedRows rows = locate(table, keys(table, ids));

    assertThat(rows.stats().filesPlanned()).isEqualTo(6);
    assertThat(rows.stats().filesRead()).isEqualTo(3);
    assertThat(rows.stats().keysMatched()).isEqualTo(250);
    assertThat(rows.rowCount()).isEqualTo(250);
  }

  @Test
  void readsOnTheCallingThreadAsOnAPool() {
    Table table = clustered(Map.of());
    RetiredKeys keys = keys(table, 5, 150, 151, 777, 1001);

    LocatedRows pooled = new KeyLocator(table).locate(table.currentSnapshot(), keys);
    LocatedRows here = new KeyLocator(table, null).locate(table.currentSnapshot(), keys);

    assertThat(positionsByFile(here)).hasSize(3).isEqualTo(positionsByFile(pooled));
    assertThat(here.stats().keysMatched()).isEqualTo(pooled.stats().keysMatched()).isEqualTo(4);
    assertThat(here.stats().rowsRead()).isEqualTo(pooled.stats().rowsRead()).isEqualTo(300);
  }

  /** The positions found, by data file: files come in planning order, which varies. */
  private static Map<String, List<Long>> positionsByFile(LocatedRows rows) {
    Map<String, List<Long>> positions = new HashMap<>();
    rows.files()
        .forEach(
            file ->
                positions.put(
                    file.file().location(), LongStream.of(file.positions()).boxed().toList()));
    return positions;
  }

  @Test
  void randomKeysReadEveryFile() {
    Table table = clustered(Map.of());

    LocatedRows rows = locate(table, keys(table, 5, 150, 250, 399, 404, 555, 666, 777, 888, 999));

    assertThat(rows.stats().filesPlanned()).isEqualTo(10);
    assertThat(rows.stats().filesRead()).isEqualTo(10);
    assertThat(rows.stats().rowsRead()).isEqualTo(1000);
    assertThat(rows.stats().keysMatched()).isEqualTo(10);
  }

  @Test
  void filesWithoutColumnBoundsAreReadAndStillMatchExactly() {
    Table table = clustered(Map.of(TableProperties.DEFAULT_WRITE_METRICS_MODE, "counts"));

    LocatedRows rows = locate(table, keys(table, 301, 999, 1001));

    assertThat(rows.stats().filesPlanned()).isEqualTo(10);
    assertThat(rows.stats().filesRead()).isEqualTo(10);
    assertThat(rows.stats().keysMatched()).isEqualTo(2);
    assertThat(rows.rowCount()).isEqualTo(2);
  }

  @Test
  void partitionsOfAKeyColumnPruneFiles() {
    Table table = tables.create("bucket", 3);
    append(table, rows(1, 40, "a"));

    LocatedRows rows = locate(table, keys(table, 7));

    assertThat(rows.stats().dataFilesInSnapshot()).isEqualTo(4);
    assertThat(rows.stats().filesPlanned()).isEqualTo(1);
    assertThat(rows.rowCount()).isEqualTo(1);
  }

  @Test
  void aCompositeKeyMatchesOnEveryColumn() {
    Schema schema =
        new Schema(DeleteTables.SCHEMA.columns(), Set.of(1, 2)); // keyed by (id, region)
    Table table =
        tables.create(
            schema, PartitionSpec.builderFor(schema).identity("region").build(), 3, Map.of());
    List<Record> rows = new ArrayList<>();
    rows.add(record(schema, 1, "eu"));
    rows.add(record(schema, 1, "us"));
    rows.add(record(schema, 2, "eu"));
    rows.add(record(schema, 2, "us"));
    append(table, rows);
    Schema keySchema = schema.select("id", "region");
    RetiredKeys keys =
        RetiredKeys.of(
            schema, Set.of(1, 2), List.of(key(keySchema, 1, "us"), key(keySchema, 2, "eu")));

    UpsertCommitTest.commit(table, keys, List.of());

    assertThat(read(table))
        .extracting(row -> row.getField("id") + "/" + row.getField("region"))
        .containsExactlyInAnyOrder("1/eu", "2/us");
    checkDeletes(table);
  }

  @Test
  void timestampAndStringKeysAreGivenAsIcebergValues() {
    Schema schema =
        new Schema(
            List.of(
                Types.NestedField.required(1, "ts", Types.TimestampType.withZone()),
                Types.NestedField.required(2, "device", Types.StringType.get()),
                Types.NestedField.optional(3, "reading", Types.LongType.get())),
            Set.of(1, 2));
    Table table =
        tables.create(schema, PartitionSpec.builderFor(schema).day("ts").build(), 2, Map.of());
    List<Record> rows = new ArrayList<>();
    for (int day = 0; day < 3; day++) {
      for (String device : List.of("d1", "d2")) {
        GenericRecord row = GenericRecord.create(schema);
        row.setField(
            "ts",
            OffsetDateTime.ofInstant(Instant.ofEpochSecond(day * 86_400L + 60), ZoneOffset.UTC));
        row.setField("device", device);
        row.setField("reading", (long) day);
        rows.add(row);
      }
    }
    append(table, rows);
    GenericRecord key = GenericRecord.create(schema.select("ts", "device"));
    key.setField("ts", MICROS_PER_DAY + 60_000_000L);
    key.setField("device", "d2");
    RetiredKeys keys = RetiredKeys.of(schema, Set.of(1, 2), List.of(key));

    UpsertCommit.Outcome outcome = UpsertCommitTest.commit(table, keys, List.of());

    assertThat(outcome.resolution().filesPlanned()).isEqualTo(1);
    assertThat(outcome.resolution().rowsMatched()).isEqualTo(1);
    assertThat(read(table))
        .extracting(row -> row.getField("reading") + "/" + row.getField("device"))
        .containsExactlyInAnyOrder("0/d1", "0/d2", "1/d1", "2/d1", "2/d2");
    checkDeletes(table);
  }

  @Test
  void noSnapshotOrNoKeysLocateNothing() {
    Table table = tables.create("unpartitioned", 3);

    assertThat(locate(table, keys(table, 1)).isEmpty()).isTrue();
    append(table, rows(1, 3, "a"));
    LocatedRows none = locate(table, keys(table));
    assertThat(none.isEmpty()).isTrue();
    assertThat(none.stats().filesPlanned()).isZero();
  }

  @Test
  void aFormatOneTableIsRefusedDeletes() {
    Table table = tables.create("unpartitioned", 1);
    append(table, rows(1, 3, "a"));
    LocatedRows rows = locate(table, keys(table, 2));

    assertThat(rows.rowCount()).isEqualTo(1);
    assertThatThrownBy(() -> new DeleteWriter(table).write(rows, "floe-test"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("format v1");
    assertThat(ids(table)).containsExactly(1L, 2L, 3L);
  }

  private static Record record(Schema schema, long id, String region) {
    GenericRecord row = GenericRecord.create(schema);
    row.setField("id", id);
    row.setField("region", region);
    return row;
  }

  private static StructLike key(Schema keySchema, long id, String region) {
    GenericRecord key = GenericRecord.create(keySchema);
    key.setField("id", id);
    key.setField("region", region);
    return key;
  }
}
