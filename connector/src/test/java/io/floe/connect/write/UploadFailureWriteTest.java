/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.WriterKeys;
import io.floe.connect.files.DelegatingStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A data file the object store stops taking is a failed write the task waits out: the writers drop
 * everything since the last hand-over and work again, and the same records, read again, are handed
 * over exactly once. The row that fails may be the first of a new file.
 */
class UploadFailureWriteTest {
  private static final String TOPIC = "events";
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("Row")
          .field("id", Schema.INT64_SCHEMA)
          .field("text", Schema.STRING_SCHEMA)
          .build();

  /** Bytes of a file the store takes before it refuses the rest: more than an Avro header. */
  private static final int TAKEN_BYTES = 16 * 1024;

  /** A text larger than an Avro block, and hard to compress: writing it uploads a block at once. */
  private static final String LARGE_TEXT = text(256 * 1024);

  private final RefusingStore catalog = new RefusingStore();

  UploadFailureWriteTest() {
    catalog.initialize("mem", Map.of("warehouse", "mem://" + UUID.randomUUID()));
    catalog.createNamespace(Namespace.of("db"));
    catalog.createTable(
        TableIdentifier.of("db", "t"),
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "text", Types.StringType.get())),
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro"));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  /**
   * An in-memory catalog whose tables' files are refused past their first {@link #TAKEN_BYTES}
   * while {@link #refusing} is set, as a store does whose staging disk is full.
   */
  private static final class RefusingStore extends InMemoryCatalog {
    volatile boolean refusing;

    @Override
    public Table loadTable(TableIdentifier identifier) {
      Table table = super.loadTable(identifier);
      TableOperations ops = ((HasTableOperations) table).operations();
      FileIO io =
          new StreamWrappingIO(ops.io(), (out, path) -> new RefusingStream(out, path, this));
      return new BaseTable(ops, table.name()) {
        @Override
        public FileIO io() {
          return io;
        }
      };
    }
  }

  private static final class RefusingStream extends DelegatingStream {
    private final String location;
    private final RefusingStore store;

    RefusingStream(PositionOutputStream out, String location, RefusingStore store) {
      super(out);
      this.location = location;
      this.store = store;
    }

    private void take(int bytes) throws IOException {
      if (store.refusing && getPos() + bytes > TAKEN_BYTES) {
        throw new IOException("simulated: no space left to upload " + location);
      }
    }

    @Override
    public void write(int b) throws IOException {
      take(1);
      super.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      take(len);
      super.write(b, off, len);
    }
  }

  private static String text(int length) {
    Random random = new Random(7);
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  private static FloeSinkConfig config(boolean filePerSourcePartition) {
    return new FloeSinkConfig(
        Map.of(
            "iceberg.tables",
            "db.t",
            "iceberg.catalog.type",
            "rest",
            WriterKeys.WRITER_FILE_PER_SOURCE_PARTITION,
            Boolean.toString(filePerSourcePartition)));
  }

  /** A record whose id is unique over the partitions: partition * 1000 + offset. */
  private static SinkRecord record(TopicPartition source, long offset, String text) {
    long id = source.partition() * 1000L + offset;
    return new SinkRecord(
        TOPIC,
        source.partition(),
        null,
        null,
        ROW,
        new Struct(ROW).put("id", id).put("text", text),
        offset);
  }

  private static SinkWriter.RecordOutcomes refusingNothing() {
    return new SinkWriter.RecordOutcomes() {
      @Override
      public void tombstone(SinkRecord record) {
        throw new AssertionError("no tombstone was sent");
      }

      @Override
      public void failed(SinkRecord record, String table, RuntimeException cause) {
        throw new AssertionError("record " + record.kafkaOffset() + " is not bad", cause);
      }
    };
  }

  /** Commits the hand-over's data files and returns the ids of the table's rows, sorted. */
  private List<Long> commitAndReadIds(HandOver handOver) {
    Table table = catalog.loadTable(TableIdentifier.of("db", "t"));
    AppendFiles append = table.newAppend();
    handOver.tables().forEach(files -> files.files().dataFiles().forEach(append::appendFile));
    append.commit();
    table.refresh();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(row -> ids.add((Long) row.getField("id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids.stream().sorted().toList();
  }

  @Test
  void aFirstRowThatCannotBeUploadedIsDroppedAndWrittenOnceAfterTheReset() {
    List<SinkRecord> records =
        List.of(record(P0, 0, LARGE_TEXT), record(P0, 1, "b"), record(P1, 0, "c"));
    try (SinkWriter writer = SinkWriter.forTask(config(false), catalog, refusingNothing())) {
      catalog.refusing = true;
      assertThatThrownBy(() -> writer.write(records))
          .isInstanceOf(WriteFailedException.class)
          .hasMessageContaining("events-0 offset 0")
          .hasMessageContaining("no space left");

      writer.reset();
      assertThat(writer.stats().openFiles()).isZero();
      catalog.refusing = false;
      writer.write(records);
      HandOver handOver = writer.handOver();

      assertThat(handOver.tables()).singleElement();
      assertThat(handOver.tables().get(0).files().offsets())
          .containsOnlyKeys(P0, P1)
          .containsEntry(P0, new OffsetRange(0, 1, 2, OffsetRange.NO_TIMESTAMP))
          .containsEntry(P1, new OffsetRange(0, 0, 1, OffsetRange.NO_TIMESTAMP));
      assertThat(commitAndReadIds(handOver)).containsExactly(0L, 1L, 1000L);
    }
  }

  @Test
  void withAFilePerSourcePartitionAFirstRowThatCannotBeUploadedIsDroppedWithTheOthers() {
    List<SinkRecord> first = List.of(record(P0, 0, "a"), record(P0, 1, "b"));
    List<SinkRecord> second = List.of(record(P1, 0, LARGE_TEXT), record(P1, 1, "d"));
    try (SinkWriter writer = SinkWriter.forTask(config(true), catalog, refusingNothing())) {
      writer.write(first);
      catalog.refusing = true;
      assertThatThrownBy(() -> writer.write(second))
          .isInstanceOf(WriteFailedException.class)
          .hasMessageContaining("events-1 offset 0");

      assertThat(writer.reset()).isEqualTo(Map.of(P0, 0L));
      assertThat(writer.stats().openFiles()).isZero();
      catalog.refusing = false;
      writer.write(first);
      writer.write(second);
      HandOver handOver = writer.handOver();

      assertThat(handOver.tables().get(0).files().offsets())
          .containsOnlyKeys(P0, P1)
          .containsEntry(P0, new OffsetRange(0, 1, 2, OffsetRange.NO_TIMESTAMP))
          .containsEntry(P1, new OffsetRange(0, 1, 2, OffsetRange.NO_TIMESTAMP));
      assertThat(commitAndReadIds(handOver)).containsExactly(0L, 1L, 1000L, 1001L);
    }
  }
}
