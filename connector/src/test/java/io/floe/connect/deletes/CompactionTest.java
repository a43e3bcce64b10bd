/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteTables.append;
import static io.floe.connect.deletes.DeleteTables.keys;
import static io.floe.connect.deletes.DeleteTables.read;
import static io.floe.connect.deletes.DeleteTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.maintain.Compaction;
import io.floe.connect.maintain.DeletionVectorRewrite;
import io.floe.connect.maintain.Marks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compaction on real tables with deletion vectors (v3) and position deletes (v2): the table reads
 * the same rows after it, with fewer files and none of the rewritten files' deletes, and a
 * compaction that conflicts with a later commit gives way.
 */
class CompactionTest {
  private static final Compaction.Settings EAGER = new Compaction.Settings(2, 0.3, Long.MAX_VALUE);

  private static final java.util.concurrent.ExecutorService THREADS =
      org.apache.iceberg.util.ThreadPools.getWorkerPool();

  @RegisterExtension final DeleteTables tables = new DeleteTables();

  static Stream<Arguments> tables() {
    return Stream.of(2, 3)
        .flatMap(
            version -> Stream.of("unpartitioned", "region").map(s -> Arguments.of(version, s)));
  }

  private static List<String> sorted(Table table) {
    List<String> rows = new ArrayList<>();
    for (Record row : read(table)) {
      // the table's columns only: a row read with its file's deletes also carries its position
      rows.add(row.get(0) + "," + row.get(1) + "," + row.get(2) + "," + row.get(3));
    }
    rows.sort(null);
    return rows;
  }

  private static int partitions(Table table) {
    return (int)
        DeleteTables.tasks(table).stream()
            .map(task -> task.file().partition().toString())
            .distinct()
            .count();
  }

  private static long deleteFiles(Table table) {
    return DeleteTables.tasks(table).stream().mapToLong(task -> task.deletes().size()).sum();
  }

  /** Six small files of twenty rows, then three keys retired from two of them. */
  private Table smallFilesWithDeletes(int version, String spec) {
    Table table = tables.create(spec, version);
    for (int file = 0; file < 6; file++) {
      append(table, rows(file * 20, file * 20 + 19, "row"));
    }
    UpsertCommitTest.commit(table, keys(table, 3, 7, 45), List.of());
    table.refresh();
    return table;
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void smallFilesBecomeOnePerPartitionWithTheSameRowsAndTheirDeletesGone(int version, String spec) {
    Table table = smallFilesWithDeletes(version, spec);
    List<String> before = sorted(table);
    int partitions = partitions(table);
    assertThat(deleteFiles(table)).isPositive();

    Compaction.Result result = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false);

    assertThat(result.groups()).isEqualTo(partitions);
    assertThat(result.groupsDropped()).isZero();
    assertThat(DeleteTables.tasks(table)).hasSize(partitions);
    assertThat(deleteFiles(table)).isZero();
    assertThat(sorted(tables.load(table))).isEqualTo(before).hasSize(117);
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    DeleteRules.checkDeletes(table);
  }

