/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Table;

/** What an operator's maintenance job (Spark's procedures, say) does to a table beside Floe. */
final class OtherEngine {
  private OtherEngine() {}

  /**
   * {@code expire_snapshots(retain_last => 1)}: every snapshot but the newest is expired.
   *
   * @param deleteFiles whether the files only expired snapshots referenced are deleted
   */
  static void expireAllButNewest(Table table, boolean deleteFiles) {
    table
        .expireSnapshots()
        .expireOlderThan(Long.MAX_VALUE)
        .retainLast(1)
        .cleanupLevel(
            deleteFiles ? ExpireSnapshots.CleanupLevel.ALL : ExpireSnapshots.CleanupLevel.NONE)
        .commit();
    table.refresh();
  }
}
