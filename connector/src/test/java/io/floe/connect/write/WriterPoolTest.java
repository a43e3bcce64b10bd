/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static io.floe.connect.write.WriteTestTables.commitAndRead;
import static io.floe.connect.write.WriteTestTables.id;
import static io.floe.connect.write.WriteTestTables.ids;
import static io.floe.connect.write.WriteTestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriterPoolTest {
  private static final TopicPartition P0 = new TopicPartition("events", 0);
  private static final TopicPartition P1 = new TopicPartition("events", 1);
  private static final long T0 = 1_772_000_000_000L;
  private static final PartitionSpec BY_CATEGORY =
      PartitionSpec.builderFor(WriteTestTables.SCHEMA).identity("category").build();

  @TempDir Path dir;
  private WriteTestTables tables;
  private WriteTestTables onDisk;

  @AfterEach
  void tearDown() throws Exception {
    tables.close();
  }

  @BeforeEach
  void setUp() {
    tables = WriteTestTables.inMemory();
    onDisk = WriteTestTables.onDisk(dir);
  }

  /** The estimate of a file holding one row of the test schema with default table properties. */
  private static long oneRowFileEstimate(Table table) {
    return WriteSettings.resolve(table, Map.of()).memory().estimate(0, 1, 0);
  }

  private static Map<Integer, Long> filesPerCategory(List<DataFile> files) {
    return files.stream()
        .collect(
            Collectors.groupingBy(f -> f.partition().get(0, Integer.class), Collectors.counting()));
  }

  @Test
  void memoryBudgetClosesTheLeastRecentlyWrittenFiles() {
    Table table = tables.create("t", BY_CATEGORY);
    long perFile = oneRowFileEstimate(table);
    try (WriterPool pool =
        new WriterPool(new WriterPoolOptions(perFile * 7 / 2, 100), Map.of(), 0)) {
      TableWriter writer = pool.writerFor(id(table), tableId -> table);
      writer.write(P0, 0, T0, row(0, 1, "a", T0));
      writer.write(P0, 1, T0, row(1, 2, "a", T0));
      writer.write(P0, 2, T0, row(2, 3, "a", T0));
      writer.write(P0, 3, T0, row(3, 1, "a", T0)); // category 1 is now the most recent
      assertThat(pool.stats().openFiles()).isEqualTo(3);
      assertThat(pool.stats().filesClosedForMemory()).isZero();

      writer.write(P0, 4, T0, row(4, 4, "a", T0)); // over budget: 2 and 3 are closed
      assertThat(pool.stats().openFiles()).isEqualTo(2);
      assertThat(pool.stats().filesClosedForMemory()).isEqualTo(2);
      assertThat(pool.stats().pendingDataFiles()).isEqualTo(2);
      assertThat(pool.stats().bufferedBytesEstimate()).isLessThanOrEqualTo(perFile * 21 / 8);
      writer.write(P0, 5, T0, row(5, 1, "a", T0));
      writer.write(P0, 6, T0, row(6, 2, "a", T0)); // opens a new file for category 2

      WrittenFiles written = writer.complete();
      assertThat(pool.stats().pendingDataFiles()).isZero();
      assertThat(filesPerCategory(written.dataFiles()))
          .containsExactlyInAnyOrderEntriesOf(Map.of(1, 1L, 2, 2L, 3, 1L, 4, 1L));
      assertThat(written.offsets().get(P0)).isEqualTo(new OffsetRange(0, 6, 7, T0));
      assertThat(ids(commitAndRead(table, written.dataFiles())))
          .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    }
  }

  @Test
  void openFileLimitClosesTheLeastRecentlyWrittenFilesOfAnyTable() {
    Table first = tables.create("first", BY_CATEGORY);
    Table second = tables.create("second", BY_CATEGORY);
    try (WriterPool pool = new WriterPool(new WriterPoolOptions(Long.MAX_VALUE, 4), Map.of(), 0)) {
      TableWriter a = pool.writerFor(id(first), tableId -> first);
      TableWriter b = pool.writerFor(id(second), tableId -> second);
      a.write(P0, 0, T0, row(0, 1, "a", T0));
      b.write(P0, 1, T0, row(1, 1, "b", T0));
      a.write(P0, 2, T0, row(2, 2, "a", T0));
      b.write(P0, 3, T0, row(3, 2, "b", T0));
      a.write(P0, 4, T0, row(4, 1, "a", T0)); // first/1 is now the most recent
      a.write(P0, 5, T0, row(5, 3, "a", T0)); // limit reached: second/1 is closed first
      assertThat(pool.stats().openFiles()).isEqualTo(4);
      assertThat(pool.stats().filesClosedForOpenFiles()).isEqualTo(1);
      b.write(P0, 6, T0, row(6, 1, "b", T0)); // reopens second/1, closes first/2

      List<WrittenFiles> written = pool.complete();
      assertThat(written).extracting(WrittenFiles::table).containsExactly(id(first), id(second));
      Map<TableIdentifier, List<DataFile>> files = new HashMap<>();
      written.forEach(w -> files.put(w.table(), w.dataFiles()));
      assertThat(filesPerCategory(files.get(id(first))))
          .containsExactlyInAnyOrderEntriesOf(Map.of(1, 1L, 2, 1L, 3, 1L));
      assertThat(filesPerCategory(files.get(id(second))))
          .containsExactlyInAnyOrderEntriesOf(Map.of(1, 2L, 2, 1L));
      assertThat(pool.stats().filesClosedForOpenFiles()).isEqualTo(2);
      assertThat(ids(commitAndRead(first, files.get(id(first))))).containsExactly(0L, 2L, 4L, 5L);
      assertThat(ids(commitAndRead(second, files.get(id(second))))).containsExactly(1L, 3L, 6L);
    }
  }

  @Test
  void threeHundredPartitionsOfThreeTablesFitASmallBudgetAndLoseNothing() {
    int partitions = 300;
    int rowsPerPartition = 2;
    long budget = 16L * 1024 * 1024;
    List<Table> all = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      all.add(tables.create("t" + t, BY_CATEGORY));
    }
    try (WriterPool pool = new WriterPool(new WriterPoolOptions(budget, 64), Map.of(), 0)) {
      long offset = 0;
      long maxEstimate = 0;
      for (int c = 0; c < partitions; c++) {
        for (Table table : all) {
          TableWriter writer = pool.writerFor(id(table), tableId -> table);
          for (int r = 0; r < rowsPerPartition; r++) {
            writer.write(P0, offset, T0, row(offset, c, "n" + c, T0));
            offset++;
          }
          maxEstimate = Math.max(maxEstimate, pool.stats().bufferedBytesEstimate());
        }
      }
      // without the budget, 900 open Parquet files hold about 1.8 GiB, more than this JVM's heap
      WriterPoolStats stats = pool.stats();
      assertThat(maxEstimate).isLessThanOrEqualTo(budget);
      assertThat(stats.filesClosedForMemory()).isGreaterThan(870);
      assertThat(stats.recordsWritten()).isEqualTo(offset);

      List<WrittenFiles> written = pool.complete();
      assertThat(pool.stats().openFiles()).isZero();
      assertThat(pool.stats().filesWritten()).isEqualTo(3L * partitions);
      assertThat(written).hasSize(3);
      long expectedPerTable = (long) partitions * rowsPerPartition;
      for (WrittenFiles files : written) {
        Table table =
            all.stream().filter(t -> id(t).equals(files.table())).findFirst().orElseThrow();
        assertThat(files.dataFiles()).hasSize(partitions);
        assertThat(files.recordCount()).isEqualTo(expectedPerTable);
        List<Long> ids = ids(commitAndRead(table, files.dataFiles()));
        assertThat(ids).hasSize((int) expectedPerTable).doesNotHaveDuplicates();
      }
    }
  }

  @Test
  void withAFilePerSourcePartitionAbandonDropsTheRevokedPartitionsOfEveryTable() {
    Table first = tables.create("first", BY_CATEGORY);
    Table second = tables.create("second", PartitionSpec.unpartitioned());
    try (WriterPool pool =
        new WriterPool(WriterPoolOptions.defaults().withSharedFiles(false), Map.of(), 0)) {
      TableWriter a = pool.writerFor(id(first), tableId -> first);
      TableWriter b = pool.writerFor(id(second), tableId -> second);
      for (long i = 0; i < 20; i++) {
        a.write(i % 2 == 0 ? P0 : P1, i, T0, row(i, (int) (i % 3), "a", T0));
        b.write(i % 2 == 0 ? P0 : P1, i, T0, row(i, 0, "b", T0));
      }
      assertThat(pool.stats().openFiles()).isEqualTo(8);

      assertThat(pool.abandon(List.of(P1))).containsExactly(P1);

      assertThat(pool.stats().openFiles()).isEqualTo(4);
      assertThat(pool.stats().pendingDataFiles()).isZero();
      List<WrittenFiles> written = pool.complete();
      assertThat(written).hasSize(2).allSatisfy(w -> assertThat(w.offsets()).containsOnlyKeys(P0));
      List<Long> evens = LongStream.range(0, 10).map(i -> i * 2).boxed().toList();
      assertThat(ids(commitAndRead(first, written.get(0).dataFiles()))).isEqualTo(evens);
      assertThat(ids(commitAndRead(second, written.get(1).dataFiles()))).isEqualTo(evens);
    }
  }

  @Test
  void sharedFilesHoldTheRowsOfSeveralSourcePartitions() {
    Table table = tables.create("t", BY_CATEGORY);
    WriterPoolOptions shared = WriterPoolOptions.defaults();
    try (WriterPool pool = new WriterPool(shared, Map.of(), 0)) {
      TableWriter writer = pool.writerFor(id(table), tableId -> table);
      for (long i = 0; i < 20; i++) {
        writer.write(i % 2 == 0 ? P0 : P1, 100 + i, T0 + i, row(i, (int) (i % 3), "a", T0));
      }
      assertThat(pool.stats().openFiles()).isEqualTo(3);

      WrittenFiles written = writer.complete();

      assertThat(filesPerCategory(written.dataFiles()))
          .containsExactlyInAnyOrderEntriesOf(Map.of(0, 1L, 1, 1L, 2, 1L));
      assertThat(written.offsets())
          .containsEntry(P0, new OffsetRange(100, 118, 10, T0 + 18))
          .containsEntry(P1, new OffsetRange(101, 119, 10, T0 + 19));
      assertThat(ids(commitAndRead(table, written.dataFiles())))
          .containsExactlyElementsOf(LongStream.range(0, 20).boxed().toList());
    }
  }

  @Test
  void withSharedFilesAbandonFollowsThePartitionsThatShareFilesIntoOtherTables() {
    TopicPartition p2 = new TopicPartition("events", 2);
    TopicPartition p3 = new TopicPartition("events", 3);
    Table a = tables.create("a", PartitionSpec.unpartitioned());
    Table b = tables.create("b", PartitionSpec.unpartitioned());
    Table c = tables.create("c", PartitionSpec.unpartitioned());
    WriterPoolOptions shared = WriterPoolOptions.defaults();
    try (WriterPool pool = new WriterPool(shared, Map.of(), 0)) {
      TableWriter wa = pool.writerFor(id(a), tableId -> a);
      TableWriter wb = pool.writerFor(id(b), tableId -> b);
      TableWriter wc = pool.writerFor(id(c), tableId -> c);
      wa.write(P0, 0, T0, row(0, 0, "a", T0));
      wa.write(P1, 0, T0, row(1, 0, "a", T0));
      wb.write(P1, 1, T0, row(2, 0, "b", T0));
      wb.write(p2, 0, T0, row(3, 0, "b", T0));
      wc.write(p3, 0, T0, row(4, 0, "c", T0));

      assertThat(pool.abandon(List.of(P0))).containsExactlyInAnyOrder(P0, P1, p2);

      List<WrittenFiles> written = pool.complete();
      assertThat(written).singleElement().satisfies(w -> assertThat(w.table()).isEqualTo(id(c)));
      assertThat(written.get(0).offsets()).containsOnlyKeys(p3);
      assertThat(pool.stats().pendingDataFiles()).isZero();
    }
  }

  @Test
  void countsRecordsFilesAndBytes() {
    Table table = tables.create("t", BY_CATEGORY);
    try (WriterPool pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0)) {
      TableWriter writer = pool.writerFor(id(table), tableId -> table);
      for (long i = 0; i < 30; i++) {
        writer.write(P0, i, T0, row(i, (int) (i % 3), "x", T0));
      }
      WriterPoolStats open = pool.stats();
      assertThat(open.openFiles()).isEqualTo(3);
      assertThat(open.recordsWritten()).isEqualTo(30);
      assertThat(open.bufferedBytesEstimate())
          .isGreaterThanOrEqualTo(3 * oneRowFileEstimate(table));
      assertThat(open.filesWritten()).isZero();

      List<WrittenFiles> written = pool.complete();
      WriterPoolStats done = pool.stats();
      assertThat(done.openFiles()).isZero();
      assertThat(done.bufferedBytesEstimate()).isZero();
      assertThat(done.filesWritten()).isEqualTo(3);
      assertThat(done.bytesWritten())
          .isEqualTo(
              written.get(0).dataFiles().stream().mapToLong(DataFile::fileSizeInBytes).sum());
      assertThat(pool.complete()).isEmpty();
    }
  }

  @Test
  void closeAbandonsEverythingNotHandedOver() {
    Table table = tables.create("t", PartitionSpec.unpartitioned());
    WriterPool pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);
    writer.write(P0, 0, T0, row(0, 0, "x", T0));
    List<WrittenFiles> handedOver = pool.complete();
    writer.write(P0, 1, T0, row(1, 0, "x", T0));

    pool.close();

    assertThat(pool.stats().openFiles()).isZero();
    assertThat(ids(commitAndRead(table, handedOver.get(0).dataFiles()))).containsExactly(0L);
  }

  @Test
  void resetAfterAFailedHandOverDropsEverythingAndTheWritersWorkAgain() throws Exception {
    // a data folder below a plain file cannot be created, as when the object store is unreachable
    Path blocker = java.nio.file.Files.createFile(dir.resolve("blocker"));
    Table table =
        onDisk.create(
            "t",
            PartitionSpec.unpartitioned(),
            Map.of(
                org.apache.iceberg.TableProperties.WRITE_DATA_LOCATION,
                blocker.resolve("data").toString()));
    WriterPool pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);
    writer.write(P0, 0, T0, row(0, 0, "x", T0));
    org.assertj.core.api.Assertions.assertThatThrownBy(pool::complete)
        .as("closing the file for a hand-over fails");
    org.assertj.core.api.Assertions.assertThatThrownBy(pool::complete)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("abandon");

    java.nio.file.Files.delete(blocker);
    java.nio.file.Files.createDirectory(blocker);
    pool.reset();
    assertThat(pool.stats().openFiles()).isZero();
    assertThat(pool.stats().bufferedBytesEstimate()).isZero();
    TableWriter again = pool.writerFor(id(table), tableId -> table);
    again.write(P0, 1, T0, row(1, 0, "x", T0));
    List<WrittenFiles> written = pool.complete();

    assertThat(written).hasSize(1);
    assertThat(written.get(0).offsets().get(P0)).isEqualTo(new OffsetRange(1, 1, 1, T0));
    assertThat(ids(commitAndRead(table, written.get(0).dataFiles()))).containsExactly(1L);
    pool.close();
  }
}
