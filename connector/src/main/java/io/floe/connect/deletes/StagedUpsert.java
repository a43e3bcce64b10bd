/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import io.floe.connect.branch.CommitBranch;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of an upsert commit, from one snapshot of the table: the retired keys located in it,
 * their deletes written, and (once applied) the attempt's {@link RowDelta} applied to a transaction
 * of its own that is not committed yet. Whoever commits the transaction says how it went: {@link
 * #landed}, {@link #discard} (the commit certainly did not land: its delete files are deleted) or
 * {@link #keep} (its outcome is unknown: its files are kept, as they may be in the table).
 *
 * <p>{@link UpsertCommit#commit} commits an attempt on its own; a REST catalog's multi-table
 * transaction commits the transactions of several tables' attempts ({@link UpsertCommit#stage}) at
 * once.
 */
public final class StagedUpsert {
  private static final Logger LOG = LoggerFactory.getLogger(StagedUpsert.class);

  private final Table table;
  private final CommitBranch branch;
  private final TableKeyIndex index;
  private final Snapshot base;
  private final RetiredKeys keys;
  private final List<DataFile> dataFiles;
  private final boolean truncate;
  private final TableContents removed;
  private final KeyIndex.Lookup lookup;
  private final LocatedRows rows;
  private final WrittenDeletes deletes;
  private Transaction transaction;

  /**
   * @param branch the branch the attempt commits to
   * @param base the snapshot the keys were located in (the branch's head), null if there was none
   * @param removed what a truncating attempt removes: every live file of its snapshot
   * @param lookup the key index's lookup the keys were located with, null if none
   * @param rows the rows located in the attempt's snapshot, and those of the new data files the
   *     attempt deletes
   * @param deletes the deletes written for {@code rows}
   */
  StagedUpsert(
      Table table,
      CommitBranch branch,
      TableKeyIndex index,
      Snapshot base,
      RetiredKeys keys,
      List<DataFile> dataFiles,
      boolean truncate,
      TableContents removed,
      KeyIndex.Lookup lookup,
      LocatedRows rows,
      WrittenDeletes deletes) {
    this.table = table;
    this.branch = branch;
    this.index = index;
    this.base = base;
    this.keys = keys;
    this.dataFiles = dataFiles;
    this.truncate = truncate;
    this.removed = removed;
    this.lookup = lookup;
    this.rows = rows;
    this.deletes = deletes;
  }

  /**
   * Fills the attempt's row delta (to the attempt's branch) on a new transaction of the table, lets
   * {@code beforeCommit} add to it, and applies it to the transaction (nothing is sent to the
   * catalog).
   *
   * @param manifestReaders the threads to read manifests on while validating, null for Iceberg's
   *     shared worker pool
   */
  void apply(UpsertCommit.BeforeCommit beforeCommit, ExecutorService manifestReaders) {
    Transaction started = table.newTransaction();
    Long baseId = baseSnapshotId();
    RowDelta newDelta = branch.newRowDelta(started);
    RowDelta delta =
        truncate
            ? UpsertDelta.fillTruncating(newDelta, baseId, removed, dataFiles, deletes)
            : UpsertDelta.fill(newDelta, baseId, dataFiles, deletes, keys);
    if (manifestReaders != null) {
      delta.scanManifestsWith(manifestReaders);
    }
    beforeCommit.prepare(delta, base, deletes);
    delta.commit();
    beforeCommit.applied(started);
    this.transaction = started;
  }

  /**
   * The attempt's transaction, its row delta applied: its start metadata is the table at the
   * attempt's snapshot, its current metadata the table with the attempt's new snapshot at the head
   * of the attempt's branch.
   */
  public Transaction transaction() {
    if (transaction == null) {
      throw new IllegalStateException("Table " + table.name() + ": the attempt is not applied");
    }
    return transaction;
  }

  /** The snapshot the attempt located the keys in, null if the table had none. */
  public Long baseSnapshotId() {
    return base == null ? null : base.snapshotId();
  }

  /** The delete files the attempt wrote, and those its commit removes. */
  public WrittenDeletes deletes() {
    return deletes;
  }

  /** The attempt's resolution of the keys. */
  public ResolutionStats resolution() {
    return rows.stats();
  }

  /**
   * After the attempt's commit landed (the table refreshed to hold it): tells the key index and
   * logs the commit.
   *
   * @param attempts the attempts made, this one included
   */
  public UpsertCommit.Outcome landed(int attempts) {
    if (truncate) {
      index.truncated();
      LOG.info(
          "Table {}: truncated: removed its {} data files ({} rows) and {} delete files of"
              + " snapshot {}",
          table.name(),
          removed.dataFiles().size(),
          removed.records(),
          removed.deleteFiles().size(),
          baseSnapshotId());
    } else {
      index.committed(table, branch.head(table), lookup, deletes);
    }
    LOG.info(
        "Table {}: committed {} data files and {} delete files ({} rows deleted, {} delete"
            + " files replaced) from snapshot {} after {} attempt(s); resolution {}",
        table.name(),
        dataFiles.size(),
        deletes.added().size(),
        deletes.rowsDeleted(),
        deletes.rewritten().size(),
        baseSnapshotId(),
        attempts,
        rows.stats());
    return new UpsertCommit.Outcome(attempts, rows.stats(), deletes);
  }

  /** Deletes the attempt's delete files: its commit certainly did not land. */
  public void discard() {
    for (String location : deletes.fileLocations()) {
      try {
        table.io().deleteFile(location);
      } catch (RuntimeException e) {
        // an uncommitted file holds no data of the table: left behind, it is only an orphan
        LOG.warn(
            "Table {}: could not delete uncommitted delete file {}", table.name(), location, e);
      }
    }
  }

  /** Keeps the attempt's files, saying so: its commit may have landed. */
  public void keep(RuntimeException cause) {
    LOG.warn(
        "Table {}: the outcome of the commit from snapshot {} is not known ({}); its {} delete"
            + " files are kept",
        table.name(),
        baseSnapshotId(),
        cause.getClass().getSimpleName(),
        deletes.fileLocations().size());
  }
}
