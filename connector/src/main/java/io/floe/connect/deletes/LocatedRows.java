/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The live rows holding retired keys in one snapshot of a table, by data file, with each file's
 * deletes at that snapshot (which a new deletion vector must merge).
 */
public final class LocatedRows {
  private final Long baseSnapshotId;
  private final List<FileRows> files;
  private final Map<String, FileRows> byLocation = new HashMap<>();
  private final ResolutionStats stats;

  LocatedRows(Long baseSnapshotId, List<FileRows> files, ResolutionStats stats) {
    this.baseSnapshotId = baseSnapshotId;
    this.files = List.copyOf(files);
    this.stats = stats;
    files.forEach(rows -> byLocation.put(rows.file().location(), rows));
  }

  /**
   * The rows found in one data file.
   *
   * @param file the data file, as the snapshot holds it (its spec id and partition are the ones its
   *     deletes must carry)
   * @param positions the rows' positions in the file, ascending, none deleted at the snapshot
   * @param previousDeletes the rows of the file deleted at the snapshot (its deletion vector or
   *     position deletes, which the index names), or null when none are
   */
  public record FileRows(DataFile file, long[] positions, PositionDeleteIndex previousDeletes) {}

  /** The snapshot the rows were located in, null for a table without one. */
  public Long baseSnapshotId() {
    return baseSnapshotId;
  }

  /** The data files holding retired keys, each with its rows. */
  public List<FileRows> files() {
    return files;
  }

  public ResolutionStats stats() {
    return stats;
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  /** The number of rows located. */
  public long rowCount() {
    return files.stream().mapToLong(rows -> rows.positions().length).sum();
  }

  /** These rows and the {@code extra} rows of files the snapshot does not hold yet. */
  LocatedRows plus(List<FileRows> extra) {
    if (extra.isEmpty()) {
      return this;
    }
    List<FileRows> all = new java.util.ArrayList<>(files);
    all.addAll(extra);
    return new LocatedRows(baseSnapshotId, all, stats);
  }

  /** The deletes of the data file at {@code location} at the snapshot, or null. */
  PositionDeleteIndex previousDeletes(CharSequence location) {
    FileRows rows = byLocation.get(location.toString());
    return rows == null ? null : rows.previousDeletes();
  }
}
