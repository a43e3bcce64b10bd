/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.metrics.TableMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's maintenance of the tables it commits to (ARCHITECTURE.md, "Maintenance"). It
 * runs on the coordinator's thread right after a cycle's commits, so it never races the connector's
 * own commits; each table once per {@link MaintenanceSettings#interval()}, sooner when one of its
 * {@link MaintenanceSettings.Triggers} is reached. A failed run is logged and tried again after the
 * next interval: maintenance never fails a commit or the task.
 *
 * <p>A table the connector commits to a branch other than main is not compacted, and neither its
 * deletion vectors nor its manifests are rewritten: those commits would go to main, which the
 * connector does not write (and which would then no longer fast-forward to the branch), and Iceberg
 * cannot rewrite a branch's manifests. Its snapshots are expired, the branch's too ({@link
 * SnapshotExpiry}), and its orphan files removed ({@link OrphanFiles}); the coordinator says so
 * once per table, at the table's first commit.
 */
public final class TableMaintenance {
  private static final Logger LOG = LoggerFactory.getLogger(TableMaintenance.class);

  private final Catalog catalog;
  private final MaintenanceSettings settings;
  private final Clock clock;
  private final ExecutorService threads;
  private final Function<String, TableMetrics> metrics;
  private final Marks marks;
  private final Function<String, CommitBranch> branches;
  private final Set<String> toldOfBranch = new HashSet<>();
  private final UnaryOperator<String> mask;
  private final Supplier<Optional<Set<String>>> inFlight;
  private final Map<String, Since> since = new HashMap<>();

  /** The files in flight as this round's first scan asked for them, null before it asked. */
  private Optional<Set<String>> inFlightThisRound;

  private final long startedMs;

  /** What happened to a table since its last run. */
  private static final class Since {
    long runMs;
    long orphanScanMs;
    int commits;
    long dataFiles;
    double deleteRatio;

    Since(long startedMs) {
      runMs = startedMs;
      orphanScanMs = startedMs;
    }
  }

  /**
   * @param clock when runs are due
   * @param threads the threads that plan and delete
   * @param metrics each table's metrics
   * @param marks what its maintenance commits carry of the connector's marks, and which snapshots
   *     hold them
   * @param branches the branch each table (by its configured name) is committed to
   * @param mask hides the connector's secrets in what it logs
   * @param inFlight the locations of every file that the control events the coordinator holds and
   *     has not committed name (never orphans), or empty while it cannot know them all: control
   *     events are committed to the control topic that it has not read yet, so the orphan scan
   *     waits
   */
  public TableMaintenance(
      Catalog catalog,
      MaintenanceSettings settings,
      Clock clock,
      ExecutorService threads,
      Function<String, TableMetrics> metrics,
      Marks marks,
      Function<String, CommitBranch> branches,
      UnaryOperator<String> mask,
      Supplier<Optional<Set<String>>> inFlight) {
    this.catalog = catalog;
    this.settings = settings;
    this.clock = clock;
    this.threads = threads;
    this.metrics = metrics;
    this.marks = marks;
    this.branches = branches;
    this.mask = mask;
    this.inFlight = inFlight;
    this.startedMs = clock.millis();
  }

  /**
   * Counts what a cycle committed towards the tables' triggers, then maintains those whose run is
   * due: a table's first run comes one interval after the coordinator started (maintenance is
   * rarely urgent, and a start often follows trouble) or sooner at a trigger, the next ones an
   * interval after the previous or sooner at a trigger, never within the triggers' minimum
   * interval. When a table's run fails, the round stops and the tables it did not reach wait an
   * interval too: a catalog or object store out of reach would otherwise hold the coordinator for a
   * timeout per table.
   *
   * @param committed the snapshot each table's commit made
   */
  public void afterCommit(Map<String, Snapshot> committed) {
    long now = clock.millis();
    inFlightThisRound = null;
    List<String> due = new ArrayList<>();
    for (Map.Entry<String, Snapshot> table : committed.entrySet()) {
      if (!settings.anyFor(table.getKey())) {
        continue;
      }
      Since state = since.computeIfAbsent(table.getKey(), t -> new Since(startedMs));
      tellOfBranch(table.getKey());
      count(state, table.getValue());
      long elapsed = now - state.runMs;
      if (elapsed >= settings.interval().toMillis()
          || (elapsed >= settings.triggers().minInterval().toMillis() && triggered(state))) {
        due.add(table.getKey());
      }
    }
    for (String table : due) {
      Since state = since.get(table);
      state.runMs = now;
      state.commits = 0;
      state.dataFiles = 0;
    }
    for (String table : due) {
      if (!maintain(table, now)) {
        return;
      }
    }
  }

  /** Says once per table that commits to a branch other than main which steps it leaves out. */
  private void tellOfBranch(String name) {
    if (!rewrites() || !toldOfBranch.add(name)) {
      return;
    }
    CommitBranch branch;
    try {
      branch = branches.apply(name);
    } catch (RuntimeException e) {
      return; // the run says what is wrong with the table's settings
    }
    if (!branch.isMain()) {
      List<String> steps = new ArrayList<>();
      if (settings.expireSnapshots()) {
        steps.add("expires its snapshots");
      }
      if (settings.orphans() != null) {
        steps.add("removes its orphan files");
      }
      LOG.info(
          "Table {}: the connector commits it to branch {}, so its maintenance does not compact it"
              + " or rewrite its deletion vectors or manifests (those commits would go to main){}",
          name,
          branch,
          steps.isEmpty() ? "" : "; it only " + String.join(" and ", steps));
    }
  }

  /** Whether any maintenance step that rewrites files or manifests is on. */
  private boolean rewrites() {
    return settings.compaction() != null || settings.manifestThreshold() > 0;
  }

  private static void count(Since state, Snapshot snapshot) {
    state.commits++;
    if (snapshot == null) {
      return;
    }
    Map<String, String> summary = snapshot.summary();
    state.dataFiles += number(summary, SnapshotSummary.ADDED_FILES_PROP);
    long records = number(summary, SnapshotSummary.TOTAL_RECORDS_PROP);
    long deleted =
        number(summary, SnapshotSummary.TOTAL_POS_DELETES_PROP)
            + number(summary, SnapshotSummary.TOTAL_EQ_DELETES_PROP);
    state.deleteRatio = records > 0 ? (double) deleted / records : 0;
  }

  private static long number(Map<String, String> summary, String key) {
    try {
      return Long.parseLong(summary.getOrDefault(key, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private boolean triggered(Since state) {
    MaintenanceSettings.Triggers triggers = settings.triggers();
    return (triggers.commits() > 0 && state.commits >= triggers.commits())
        || (triggers.dataFiles() > 0 && state.dataFiles >= triggers.dataFiles())
        || (triggers.deleteRatio() > 0 && state.deleteRatio >= triggers.deleteRatio());
  }

  /** Whether the table's run succeeded. */
  private boolean maintain(String name, long now) {
    long started = System.nanoTime();
    long deadline = started + settings.timeBudget().toNanos();
    BooleanSupplier outOfTime = () -> System.nanoTime() - deadline > 0;
    String step = "loading the table";
    try {
      CommitBranch branch = branches.apply(name);
      Table table = catalog.loadTable(TableIdentifier.parse(name));
      if (!branch.isMain()) {
        if (settings.expireSnapshots()) {
          step = "snapshot expiry";
          expire(name, table, branch, System.nanoTime());
        }
        step = "orphan-file scan";
        removeOrphansIfDue(name, table, now, outOfTime);
        return true;
      }
      if (settings.compaction() != null) {
        step = "compaction";
        compact(name, table, started, outOfTime);
        if (!outOfTime.getAsBoolean()) {
          step = "deletion vector rewrite";
          rewriteDeletionVectors(name, table);
        }
      }
      if (settings.manifestThreshold() > 0) {
        step = "manifest rewrite";
        rewriteManifests(name, table);
      }
      if (settings.expireSnapshots()) {
        step = "snapshot expiry";
        expire(name, table, branch, System.nanoTime());
      }
      step = "orphan-file scan";
      removeOrphansIfDue(name, table, now, outOfTime);
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

  private void removeOrphansIfDue(String name, Table table, long now, BooleanSupplier outOfTime) {
    Since state = since.get(name);
    if (settings.orphans() != null
        && now - state.orphanScanMs >= settings.orphans().interval().toMillis()
        && removeOrphans(name, table, outOfTime)) {
      state.orphanScanMs = now;
    }
  }

  private void compact(String name, Table table, long started, BooleanSupplier outOfTime) {
    Compaction.Result result =
        Compaction.compact(table, settings.compaction(), marks, threads, outOfTime);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    metrics
        .apply(name)
        .compacted(
            result.filesRewritten(), result.filesWritten(), result.bytesRewritten(), elapsedMs);
    if (result.groups() + result.groupsDropped() > 0) {
      LOG.info(
          "Table {}: compacted {} partitions: {} data files ({} bytes) and {} delete files"
              + " replaced by {} data files; {} partitions dropped for a conflicting commit, {}"
              + " left for the next run, in {} ms",
          name,
          result.groups(),
          result.filesRewritten(),
          result.bytesRewritten(),
          result.deleteFilesRemoved(),
          result.filesWritten(),
          result.groupsDropped(),
          result.groupsLeft(),
          elapsedMs);
    }
  }

  private void rewriteDeletionVectors(String name, Table table) {
    long started = System.nanoTime();
    DeletionVectorRewrite.Result result = DeletionVectorRewrite.rewrite(table, marks, threads);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    metrics.apply(name).deletionVectorsRewritten(result.vectors(), elapsedMs);
    if (result.vectors() > 0) {
      LOG.info(
          "Table {}: rewrote the {} live deletion vectors of {} mostly dead Puffin files into one,"
              + " in {} ms",
          name,
          result.vectors(),
          result.puffinFiles(),
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

  private void expire(String name, Table table, CommitBranch branch, long started) {
    SnapshotExpiry.Policy policy = settings.expiry().forTable(table);
    SnapshotExpiry.Result result =
        SnapshotExpiry.expire(
            table, settings.expiry(), System.currentTimeMillis(), threads, branch, marks::heldBy);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    if (result.heldBack() != null) {
      LOG.warn("Table {}: no snapshot is expired this time: {}", name, result.heldBack());
      return;
    }
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

  /**
   * Scans the table for orphans, unless the coordinator cannot name every file in flight; returns
   * whether it scanned. The coordinator is asked once per round: it knows them once it has read the
   * control topic to the end it saw when last asked, and nothing is read during a round (it runs on
   * the coordinator's thread), so a second question in the round would compare with the end the
   * first had just seen and, while workers write, make every table but the first wait for ever.
   */
  private boolean removeOrphans(String name, Table table, BooleanSupplier outOfTime) {
    if (inFlightThisRound == null) {
      inFlightThisRound = inFlight.get();
    }
    Optional<Set<String>> held = inFlightThisRound;
    if (held.isEmpty()) {
      LOG.info(
          "Table {}: the orphan-file scan waits for the next run: the coordinator has not read every"
              + " control event yet, and a file one of them names is no orphan",
          name);
      return false;
    }
    long started = System.nanoTime();
    OrphanFiles.Settings orphans = settings.orphans();
    OrphanFiles.Result result =
        OrphanFiles.clean(table, orphans, clock.millis(), held.get(), outOfTime);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    if (!result.listable()) {
      LOG.warn(
          "Table {}: its file IO ({}) cannot list files, so orphan files are not looked for",
          name,
          table.io().getClass().getName());
      return true;
    }
    metrics.apply(name).orphansScanned(result.orphans(), result.deleted(), elapsedMs);
    if (result.orphans() == 0) {
      LOG.info(
          "Table {}: no orphan files older than {} ms among its {} files, in {} ms",
          name,
          orphans.minAgeMs(),
          result.filesListed(),
          elapsedMs);
    } else if (orphans.mode() == OrphanFiles.Mode.DRY_RUN) {
      LOG.info(
          "Table {}: {} orphan files ({} bytes) older than {} ms among its {} files; a dry run,"
              + " so none deleted (set iceberg.maintenance.orphan-files=delete to delete them),"
              + " for example {}, in {} ms",
          name,
          result.orphans(),
          result.orphanBytes(),
          orphans.minAgeMs(),
          result.filesListed(),
          result.sample(),
          elapsedMs);
    } else {
      LOG.info(
          "Table {}: deleted {} of {} orphan files ({} bytes) older than {} ms among its {} files"
              + " (the rest at the next scan), for example {}, in {} ms",
          name,
          result.deleted(),
          result.orphans(),
          result.orphanBytes(),
          orphans.minAgeMs(),
          result.filesListed(),
          result.sample(),
          elapsedMs);
    }
    return true;
  }
}
