/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import io.floe.connect.metrics.TableMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's maintenance of the tables it commits to (ARCHITECTURE.md, "Maintenance"). It
 * runs on the coordinator's thread right after a cycle's commits, so it never races the connector's
 * own commits; each table at most once per {@link MaintenanceSettings#interval()}. A failed run is
 * logged and tried again after the next interval: maintenance never fails a commit or the task.
 */
public final class TableMaintenance {
  private static final Logger LOG = LoggerFactory.getLogger(TableMaintenance.class);

  private final Catalog catalog;
  private final MaintenanceSettings settings;
  private final Clock clock;
  private final ExecutorService threads;
  private final Function<String, TableMetrics> metrics;
  private final Marks marks;
  private final UnaryOperator<String> mask;
  private final Map<String, Long> lastRunMs = new HashMap<>();
  private final long startedMs;

  /**
   * @param clock when runs are due
   * @param threads the threads that plan and delete
   * @param metrics each table's metrics
   * @param marks what its maintenance commits carry of the connector's marks
   * @param mask hides the connector's secrets in what it logs
   */
  public TableMaintenance(
      Catalog catalog,
      MaintenanceSettings settings,
      Clock clock,
      ExecutorService threads,
      Function<String, TableMetrics> metrics,
      Marks marks,
      UnaryOperator<String> mask) {
    this.catalog = catalog;
    this.settings = settings;
    this.clock = clock;
    this.threads = threads;
    this.metrics = metrics;
    this.marks = marks;
    this.mask = mask;
    this.startedMs = clock.millis();
  }

  /**
   * Maintains those of the tables a cycle just committed whose run is due: a table's first run
   * comes one interval after the coordinator started (maintenance is never urgent, and a start
   * often follows trouble), the next ones an interval after the previous. When a table's run fails,
   * the round stops and the tables it did not reach wait an interval too: a catalog or object store
   * out of reach would otherwise hold the coordinator for a timeout per table.
   */
  public void afterCommit(Collection<String> tables) {
    long now = clock.millis();
    List<String> due = new ArrayList<>();
    for (String table : tables) {
      if (settings.anyFor(table)
          && now - lastRunMs.getOrDefault(table, startedMs) >= settings.interval().toMillis()) {
        due.add(table);
      }
    }
    due.forEach(table -> lastRunMs.put(table, now));
    for (String table : due) {
      if (!maintain(table)) {
        return;
      }
    }
  }

  /** Whether the table's run succeeded. */
  private boolean maintain(String name) {
    long started = System.nanoTime();
    String step = "loading the table";
    try {
      Table table = catalog.loadTable(TableIdentifier.parse(name));
      if (settings.compaction() != null) {
        step = "compaction";
        compact(name, table, started);
      }
      if (settings.manifestThreshold() > 0) {
        step = "manifest rewrite";
        rewriteManifests(name, table);
      }
      if (settings.expireSnapshots()) {
        step = "snapshot expiry";
        expire(name, table, System.nanoTime());
      }
    } catch (RuntimeException e) {
      metrics.apply(name).maintenanceFailed();
      LOG.warn(
          "Table {}: {} failed ({}); the connector's commits go on, and it is tried again in {}"
              + " ms",
          name,
          step,
          mask.apply(e.toString()),
          settings.interval().toMillis());
      return false;
    }
    return true;
  }

  private void compact(String name, Table table, long started) {
    Compaction.Result result = Compaction.compact(table, settings.compaction(), marks, threads);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    metrics
        .apply(name)
        .compacted(
            result.filesRewritten(), result.filesWritten(), result.bytesRewritten(), elapsedMs);
    if (result.groups() + result.groupsDropped() > 0) {
      LOG.info(
          "Table {}: compacted {} partitions: {} data files ({} bytes) and {} delete files"
              + " replaced by {} data files; {} partitions dropped for a conflicting commit, in {}"
              + " ms",
          name,
          result.groups(),
          result.filesRewritten(),
          result.bytesRewritten(),
          result.deleteFilesRemoved(),
          result.filesWritten(),
          result.groupsDropped(),
          elapsedMs);
    }
  }

  private void rewriteManifests(String name, Table table) {
    long started = System.nanoTime();
    ManifestRewrite.Result result =
        ManifestRewrite.rewriteIfMany(table, settings.manifestThreshold(), marks, threads);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    metrics.apply(name).manifestsRewritten(result.before(), result.after(), elapsedMs);
    if (result.rewrote()) {
      LOG.info(
          "Table {}: rewrote its {} data manifests into {}, in {} ms",
          name,
          result.before(),
          result.after(),
          elapsedMs);
    }
  }

  private void expire(String name, Table table, long started) {
    SnapshotExpiry.Policy policy = settings.expiry().forTable(table);
    SnapshotExpiry.Result result =
        SnapshotExpiry.expire(table, settings.expiry(), System.currentTimeMillis(), threads);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    metrics.apply(name).expired(result.expired(), result.kept(), result.filesDeleted(), elapsedMs);
    if (result.expired() > 0) {
      LOG.info(
          "Table {}: expired {} snapshots (older than {} ms, beyond the newest {}), deleted {}"
              + " files no snapshot left references; {} snapshots kept, in {} ms",
          name,
          result.expired(),
          policy.maxSnapshotAgeMs(),
          policy.minSnapshotsToKeep(),
          result.filesDeleted(),
          result.kept(),
          elapsedMs);
    }
  }
}
