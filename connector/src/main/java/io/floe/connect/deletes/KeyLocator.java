/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.Tasks;
import org.apache.iceberg.util.ThreadPools;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where retired keys live in a snapshot of a table, by a pruned scan: it plans the snapshot's
 * data files with {@link KeyFilter} (so partitions and column bounds prune files), skips the
 * planned files whose bounds hold none of the keys ({@link KeyBounds}), and reads only the key
 * columns and row positions of the rest ({@link LiveKeyReader}), applying each file's deletes at
 * the snapshot, several files at a time. Every live row holding a retired key is found, duplicates
 * of a key included.
 *
 * <p>Stateless: each call plans and reads afresh, so it is always exact for the snapshot it is
 * given, whoever wrote the table. Its cost grows with the files the keys' values spread over: small
 * for keys clustered by partition or by write order, close to reading every key column for random
 * keys. For those a key index ({@link KeyIndex}) narrows the planned files to the ones it names for
 * the keys and gives their rows, so no data file is read: the files' deletes at the snapshot drop
 * the rows no longer live. It finds what the scan finds as long as it holds every live row of a
 * key.
 */
public final class KeyLocator {
  private static final Logger LOG = LoggerFactory.getLogger(KeyLocator.class);

  private final Table table;
  private final ExecutorService readers;

  /** A locator reading files on Iceberg's shared worker pool. */
  public KeyLocator(Table table) {
    this(table, ThreadPools.getWorkerPool());
  }

  /**
   * A locator reading files on {@code readers}: reads wait on object storage, so more threads than
   * cores pay off there.
   *
   * @param readers the threads planning the scan and reading the planned files, null to plan on
   *     Iceberg's shared worker pool and read on the calling thread
   */
  public KeyLocator(Table table, ExecutorService readers) {
    this.table = table;
    this.readers = readers;
  }

  /**
   * Locates the live rows holding {@code keys} in {@code base}.
   *
   * @param base the snapshot to resolve in, null for a table without snapshots (nothing is found)
   * @param keys the keys to retire, built on this table's schema
   */
  public LocatedRows locate(Snapshot base, RetiredKeys keys) {
    return locate(base, keys, null);
  }

  /**
   * Locates the live rows holding {@code keys} in {@code base}; with {@code index}, only in the
   * planned files it names for them, taking their rows from it instead of reading the files.
   *
   * @param index a lookup of the keys in a key index current for {@code base}, null for none
   */
  LocatedRows locate(Snapshot base, RetiredKeys keys, KeyIndex.Lookup index) {
    long start = System.nanoTime();
    long inSnapshot = dataFiles(base);
    if (base == null || keys.isEmpty()) {
      return new LocatedRows(
          base == null ? null : base.snapshotId(), List.of(), ResolutionStats.none(inSnapshot));
    }
    // the index names the files that hold the keys: no need to sort the keys for their bounds
    KeyBounds bounds = index == null ? KeyBounds.of(keys) : null;
    LiveKeyReader reader = new LiveKeyReader(table, keys, bounds);
    TableScan scan =
        table
            .newScan()
            .useSnapshot(base.snapshotId())
            .filter(KeyFilter.of(keys))
            .includeColumnStats(KeyColumn.pruning(keys).stream().map(KeyColumn::name).toList());
    if (readers != null) {
      scan = scan.planWith(readers);
    }
    List<FileScanTask> toRead = new ArrayList<>();
    long planned = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        planned++;
        if (index == null ? bounds.mayHoldKey(task.file()) : index.names(task.file().location())) {
          toRead.add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not plan the files of " + table.name(), e);
    }
    LocatedRows.FileRows[] read = new LocatedRows.FileRows[toRead.size()];
    Tasks.range(read.length)
        .executeWith(readers)
        .stopOnFailure()
        .throwFailureWhenFinished()
        .run(i -> read[i] = read(reader, toRead.get(i), index));
    List<LocatedRows.FileRows> found = new ArrayList<>();
    long rows = 0;
    for (LocatedRows.FileRows fileRows : read) {
      if (fileRows != null) {
        found.add(fileRows);
        rows += fileRows.positions().length;
      }
    }
    ResolutionStats stats =
        new ResolutionStats(
            inSnapshot,
            planned,
            toRead.size(),
            reader.rowsRead(),
            reader.keysMatched(),
            rows,
            Duration.ofNanos(System.nanoTime() - start));
    LOG.debug(
        "Table {}: located {} of {} retired keys in {} rows of {} files at snapshot {}{}: {}",
        table.name(),
        stats.keysMatched(),
        keys.size(),
        rows,
        found.size(),
        base.snapshotId(),
        index == null ? "" : " (key index: " + index.namedFiles() + " files)",
        stats);
    return new LocatedRows(base.snapshotId(), found, stats);
  }

  private static LocatedRows.FileRows read(
      LiveKeyReader reader, FileScanTask task, KeyIndex.Lookup index) {
    return index == null ? reader.read(task) : reader.live(task, index.rows(task.file()));
  }

  private static long dataFiles(Snapshot snapshot) {
    if (snapshot == null) {
      return 0;
    }
    String total = snapshot.summary().get(SnapshotSummary.TOTAL_DATA_FILES_PROP);
    return total == null ? -1 : Long.parseLong(total);
  }
}