  /**
   * On a v3 table a row keeps its identity across a compaction: each live row reads with the same
   * {@code _row_id} and {@code _last_updated_sequence_number} after it as before, though it now
   * lives in another file, and rows appended after the compaction get ids of their own.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"unpartitioned", "region"})
  void rowsKeepTheirLineageAcrossACompactionOfAV3Table(String spec) {
    Table table = smallFilesWithDeletes(3, spec);
    Map<Object, String> before = lineage(table);
    assertThat(before).hasSize(117);
    assertThat(before.values()).doesNotHaveDuplicates();

    Compaction.Result result = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false);
    assertThat(result.filesRewritten()).isPositive();

    table.refresh();
    assertThat(lineage(table)).isEqualTo(before);
    append(table, rows(1000, 1009, "row"));
    Map<Object, String> after = lineage(table);
    assertThat(after).hasSize(127);
    assertThat(after.values()).doesNotHaveDuplicates();
  }

  /**
   * A Puffin file whose vectors later commits replaced, all but one, is mostly dead: its live
   * vector is written anew, with the same rows deleted and the same data sequence number, and
   * nothing references the old file any more; a file whose vectors all live is left alone.
   */
  @Test
  void theLiveVectorsOfAMostlyDeadPuffinFileAreWrittenAnew() {
    Table table = tables.create("unpartitioned", 3);
    for (int file = 0; file < 4; file++) {
      append(table, rows(file * 20, file * 20 + 19, "row"));
    }
    UpsertCommitTest.commit(table, keys(table, 0, 20, 40, 60), List.of());
    UpsertCommitTest.commit(table, keys(table, 1, 21, 41), List.of());
    table.refresh();
    Map<String, DeleteFile> before = vectors(table);
    String mostlyDead = before.get(dataFileOf(table, 60)).location();
    List<String> rows = sorted(tables.load(table));

    DeletionVectorRewrite.Result result = DeletionVectorRewrite.rewrite(table, Marks.NONE, THREADS);

    assertThat(result.puffinFiles()).isEqualTo(1);
    assertThat(result.vectors()).isEqualTo(1);
    table.refresh();
    Map<String, DeleteFile> after = vectors(table);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    assertThat(after.values()).noneMatch(vector -> vector.location().equals(mostlyDead));
    DeleteFile moved = after.get(dataFileOf(table, 60));
    assertThat(moved.dataSequenceNumber())
        .isEqualTo(before.get(dataFileOf(table, 60)).dataSequenceNumber());
    assertThat(moved.recordCount()).isEqualTo(1);
    assertThat(sorted(tables.load(table))).isEqualTo(rows).hasSize(73);
    DeleteRules.checkDeletes(table);
    assertThat(DeletionVectorRewrite.rewrite(table, Marks.NONE, THREADS).vectors())
        .as("every Puffin file is live now")
        .isZero();
  }

  /**
   * A table with a sort order is compacted too: each new file holds its rows in that order and
   * names it, and the table reads the same rows.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aSortedTablesFilesAreRewrittenInItsSortOrder(int version) {
    Table table = tables.create("unpartitioned", version);
    table.replaceSortOrder().desc("id").commit();
    for (int file = 0; file < 4; file++) {
      append(table, rows(file * 20, file * 20 + 19, "row"));
    }
    UpsertCommitTest.commit(table, keys(table, 3, 45), List.of());
    table.refresh();
    List<String> before = sorted(tables.load(table));

    Compaction.Result result = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false);

    assertThat(result.filesRewritten()).isEqualTo(4);
    assertThat(sorted(tables.load(table))).isEqualTo(before).hasSize(78);
    List<FileScanTask> files = DeleteTables.tasks(table);
    assertThat(files).hasSize(1);
    assertThat(files.get(0).file().sortOrderId()).isEqualTo(table.sortOrder().orderId());
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows =
        new io.floe.connect.files.TaskRows(table).open(files.get(0), table.schema(), true, false)) {
      rows.forEach(row -> ids.add((Long) row.getField("id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(ids).hasSize(78).isSortedAccordingTo(java.util.Comparator.reverseOrder());
  }

  /** The live deletion vector of each data file, by the data file's location. */
  private static Map<String, DeleteFile> vectors(Table table) {
    Map<String, DeleteFile> vectors = new java.util.TreeMap<>();
    for (FileScanTask task : DeleteTables.tasks(table)) {
      for (DeleteFile delete : task.deletes()) {
        vectors.put(task.file().location(), delete);
      }
    }
    return vectors;
  }

  /**
   * The location of the data file holding the row {@code id}: files of 20 rows, appended in order.
   */
  private static String dataFileOf(Table table, long id) {
    for (FileScanTask task : DeleteTables.tasks(table)) {
      if (task.file().dataSequenceNumber() == id / 20 + 1) {
        return task.file().location();
      }
    }
    throw new AssertionError("no file holds " + id);
  }

