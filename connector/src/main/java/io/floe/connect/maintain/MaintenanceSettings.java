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
 * @param interval the most time between two maintenance runs of one table (and, with no trigger,
 *     the least)
 * @param expireSnapshots whether it expires snapshots
 * @param expiry how long snapshots are kept where a table's own {@code history.expire.*} properties
 *     say nothing
 * @param compaction what it compacts, null for no compaction
 * @param manifestThreshold the data manifests above which it rewrites them, 0 for never
 * @param triggers what brings a table's run forward, before its interval is up
 * @param timeBudget how long one table's run may go on starting new work (a compaction group, a
 *     batch of orphans to delete); the commits of the connector wait while it runs
 * @param orphans orphan-file removal, null for none
 */
public record MaintenanceSettings(
    Predicate<String> maintained,
    Duration interval,
    boolean expireSnapshots,
    SnapshotExpiry.Policy expiry,
    Compaction.Settings compaction,
    int manifestThreshold,
    Triggers triggers,
    Duration timeBudget,
    OrphanFiles.Settings orphans) {

  /**
   * What brings a table's maintenance run forward, as Flink's maintenance triggers do: any of them
   * reached since the table's last run, once {@code minInterval} has passed since it.
   *
   * @param minInterval the least time between two runs of one table
   * @param commits the connector's commits to the table, 0 for no such trigger
   * @param dataFiles the data files those commits added, 0 for no such trigger
   * @param deleteRatio the share of the table's rows its delete files remove, 0 for no such trigger
   */
  public record Triggers(Duration minInterval, int commits, long dataFiles, double deleteRatio) {
    /** Runs every interval, never sooner. */
    public static final Triggers NONE = new Triggers(Duration.ZERO, 0, 0, 0);

    /** Whether any trigger is set. */
    boolean any() {
      return commits > 0 || dataFiles > 0 || deleteRatio > 0;
    }
  }

  /** Maintenance with no triggers, no time budget and no orphan-file removal. */
  public MaintenanceSettings(
      Predicate<String> maintained,
      Duration interval,
      boolean expireSnapshots,
      SnapshotExpiry.Policy expiry,
      Compaction.Settings compaction,
      int manifestThreshold) {
    this(
        maintained,
        interval,
        expireSnapshots,
        expiry,
        compaction,
        manifestThreshold,
        Triggers.NONE,
        Duration.ofDays(1),
        null);
  }

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

  /** These settings with orphan-file removal, or none for null. */
  public MaintenanceSettings withOrphans(OrphanFiles.Settings orphans) {
    return new MaintenanceSettings(
        maintained,
        interval,
        expireSnapshots,
        expiry,
        compaction,
        manifestThreshold,
        triggers,
        timeBudget,
        orphans);
  }

  /** Whether the coordinator does anything to {@code table}. */
  public boolean anyFor(String table) {
    return (expireSnapshots || compaction != null || manifestThreshold > 0 || orphans != null)
        && maintained.test(table);
  }
}
