/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** What an operator's maintenance job (Spark's procedures, say) does to a table beside Floe. */
final class OtherEngine {
  /**
   * Runs Iceberg's parallel steps on the calling thread: the simulated store is single-threaded.
   */
  private static final java.util.concurrent.ExecutorService ON_THE_CALLER =
      new CallerRunsExecutor();

  private OtherEngine() {}

  /**
   * {@code expire_snapshots(retain_last => 1)}: every snapshot but the newest is expired, the
   * newest of main and of every other branch or tag.
   *
   * @param deleteFiles whether the files no snapshot left references are deleted, by reachability
   *     as Spark's procedure does (the snapshots are named, which makes Iceberg's own expiry
   *     compare what is kept with what goes; its default incremental cleanup would delete a Puffin
   *     file that live deletion vectors still use, breaking the table for every writer)
   */
  static void expireAllButNewest(Table table, boolean deleteFiles) {
    table.refresh();
    ExpireSnapshots expire =
        table
            .expireSnapshots()
            .expireOlderThan(Long.MAX_VALUE)
            .retainLast(1)
            .planWith(ON_THE_CALLER)
            .executeDeleteWith(ON_THE_CALLER)
            .cleanupLevel(
                deleteFiles ? ExpireSnapshots.CleanupLevel.ALL : ExpireSnapshots.CleanupLevel.NONE);
    java.util.Set<Long> heads = new java.util.HashSet<>();
    table.refs().values().forEach(ref -> heads.add(ref.snapshotId()));
    for (Snapshot snapshot : table.snapshots()) {
      if (!heads.isEmpty() && !heads.contains(snapshot.snapshotId())) {
        expire.expireSnapshotId(snapshot.snapshotId());
      }
    }
    expire.commit();
    table.refresh();
  }
}
