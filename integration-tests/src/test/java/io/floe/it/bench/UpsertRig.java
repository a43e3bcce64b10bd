/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import io.floe.connect.commit.BenchCoordinator;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.control.DataWritten;
import io.floe.connect.deletes.ResolutionStats;
import io.floe.connect.maintain.Compaction;
import io.floe.connect.maintain.Marks;
import io.floe.connect.write.HandOver;
import io.floe.connect.write.Manifests;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.TableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One table of the upsert benchmark and the parts of Floe that feed it, in process: a task's {@link
 * SinkWriter} (normalize, convert, fold, write data and key files, hand over), the manifests a
 * worker ships, and the coordinator's commit ({@link BenchCoordinator}, the real {@code
 * TableCommitter}). A cycle times the worker's side and the coordinator's apart; the control topic,
 * Kafka and Connect are not involved.
 */
final class UpsertRig implements AutoCloseable {
  /** Records per {@code put}, as a consumer fetch delivers them. */
  private static final int BATCH = 2_000;

  enum Mode {
    UPSERT,
    APPEND
  }

  /**
   * One cycle's figures.
   *
   * @param writeNanos the task's {@code put}s: normalize, convert, fold (upsert) or write (append)
   * @param handOverNanos closing the files, writing the images and key files, and the manifests
   * @param commitNanos the coordinator's commit
   * @param resolution where the commit found the stored rows of its keys, null in append mode
   * @param heap the heap around the commit, null if not measured
   */
  record Cycle(
      long records,
      long inputBytes,
      long writeNanos,
      long handOverNanos,
      long commitNanos,
      ResolutionStats resolution,
      HeapGauge.Reading heap,
      TableFacts facts) {
    double workerSeconds() {
      return (writeNanos + handOverNanos) / 1e9;
    }

    double seconds() {
      return (writeNanos + handOverNanos + commitNanos) / 1e9;
    }
  }

  /** The table after a commit, from its snapshot summary. */
  record TableFacts(long rows, long positionDeletes, long dataFiles, long deleteFiles) {
    long liveRows() {
      return rows - positionDeletes;
    }
  }

  private final Catalog catalog;
  private final String name;
  private final Mode mode;
  private final ChangeLoad load;
  private final SinkWriter writer;
  private final BenchCoordinator coordinator;
  private final ResolutionCapture resolutions;
  private Table table;

