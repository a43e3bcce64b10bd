/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * What the coordinator does to keep the tables it commits to healthy, and how often.
 *
 * @param maintained whether the coordinator maintains a table (off for a table left to other
 *     engines)
 * @param interval the least time between two maintenance runs of one table
 * @param expireSnapshots whether it expires snapshots
 * @param expiry how long snapshots are kept where a table's own {@code history.expire.*} properties
 *     say nothing
 * @param compaction what it compacts, null for no compaction
 * @param manifestThreshold the data manifests above which it rewrites them, 0 for never
 */
public record MaintenanceSettings(
    Predicate<String> maintained,
    Duration interval,
    boolean expireSnapshots,
    SnapshotExpiry.Policy expiry,
    Compaction.Settings compaction,
    int manifestThreshold) {

  /** No maintenance at all. */
  public static MaintenanceSettings off() {
    return new MaintenanceSettings(
        table -> false,
        Duration.ofMinutes(10),
        false,
        SnapshotExpiry.Policy.ICEBERG_DEFAULTS,
        null,
        0);
  }

  /** Whether the coordinator does anything to {@code table}. */
  public boolean anyFor(String table) {
    return (expireSnapshots || compaction != null || manifestThreshold > 0)
        && maintained.test(table);
  }
}
