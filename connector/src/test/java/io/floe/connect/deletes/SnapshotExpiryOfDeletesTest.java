/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteTables.append;
import static io.floe.connect.deletes.DeleteTables.ids;
import static io.floe.connect.deletes.DeleteTables.keys;
import static io.floe.connect.deletes.DeleteTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.maintain.SnapshotExpiry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Snapshot expiry on a table whose deletion vectors share Puffin files: a commit that replaces the
 * vector of one data file lists the whole Puffin file as removed, while the vectors of the other
 * data files in it stay live. Expiry must delete a file only when no snapshot left references it.
 */
class SnapshotExpiryOfDeletesTest {
  @RegisterExtension final DeleteTables tables = new DeleteTables();
  private final ExecutorService threads = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  /**
   * Two data files; one commit retires a key of each (one Puffin file holds both vectors); the next
   * retires another key of the first file only, replacing its vector; then rows are appended. The
   * second file's vector still lives in the first Puffin file, which the commit that replaced the
   * first file's vector lists as removed.
   */
  private Table tableWithASharedPuffinFileHalfReplaced() {
    Table table = tables.create("unpartitioned", 3);
    append(table, rows(0, 9, "a"));
    append(table, rows(10, 19, "b"));
    UpsertCommitTest.commit(table, keys(table, 3, 13), List.of());
    UpsertCommitTest.commit(table, keys(table, 4), List.of());
    append(table, rows(20, 29, "c"));
    table.refresh();
    return table;
  }

  private static List<Long> expected() {
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < 30; id++) {
      if (id != 3 && id != 13 && id != 4) {
        ids.add(id);
      }
    }
    return ids;
  }

  @Test
  void expiryKeepsAPuffinFileALiveDeletionVectorStillUses() {
    Table table = tableWithASharedPuffinFileHalfReplaced();
    assertThat(ids(table)).containsExactlyInAnyOrderElementsOf(expected());

    SnapshotExpiry.Result result =
        SnapshotExpiry.expire(
            table, new SnapshotExpiry.Policy(0, 1), System.currentTimeMillis() + 1, threads);

    assertThat(result.expired()).isEqualTo(4);
    assertThat(result.kept()).isEqualTo(1);
    assertThat(result.filesDeleted()).isPositive();
    table.refresh();
    assertThat(ids(tables.load(table))).containsExactlyInAnyOrderElementsOf(expected());
  }

  /**
   * Why expiry names the snapshots it expires: Iceberg's incremental cleanup, its default for a
   * table with only a main branch, deletes the shared Puffin file, and the table can no longer be
   * read. Should a later Iceberg fix it, this test says so.
   */
  @Test
  void icebergsIncrementalCleanupDeletesAPuffinFileALiveDeletionVectorUses() {
    Table table = tableWithASharedPuffinFileHalfReplaced();

    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();

    assertThatThrownBy(() -> ids(tables.load(table))).hasMessageContaining("puffin");
  }
}