  UpsertRig(
      Catalog catalog,
      String name,
      Mode mode,
      int formatVersion,
      ChangeLoad load,
      ResolutionCapture resolutions,
      boolean keyIndex) {
    this.catalog = catalog;
    this.name = "bench." + name;
    this.mode = mode;
    this.load = load;
    this.resolutions = resolutions;
    Schema schema = ChangeLoad.tableSchema(load.kind(), mode == Mode.APPEND);
    this.table =
        catalog.createTable(
            TableIdentifier.parse(this.name),
            schema,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", Integer.toString(formatVersion)));
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.tables", this.name);
    props.put("iceberg.catalog.type", "rest");
    if (mode == Mode.UPSERT) {
      props.put("iceberg.table." + this.name + ".upsert-mode-enabled", "true");
      props.put("iceberg.table." + this.name + ".id-columns", "id");
    }
    this.writer = SinkWriter.forTask(new FloeSinkConfig(props), catalog, new Refusals());
    this.coordinator = new BenchCoordinator(catalog, "bench", keyIndex);
  }

  ChangeLoad load() {
    return load;
  }

  Mode mode() {
    return mode;
  }

  String name() {
    return name;
  }

  /**
   * Inserts {@code rows} new keys straight into data files of {@code fileRows} rows each, with
   * Iceberg's writer and one append: the table's history before the benchmark, not measured.
   */
  void preload(long rows, long fileRows) {
    if (rows <= 0) {
      return;
    }
    Schema schema = table.schema();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataSchema(schema).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 0, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    AppendFiles append = table.newFastAppend();
    for (long written = 0; written < rows; ) {
      DataWriter<Record> file =
          writers.newDataWriter(files.newOutputFile(), PartitionSpec.unpartitioned(), null);
      long end = Math.min(rows, written + fileRows);
      try (file) {
        for (; written < end; written++) {
          file.write(load.insertRow(schema));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      append.appendFile(file.toDataFile());
    }
    append.commit();
    table.refresh();
  }

  /** Writes {@code changes} changes, a fraction {@code updates} updates, and commits them. */
  Cycle cycle(int changes, double updates, HeapGauge gauge) {
    long bytesBefore = load.inputBytes();
    long write = 0;
    for (int done = 0; done < changes; done += BATCH) {
      List<SinkRecord> records = load.next(Math.min(BATCH, changes - done), updates);
      long start = System.nanoTime();
      writer.write(records);
      write += System.nanoTime() - start;
    }
    UUID commitId = UUID.randomUUID();
    long start = System.nanoTime();
    List<DataWritten> events = manifests(commitId, writer.handOver());
    long handOver = System.nanoTime() - start;
    resolutions.take();
    if (gauge != null) {
      gauge.start();
    }
    start = System.nanoTime();
    coordinator.commit(commitId, events, load.nextOffsets());
    long commit = System.nanoTime() - start;
    HeapGauge.Reading heap = gauge == null ? null : gauge.stop();
    ResolutionStats resolution = mode == Mode.UPSERT ? resolutions.take() : null;
    table.refresh();
    return new Cycle(
        changes,
        load.inputBytes() - bytesBefore,
        write,
        handOver,
        commit,
        resolution,
        heap,
        facts());
  }

  /**
   * Compacts the table as the coordinator's maintenance does with its defaults (small files and
   * files whose deletes remove 30 % of their rows), and returns the seconds it took.
   */
  double compact() {
    long start = System.nanoTime();
    Compaction.compact(
        table,
        new Compaction.Settings(5, 0.3, 128L * 1024 * 1024),
        Marks.NONE,
        ThreadPools.getWorkerPool(),
        () -> false);
    table.refresh();
    return (System.nanoTime() - start) / 1e9;
  }

  /** What a worker's control thread ships for a hand-over: one event per manifest. */
  private static List<DataWritten> manifests(UUID commitId, HandOver handOver) {
    List<DataWritten> events = new ArrayList<>();
    UUID handOverId = UUID.randomUUID();
    String prefix = "floe-" + commitId + "-0-" + handOverId;
    int n = 0;
    for (TableFiles files : handOver.tables()) {
      for (Manifests.Written manifest : Manifests.write(files, prefix + "-" + n++)) {
        events.add(
            DataWritten.of(
                    commitId,
                    files.tableName(),
                    files.table().uuid(),
                    manifest.manifest(),
                    manifest.totalFileSizeBytes())
                .withHandOverId(handOverId));
      }
    }
    return events;
  }

  TableFacts facts() {
    Snapshot snapshot = table.currentSnapshot();
    Map<String, String> summary = snapshot == null ? Map.of() : snapshot.summary();
    return new TableFacts(
        total(summary, SnapshotSummary.TOTAL_RECORDS_PROP),
        total(summary, SnapshotSummary.TOTAL_POS_DELETES_PROP),
        total(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP),
        total(summary, SnapshotSummary.TOTAL_DELETE_FILES_PROP));
  }

  private static long total(Map<String, String> summary, String key) {
    String value = summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  /**
   * Reads the table's keys back, deletes applied: in upsert mode each key exactly once, in append
   * mode one row per change. Returns a description of what is wrong, or null.
   */
  String check(long expectedRows) {
    long rows = 0;
    Set<Object> keys = new HashSet<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).select("id").build()) {
      for (Record row : read) {
        rows++;
        if (mode == Mode.UPSERT) {
          keys.add(row.getField("id"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (rows != expectedRows) {
      return String.format("%s holds %,d rows, expected %,d", name, rows, expectedRows);
    }
    if (mode == Mode.UPSERT && keys.size() != rows) {
      return String.format("%s holds %,d rows of %,d keys", name, rows, keys.size());
    }
    return null;
  }

  @Override
  public void close() {
    writer.close();
    catalog.dropTable(TableIdentifier.parse(name), true);
  }

  /** A record the writer does not take is a broken benchmark, not a figure. */
  private static final class Refusals implements SinkWriter.RecordOutcomes {
    @Override
    public void tombstone(SinkRecord record) {
      throw new IllegalStateException("unexpected tombstone at offset " + record.kafkaOffset());
    }

    @Override
    public void failed(SinkRecord record, String table, RuntimeException cause) {
      throw new IllegalStateException(
          "record at offset " + record.kafkaOffset() + " refused by " + table, cause);
    }
  }
}
