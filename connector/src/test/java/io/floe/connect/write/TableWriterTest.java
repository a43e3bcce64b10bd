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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TableWriterTest {
  private static final TopicPartition P0 = new TopicPartition("events", 0);
  private static final TopicPartition P1 = new TopicPartition("events", 1);
  private static final long DAY_MS = 86_400_000L;
  private static final long T0 = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();

  @TempDir Path dir;
  private WriteTestTables tables;
  private WriteTestTables onDisk;
  private WriterPool pool;

  @BeforeEach
  void setUp() {
    tables = WriteTestTables.inMemory();
    onDisk = WriteTestTables.onDisk(dir);
    pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0);
  }

  @AfterEach
  void tearDown() throws Exception {
    pool.close();
    tables.close();
  }

  private TableWriter writer(Table table) {
    return pool.writerFor(id(table), tableId -> table);
  }

  /**
   * A writer with a file per source partition (iceberg.tables.writer.file-per-source-partition).
   */
  private TableWriter filePerSourcePartition(Table table) {
    pool.close();
    pool = new WriterPool(WriterPoolOptions.defaults().withSharedFiles(false), Map.of(), 0);
    return writer(table);
  }

  private static void writeRows(TableWriter writer, TopicPartition source, long from, long to) {
    for (long i = from; i < to; i++) {
      writer.write(
          source,
          i,
          T0 + i * 3_600_000L,
          row(i, (int) (i % 7), "name-" + (i % 13), T0 + i * 3_600_000L));
    }
  }

  static List<Arguments> specs() {
    Function<PartitionSpec.Builder, PartitionSpec> identity = b -> b.identity("category").build();
    Function<PartitionSpec.Builder, PartitionSpec> day = b -> b.day("ts").build();
    Function<PartitionSpec.Builder, PartitionSpec> bucket = b -> b.bucket("id", 4).build();
    Function<PartitionSpec.Builder, PartitionSpec> truncate = b -> b.truncate("name", 6).build();
    return List.of(
        Arguments.of("identity(category)", identity, 7),
        Arguments.of("day(ts)", day, 9),
        Arguments.of("bucket[4](id)", bucket, 4),
        Arguments.of("truncate[6](name)", truncate, 10));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void writesEachTablePartitionToItsOwnFilesAndReadsBackExactly(
      String name, Function<PartitionSpec.Builder, PartitionSpec> spec, int partitions) {
    Table table = tables.create("t", spec.apply(PartitionSpec.builderFor(WriteTestTables.SCHEMA)));
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 200);

    WrittenFiles written = writer.complete();

    assertThat(written.dataFiles()).hasSize(partitions);
    Set<String> partitionPaths = new HashSet<>();
    for (DataFile file : written.dataFiles()) {
      assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(file.specId()).isEqualTo(table.spec().specId());
      partitionPaths.add(table.spec().partitionToPath(file.partition()));
    }
    assertThat(partitionPaths).hasSize(partitions);
    List<Record> rows = commitAndRead(table, written.dataFiles());
    assertThat(ids(rows)).containsExactlyElementsOf(LongStream.range(0, 200).boxed().toList());
    Record first =
        rows.stream().filter(r -> (Long) r.getField("id") == 5L).findFirst().orElseThrow();
    assertThat(first.getField("name")).isEqualTo("name-5");
    assertThat(first.getField("category")).isEqualTo(5);
    assertThat(first.getField("ts"))
        .isEqualTo(Instant.ofEpochMilli(T0 + 5 * 3_600_000L).atOffset(ZoneOffset.UTC));
  }

  @Test
  void dayPartitionsFollowTheTimestampValues() {
    Table table =
        tables.create("t", PartitionSpec.builderFor(WriteTestTables.SCHEMA).day("ts").build());
    TableWriter writer = writer(table);
    for (int i = 0; i < 30; i++) {
      writer.write(P0, i, T0, row(i, 0, "x", T0 + (i % 3) * DAY_MS));
    }
    WrittenFiles written = writer.complete();
    long firstDay = ChronoUnit.DAYS.between(Instant.EPOCH, Instant.ofEpochMilli(T0));
    assertThat(written.dataFiles())
        .extracting(file -> file.partition().get(0, Integer.class))
        .containsExactlyInAnyOrder((int) firstDay, (int) firstDay + 1, (int) firstDay + 2);
    assertThat(written.dataFiles())
        .allSatisfy(file -> assertThat(file.recordCount()).isEqualTo(10));
  }

  @Test
  void unpartitionedTableReadsBackExactly() {
    Table table = tables.create("t", PartitionSpec.unpartitioned());
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 500);

    WrittenFiles written = writer.complete();

    assertThat(written.dataFiles()).hasSize(1);
    assertThat(written.dataFiles().get(0).recordCount()).isEqualTo(500);
    assertThat(written.keyFiles()).isEmpty();
    assertThat(written.writeResult().dataFiles()).hasSize(1);
    assertThat(ids(commitAndRead(table, written.dataFiles())))
        .containsExactlyElementsOf(LongStream.range(0, 500).boxed().toList());
  }

  @Test
  void rollsToANewFileAtTheTargetFileSize() {
    Table table =
        tables.create(
            "t",
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1024"));
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 4_500);

    WrittenFiles written = writer.complete();

    // Iceberg's rolling writer checks the size every 1,000 rows
    assertThat(written.dataFiles()).hasSize(5);
    assertThat(written.dataFiles())
        .extracting(DataFile::recordCount)
        .containsExactly(1_000L, 1_000L, 1_000L, 1_000L, 500L);
    assertThat(ids(commitAndRead(table, written.dataFiles())))
        .hasSize(4_500)
        .doesNotHaveDuplicates();
  }

  @Test
  void connectorWritePropertiesOverrideTheTableProperties() {
    Table table =
        tables.create(
            "t",
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.DEFAULT_FILE_FORMAT, "parquet"));
    try (WriterPool overriding =
        new WriterPool(
            WriterPoolOptions.defaults(),
            Map.of(
                TableProperties.DEFAULT_FILE_FORMAT, "avro",
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1"),
            0)) {
      TableWriter writer = overriding.writerFor(id(table), tableId -> table);
      writeRows(writer, P0, 0, 2_000);
      WrittenFiles written = writer.complete();
      assertThat(written.dataFiles()).hasSize(2);
      assertThat(written.dataFiles())
          .allSatisfy(f -> assertThat(f.format()).isEqualTo(FileFormat.AVRO));
      assertThat(ids(commitAndRead(table, written.dataFiles()))).hasSize(2_000);
    }
  }

  @Test
  void tablePropertyChoosesTheFileFormat() {
    Table table =
        tables.create(
            "t",
            PartitionSpec.builderFor(WriteTestTables.SCHEMA).identity("category").build(),
            Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro"));
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 70);
    WrittenFiles written = writer.complete();
    assertThat(written.dataFiles())
        .hasSize(7)
        .allSatisfy(f -> assertThat(f.format()).isEqualTo(FileFormat.AVRO));
    assertThat(ids(commitAndRead(table, written.dataFiles()))).hasSize(70);
  }

  @Test
  void withAFilePerSourcePartitionEachReportsItsOffsetRangeAndLatestTimestamp() {
    Table table = tables.create("t", PartitionSpec.unpartitioned());
    TableWriter writer = filePerSourcePartition(table);
    writer.write(P0, 10, T0 + 5, row(1, 0, "a", T0));
    writer.write(P1, 100, OffsetRange.NO_TIMESTAMP, row(2, 0, "b", T0));
    writer.write(P0, 11, T0 + 9, row(3, 0, "c", T0));
    writer.write(P0, 12, T0 + 7, row(4, 0, "d", T0));
    writer.write(P1, 101, OffsetRange.NO_TIMESTAMP, row(5, 0, "e", T0));

    WrittenFiles written = writer.complete();

    assertThat(written.offsets())
        .containsOnlyKeys(P0, P1)
        .containsEntry(P0, new OffsetRange(10, 12, 3, T0 + 9))
        .containsEntry(P1, new OffsetRange(100, 101, 2, OffsetRange.NO_TIMESTAMP));
    assertThat(written.offsets().get(P0).nextOffset()).isEqualTo(13);
    assertThat(written.offsets().get(P1).hasTimestamp()).isFalse();
    assertThat(written.recordCount()).isEqualTo(5);
    // each source partition writes its own files
    assertThat(written.dataFiles())
        .extracting(DataFile::recordCount)
        .containsExactlyInAnyOrder(3L, 2L);
  }

  @Test
  void startsAfreshAfterEachHandOver() {
    Table table = tables.create("t", PartitionSpec.unpartitioned());
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 10);
    WrittenFiles first = writer.complete();
    writeRows(writer, P0, 10, 15);
    WrittenFiles second = writer.complete();
    WrittenFiles third = writer.complete();

    assertThat(first.offsets().get(P0)).isEqualTo(new OffsetRange(0, 9, 10, T0 + 9 * 3_600_000L));
    assertThat(second.offsets().get(P0).minOffset()).isEqualTo(10);
    assertThat(second.dataFiles()).hasSize(1).doesNotContainAnyElementsOf(first.dataFiles());
    assertThat(third.isEmpty()).isTrue();
  }

  @Test
  void reopensOnANewSchemaAndHandsOverFilesOfBothSchemas() {
    Table table =
        tables.create(
            "t", PartitionSpec.builderFor(WriteTestTables.SCHEMA).identity("category").build());
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 20);

    table.updateSchema().addColumn("score", Types.DoubleType.get()).commit();
    writer.reopen(table);
    assertThat(writer.schema().findField("score")).isNotNull();
    for (long i = 20; i < 30; i++) {
      GenericRecord row = GenericRecord.create(writer.schema());
      row.setField("id", i);
      row.setField("category", (int) (i % 7));
      row.setField("score", i * 0.5);
      writer.write(P0, i, T0, row);
    }
    WrittenFiles written = writer.complete();

    assertThat(written.offsets().get(P0))
        .isEqualTo(new OffsetRange(0, 29, 30, T0 + 19 * 3_600_000L));
    List<Record> rows = commitAndRead(table, written.dataFiles());
    assertThat(ids(rows)).containsExactlyElementsOf(LongStream.range(0, 30).boxed().toList());
    for (Record row : rows) {
      long id = (Long) row.getField("id");
      assertThat(row.getField("score")).isEqualTo(id < 20 ? null : id * 0.5);
    }
  }

  @Test
  void withAFilePerSourcePartitionAbandonDropsOnlyTheRevokedPartitionsAndTheirFiles()
      throws Exception {
    Table table =
        onDisk.create(
            "t", PartitionSpec.builderFor(WriteTestTables.SCHEMA).identity("category").build());
    TableWriter writer = filePerSourcePartition(table);
    writeRows(writer, P0, 0, 50);
    writeRows(writer, P1, 1000, 1050);
    writer.reopen(table); // closes the open files: the revoked partition has finished files too
    writeRows(writer, P0, 50, 60);
    assertThat(pool.stats().openFiles()).isEqualTo(7);

    assertThat(pool.abandon(List.of(P0, new TopicPartition("events", 9)))).containsExactly(P0);

    assertThat(pool.stats().openFiles()).isZero();
    WrittenFiles written = writer.complete();
    assertThat(written.offsets()).containsOnlyKeys(P1);
    assertThat(ids(commitAndRead(table, written.dataFiles())))
        .containsExactlyElementsOf(LongStream.range(1000, 1050).boxed().toList());
    Set<String> committed = new HashSet<>();
    written.dataFiles().forEach(f -> committed.add(Path.of(f.location()).getFileName().toString()));
    assertThat(committed).hasSize(7);
    try (Stream<Path> files = Files.walk(Path.of(table.location(), "data"))) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")))
          .containsExactlyInAnyOrderElementsOf(committed);
    }
  }

  @Test
  void abandonNeverTouchesFilesAlreadyHandedOver() {
    Table table = onDisk.create("t", PartitionSpec.unpartitioned());
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 10);
    WrittenFiles handedOver = writer.complete();
    writeRows(writer, P0, 10, 20);

    pool.abandon(List.of(P0));

    assertThat(writer.complete().isEmpty()).isTrue();
    assertThat(ids(commitAndRead(table, handedOver.dataFiles())))
        .containsExactlyElementsOf(LongStream.range(0, 10).boxed().toList());
  }

  @Test
  void aFailedWriteStopsTheWritersUntilAbandoned() {
    Table table = tables.create("t", PartitionSpec.unpartitioned());
    TableWriter writer = writer(table);
    writeRows(writer, P0, 0, 5);
    GenericRecord bad = GenericRecord.create(WriteTestTables.SCHEMA);
    bad.setField("id", "not a long");

    assertThatThrownBy(() -> writer.write(P0, 5, T0, bad))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("events-0 offset 5")
        .hasMessageContaining("test.t");
    assertThatThrownBy(() -> writer.write(P0, 6, T0, row(6, 0, "x", T0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("abandon");
    assertThatThrownBy(() -> pool.complete()).isInstanceOf(IllegalStateException.class);
    pool.close();
    assertThat(pool.stats().openFiles()).isZero();
  }

  @Test
  void refusesFormatsItCannotWrite() {
    Table table =
        tables.create(
            "t", PartitionSpec.unpartitioned(), Map.of(TableProperties.DEFAULT_FILE_FORMAT, "orc"));
    assertThatThrownBy(() -> writer(table))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("write.format.default=orc is not supported");
  }
}
