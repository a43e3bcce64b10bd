/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.expressions.Expressions;

/**
 * Fills the one {@link RowDelta} that commits a cycle's changes to a table: the new rows, the
 * deletes of the rows they replace or delete, the deletion vectors those deletes replace, and the
 * validations that make it safe against every commit that landed after the rows were located.
 */
public final class UpsertDelta {
  private UpsertDelta() {}

  /**
   * Adds {@code dataFiles} and {@code deletes} to {@code delta}, removes the delete files they
   * rewrite, and asks for these validations (the last three only when there are deletes):
   *
   * <ul>
   *   <li>{@code validateFromSnapshot(base)}: conflicts are looked for in the commits after {@code
   *       base} only. Without it Iceberg looks through the whole history, finds this connector's
   *       own earlier deletion vectors for the same data files, and fails once snapshots expire;
   *   <li>{@code validateNoConflictingDataFiles}, with the keys' filter: no row with a retired key
   *       was appended since, which the deletes, located before it landed, would leave alive;
   *   <li>{@code validateDataFilesExist}: no data file the deletes point at was removed or
   *       rewritten (by compaction, say) since;
   *   <li>{@code validateDeletedFiles}: no rewritten delete file was removed since;
   *   <li>{@code validateNoConflictingDeleteFiles}: no delete file that may hit the retired keys
   *       was added since; Iceberg also always fails a second deletion vector for a data file.
   * </ul>
   *
   * <p>A failed validation throws {@code ValidationException} at commit: locate the keys again in
   * the branch's new head, write again and build a new delta ({@link UpsertCommit} does).
   *
   * @param delta a new row delta of the table, or of a transaction on it
   * @param baseSnapshotId the snapshot the rows were located in, null if the table had none
   * @param dataFiles the new data files: the cycle's images of upserted keys
   * @param deletes the deletes written for the rows located in {@code baseSnapshotId}
   * @param keys the keys retired, whose filter scopes the conflict checks
   * @return {@code delta}
   */
  public static RowDelta fill(
      RowDelta delta,
      Long baseSnapshotId,
      Iterable<DataFile> dataFiles,
      WrittenDeletes deletes,
      RetiredKeys keys) {
    dataFiles.forEach(delta::addRows);
    deletes.added().forEach(delta::addDeletes);
    deletes.rewritten().forEach(delta::removeDeletes);
    if (baseSnapshotId != null) {
      delta.validateFromSnapshot(baseSnapshotId);
    }
    if (!deletes.referencedDataFiles().isEmpty()) {
      delta.validateDataFilesExist(deletes.referencedDataFiles());
    }
    if (!keys.isEmpty()) {
      delta.conflictDetectionFilter(KeyFilter.of(keys));
      delta.validateNoConflictingDataFiles();
    }
    if (!deletes.isEmpty()) {
      delta.validateDeletedFiles();
      delta.validateNoConflictingDeleteFiles();
    }
    return delta;
  }

  /**
   * Fills {@code delta} for a cycle that truncated the table: removes every live file of {@code
   * base} and adds {@code dataFiles} with {@code deletes} (which may point only at {@code
   * dataFiles}, rows the same commit replaces). It fails its validation if any commit landed after
   * {@code base} added data or deletes, or removed a file it removes: what was committed before the
   * truncate must all go, so the truncate is done again from the new snapshot.
   *
   * @return {@code delta}
   */
  public static RowDelta fillTruncating(
      RowDelta delta,
      Long baseSnapshotId,
      TableContents base,
      Iterable<DataFile> dataFiles,
      WrittenDeletes deletes) {
    base.dataFiles().forEach(delta::removeRows);
    base.deleteFiles().forEach(delta::removeDeletes);
    dataFiles.forEach(delta::addRows);
    deletes.added().forEach(delta::addDeletes);
    if (baseSnapshotId != null) {
      delta.validateFromSnapshot(baseSnapshotId);
    }
    // every file removed must still be there (compaction may have rewritten it meanwhile); the
    // deletes point at new files only, which no other commit can have removed
    delta.validateDeletedFiles();
    delta.conflictDetectionFilter(Expressions.alwaysTrue());
    delta.validateNoConflictingDataFiles();
    delta.validateNoConflictingDeleteFiles();
    return delta;
  }
}