  /** Each live row's id, with its {@code _row_id} and {@code _last_updated_sequence_number}. */
  private static Map<Object, String> lineage(Table table) {
    org.apache.iceberg.Schema schema = table.schema();
    org.apache.iceberg.Schema projection =
        org.apache.iceberg.MetadataColumns.schemaWithRowLineage(schema);
    io.floe.connect.files.TaskRows reader = new io.floe.connect.files.TaskRows(table);
    Map<Object, String> lineage = new java.util.HashMap<>();
    for (FileScanTask task : DeleteTables.tasks(table)) {
      org.apache.iceberg.data.GenericDeleteFilter deletes =
          new org.apache.iceberg.data.GenericDeleteFilter(table.io(), task, schema, projection);
      try (CloseableIterable<Record> rows =
          deletes.filter(reader.open(task, deletes.requiredSchema(), true, false))) {
        for (Record row : rows) {
          lineage.put(
              row.getField("id"),
              row.getField("_row_id") + "@" + row.getField("_last_updated_sequence_number"));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return lineage;
  }

  /**
   * A run whose time is up starts no further partition after its first: what is left is counted and
   * compacted by the next run, and no row is lost or doubled on the way.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aRunOutOfTimeCompactsOnePartitionAndLeavesTheRestForTheNext(int version) {
    Table table = smallFilesWithDeletes(version, "region");
    List<String> before = sorted(table);
    int partitions = partitions(table);
    assertThat(partitions).isGreaterThan(1);

    Compaction.Result first = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> true);

    assertThat(first.groups()).isEqualTo(1);
    assertThat(first.groupsLeft()).isEqualTo(partitions - 1);
    assertThat(sorted(tables.load(table))).isEqualTo(before);
    Compaction.Result second = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false);
    assertThat(second.groups()).isEqualTo(partitions - 1);
    assertThat(second.groupsLeft()).isZero();
    assertThat(DeleteTables.tasks(table)).hasSize(partitions);
    assertThat(sorted(tables.load(table))).isEqualTo(before);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aFileMostlyDeletedIsRewrittenAloneWhateverItsSize(int version) {
    Table table = tables.create("unpartitioned", version);
    append(table, rows(0, 99, "row"));
    // every file counts as large: only its deletes make it due
    table.updateProperties().set(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1").commit();
    long[] retired = new long[40];
    for (int i = 0; i < retired.length; i++) {
      retired[i] = i * 2L;
    }
    UpsertCommitTest.commit(table, keys(table, retired), List.of());
    table.refresh();
    List<String> before = sorted(table);

    Compaction.Result result = Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false);

    assertThat(result.filesRewritten()).isEqualTo(1);
    assertThat(deleteFiles(table)).isZero();
    assertThat(sorted(tables.load(table))).isEqualTo(before).hasSize(60);
    assertThat(DeleteTables.tasks(table).get(0).file().recordCount()).isEqualTo(60);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aCompactionPlannedBeforeADeleteCommittedGivesWayAndLeavesNothingBehind(int version) {
    Table table = smallFilesWithDeletes(version, "unpartitioned");
    Snapshot planned = table.currentSnapshot();
    // the connector's next commit retires keys of files the compaction is about to rewrite
    UpsertCommitTest.commit(table, keys(table, 21, 61), List.of());
    table.refresh();
    List<String> before = sorted(table);
    long snapshot = table.currentSnapshot().snapshotId();

    Compaction.Result result =
        Compaction.compact(table, EAGER, Marks.NONE, THREADS, planned, () -> false);

    assertThat(result.groupsDropped()).isEqualTo(1);
    assertThat(result.groups()).isZero();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(sorted(tables.load(table))).isEqualTo(before).hasSize(115);
    java.util.Set<String> written = RecordingFileIO.created(table.location(), "floe-compaction-");
    assertThat(written).isNotEmpty();
    for (String location : written) {
      assertThat(DeleteTables.exists(table, location)).as("%s", location).isFalse();
    }
    // the next run plans again from the table as it is, and succeeds
    assertThat(Compaction.compact(table, EAGER, Marks.NONE, THREADS, () -> false).groups())
        .isEqualTo(1);
    assertThat(sorted(tables.load(table))).isEqualTo(before);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void fewerSmallFilesThanTheMinimumAndNoHeavyDeletesAreLeftAlone(int version) {
    Table table = tables.create("unpartitioned", version);
    append(table, rows(0, 9, "row"));
    append(table, rows(10, 19, "row"));
    long snapshot = table.currentSnapshot().snapshotId();

    Compaction.Result result =
        Compaction.compact(
            table, new Compaction.Settings(3, 0.3, 1), Marks.NONE, THREADS, () -> false);

    assertThat(result.groups()).isZero();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    List<DeleteFile> none = new ArrayList<>();
    DeleteTables.tasks(table).forEach(task -> none.addAll(task.deletes()));
    assertThat(none).isEmpty();
  }
}
