/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;

/**
 * What a maintenance commit of the connector adds so that the table's newest snapshot still holds
 * the connector's marks (ARCHITECTURE.md, "Maintenance"), and the check that no commit of the
 * connector landed since the maintenance read the table; and which snapshots hold the marks, which
 * expiry keeps on a branch the connector commits to.
 */
@FunctionalInterface
public interface Marks {
  /** Nothing carried, nothing checked: for tables no connector commits to, and tests. */
  Marks NONE = (update, table, start) -> {};

  /**
   * @param update the maintenance commit
   * @param table the table, as it is now
   * @param start the snapshot the maintenance read
   */
  void carry(SnapshotUpdate<?> update, Table table, Snapshot start);

  /** Whether {@code snapshot} holds the connector's marks; none does by default. */
  default boolean heldBy(Snapshot snapshot) {
    return false;
  }
}
