/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The commit metrics of one table, kept by the coordinator: MBean {@code
 * io.floe:type=table-metrics,connector=<c>,table=<t>}. Updated on the coordinator thread, read from
 * any.
 *
 * <p>The freshness lag is the time since the table's event-time watermark ({@code valid-through}):
 * it grows while nothing newer is committed and drops when a commit moves the watermark. At the
 * coordinator's start a configured table shows its last commit as the table records it; a table
 * without a watermark (or a dynamic table not yet committed by this coordinator) shows -1.
 */
public final class TableMetrics implements AutoCloseable {
  static final String TYPE = "table-metrics";
  static final long UNKNOWN = -1;

  /** A count a commit's files did not all give. */
  public static final long UNKNOWN_COUNT = UNKNOWN;

  /** What the last commit of the table did. */
  private record LastCommit(
      long timeMs, long durationMs, long records, long files, long bytes, long snapshotId) {}

  private final Clock clock;
  private final MetricsRegistry.Registration registration;
  private volatile LastCommit last = new LastCommit(UNKNOWN, UNKNOWN, 0, 0, 0, UNKNOWN);
  private volatile long validThroughMs = UNKNOWN;
  private volatile long commits;
  private volatile long recordsCommitted;
  private volatile long failures;
  private volatile long alreadyCommitted;
  private volatile long partialCommits;
  private volatile long snapshots = UNKNOWN;
  private volatile Shape shape = new Shape(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);
  private volatile long lastExpiryMs = UNKNOWN;
  private volatile long snapshotsExpired;
  private volatile long filesDeletedByExpiry;
  private volatile long maintenanceTimeMs;
  private volatile long lastCompactionMs = UNKNOWN;
  private volatile long filesCompacted;
  private volatile long filesWrittenByCompaction;
  private volatile long bytesCompacted;
  private volatile long dataManifests = UNKNOWN;
  private volatile long manifestRewrites;
  private volatile long maintenanceFailures;
  private volatile long lastOrphanScanMs = UNKNOWN;
  private volatile long orphanFilesFound = UNKNOWN;
  private volatile long orphanFilesDeleted;
  private volatile long vectorsRewritten;
  private final Breach volume = new Breach();
  private final Breach freshness = new Breach();

  private final MetricsRegistry registry;
  private final String table;
  private final Map<String, ColumnProfile> columns = new HashMap<>();

  TableMetrics(MetricsRegistry registry, String table, Clock clock) {
    this.clock = clock;
    this.registry = registry;
    this.table = table;
    GaugeSet gauges =
        new GaugeSet()
            .add(
                "last-commit-time-ms",
                "When the table was last committed (epoch ms), -1 before the first commit",
                () -> last.timeMs())
            .add(
                "last-commit-duration-ms",
                "How long the last commit of the table took",
                () -> last.durationMs())
            .add("last-commit-records", "Records of the last commit", () -> last.records())
            .add("last-commit-files", "Data files of the last commit", () -> last.files())
            .add("last-commit-bytes", "Bytes of data files of the last commit", () -> last.bytes())
            .add(
                "snapshot-id",
                "Snapshot id of the last commit, -1 before the first",
                () -> last.snapshotId())
            .add(
                "valid-through-ms",
                "Event-time watermark of the table (epoch ms), -1 if unknown",
                () -> validThroughMs)
            .add(
                "freshness-lag-ms",
                "Now minus the event-time watermark, -1 if unknown",
                this::freshnessLagMs)
            .add(
                "volume-objective-breached",
                "1 while the rows of the table's last commit are outside its contract's rowCount"
                    + " objective, else 0",
                () -> volume.breached ? 1 : 0)
            .add(
                "volume-objective-breaches",
                "Breaches of the contract's rowCount objective that began",
                () -> volume.breaches)
            .add(
                "freshness-objective-breached",
                "1 while the table's watermark after its last commit is older than its contract's"
                    + " latency objective, else 0",
                () -> freshness.breached ? 1 : 0)
            .add(
                "freshness-objective-breaches",
                "Breaches of the contract's latency objective that began",
                () -> freshness.breaches)
            .add("commits", "Commits of the table", () -> commits)
            .add("records-committed", "Records committed to the table", () -> recordsCommitted)
            .add("commit-failures", "Failed commit attempts of the table", () -> failures)
            .add(
                "manifests-already-committed",
                "Data manifests handed over again (after a restart or a retried commit) that the"
                    + " table already held, so were not committed again",
                () -> alreadyCommitted)
            .add(
                "partial-commits",
                "Commits of cycles that timed out before every partition answered",
                () -> partialCommits)
            .add(
                "data-files",
                "Data files of the table after its last commit, -1 before the first",
                () -> shape.dataFiles())
            .add(
                "average-file-bytes",
                "Average size of its data and delete files after its last commit, -1 before the"
                    + " first",
                this::averageFileBytes)
            .add(
                "delete-files",
                "Delete files (deletion vectors count one each) after its last commit, -1 before the"
                    + " first",
                () -> shape.deleteFiles())
            .add(
                "deleted-rows-per-mille",
                "Rows its delete files remove per thousand rows of its data files, after its last"
                    + " commit; -1 before the first",
                this::deletedPerMille)
            .add(
                "snapshots",
                "Snapshots of the table after its last maintenance, -1 before the first",
                () -> snapshots)
            .add(
                "last-snapshot-expiry-time-ms",
                "When the connector last expired the table's snapshots (epoch ms), -1 if never",
                () -> lastExpiryMs)
            .add("snapshots-expired", "Snapshots the connector expired", () -> snapshotsExpired)
            .add(
                "expiry-files-deleted",
                "Files the connector's snapshot expiry deleted",
                () -> filesDeletedByExpiry)
            .add(
                "last-compaction-time-ms",
                "When the connector last compacted the table (epoch ms), -1 if never",
                () -> lastCompactionMs)
            .add(
                "files-compacted",
                "Data files the connector's compaction replaced",
                () -> filesCompacted)
            .add(
                "compaction-files-written",
                "Data files the connector's compaction wrote",
                () -> filesWrittenByCompaction)
            .add(
                "bytes-compacted",
                "Bytes of the data files the connector's compaction replaced",
                () -> bytesCompacted)
            .add(
                "deletion-vectors-rewritten",
                "Live deletion vectors the connector moved out of mostly dead Puffin files",
                () -> vectorsRewritten)
            .add(
                "data-manifests",
                "Data manifests of the table at its last maintenance run, -1 before the first",
                () -> dataManifests)
            .add(
                "manifest-rewrites",
                "Times the connector rewrote the table's data manifests",
                () -> manifestRewrites)
            .add(
                "last-orphan-scan-time-ms",
                "When the connector last scanned the table's location for orphan files (epoch ms),"
                    + " -1 if never",
                () -> lastOrphanScanMs)
            .add(
                "orphan-files-found",
                "Orphan files its last scan found (deleted or, in a dry run, only reported), -1 if"
                    + " never scanned",
                () -> orphanFilesFound)
            .add(
                "orphan-files-deleted",
                "Orphan files the connector deleted",
                () -> orphanFilesDeleted)
            .add(
                "maintenance-time-ms",
                "Time the coordinator spent maintaining the table",
                () -> maintenanceTimeMs)
            .add(
                "maintenance-failures",
                "Maintenance runs of the table that failed",
                () -> maintenanceFailures);
    this.registration =
        registry.register(
            TYPE,
            Map.of("table", table),
            Map.of("table", table),
            "Commits of table " + table + " by connector " + registry.connector(),
            gauges);
  }

  /**
   * A commit of the table landed.
   *
   * @param validThroughMs the table's watermark after it, or null if it has none
   * @param partial whether the cycle timed out before every partition answered
   */
  public synchronized void committed(
      long snapshotId,
      long records,
      long files,
      long bytes,
      long durationMs,
      Long validThroughMs,
      boolean partial) {
    last = new LastCommit(clock.millis(), durationMs, records, files, bytes, snapshotId);
    if (validThroughMs != null) {
      this.validThroughMs = Math.max(this.validThroughMs, validThroughMs);
    }
    commits++;
    recordsCommitted += records;
    if (partial) {
      partialCommits++;
    }
  }

  /**
   * The profile of what a commit of a table with a contract appended: its rows, and each column's
   * counts, each column an MBean of its own ({@link ColumnProfile}).
   */
  public synchronized void profiled(long rows, List<ColumnCounts> counts) {
    for (ColumnCounts column : counts) {
      columns
          .computeIfAbsent(column.column(), name -> new ColumnProfile(registry, table, name))
          .profiled(rows, column);
    }
  }

  /**
   * A commit was checked against the contract's volume objective.
   *
   * @return whether that began or ended a breach
   */
  public synchronized boolean volumeObjective(boolean breached) {
    return volume.checked(breached);
  }

  /**
   * A commit was checked against the contract's freshness objective.
   *
   * @return whether that began or ended a breach
   */
  public synchronized boolean freshnessObjective(boolean breached) {
    return freshness.checked(breached);
  }

  /** Whether an objective is breached, and the breaches of it that began. */
  private static final class Breach {
    private volatile boolean breached;
    private volatile long breaches;

    boolean checked(boolean now) {
      if (now == breached) {
        return false;
      }
      breached = now;
      if (now) {
        breaches++;
      }
      return true;
    }
  }

  /** A commit found {@code manifests} of its pending manifests already in the table. */
  public synchronized void alreadyCommitted(int manifests) {
    alreadyCommitted += manifests;
  }

  /**
   * Shows the table's last commit as the catalog has it, made before this coordinator started
   * (counts stay at zero). Ignored once this coordinator has committed the table: the restore runs
   * beside the commits and may finish after the first of them.
   *
   * @param validThroughMs the table's watermark, or null if it has none
   */
  public synchronized void restored(long snapshotId, long commitTimeMs, Long validThroughMs) {
    if (commits > 0) {
      return;
    }
    last = new LastCommit(commitTimeMs, UNKNOWN, 0, 0, 0, snapshotId);
    if (validThroughMs != null) {
      this.validThroughMs = Math.max(this.validThroughMs, validThroughMs);
    }
  }

  /**
   * The connector's snapshot expiry ran: it expired {@code expired} snapshots, kept {@code kept}.
   */
  public synchronized void expired(int expired, int kept, long filesDeleted, long durationMs) {
    snapshots = kept;
    snapshotsExpired += expired;
    filesDeletedByExpiry += filesDeleted;
    maintenanceTimeMs += durationMs;
    if (expired > 0) {
      lastExpiryMs = clock.millis();
    }
  }

  /** What a table holds, from its snapshot summary's totals. */
  private record Shape(
      long dataFiles, long deleteFiles, long records, long bytes, long positionDeletes) {}

  /**
   * The table's totals after a commit, from the summary of the snapshot it made ({@code
   * total-data-files}, {@code total-delete-files}, {@code total-records}, {@code total-files-size},
   * {@code total-position-deletes}).
   */
  public void shape(Map<String, String> summary) {
    shape =
        new Shape(
            total(summary, "total-data-files"),
            total(summary, "total-delete-files"),
            total(summary, "total-records"),
            total(summary, "total-files-size"),
            total(summary, "total-position-deletes"));
  }

  private static long total(Map<String, String> summary, String key) {
    String value = summary.get(key);
    try {
      return value == null ? UNKNOWN : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return UNKNOWN;
    }
  }

  long averageFileBytes() {
    Shape now = shape;
    long files = now.dataFiles() + Math.max(0, now.deleteFiles());
    return now.dataFiles() <= 0 || now.bytes() < 0 ? UNKNOWN : now.bytes() / files;
  }

  long deletedPerMille() {
    Shape now = shape;
    if (now.records() <= 0 || now.positionDeletes() < 0) {
      return now.records() == 0 ? 0 : UNKNOWN;
    }
    return now.positionDeletes() * 1000 / now.records();
  }

  /**
   * The connector's compaction ran: it replaced {@code rewritten} data files by {@code written}.
   */
  public synchronized void compacted(int rewritten, int written, long bytes, long durationMs) {
    filesCompacted += rewritten;
    filesWrittenByCompaction += written;
    bytesCompacted += bytes;
    maintenanceTimeMs += durationMs;
    if (rewritten > 0) {
      lastCompactionMs = clock.millis();
    }
  }

  /** The connector rewrote {@code vectors} live deletion vectors into a new Puffin file. */
  public synchronized void deletionVectorsRewritten(int vectors, long durationMs) {
    vectorsRewritten += vectors;
    maintenanceTimeMs += durationMs;
  }

  /** The connector's manifest rewrite ran: the table had {@code before} data manifests. */
  public synchronized void manifestsRewritten(int before, int after, long durationMs) {
    dataManifests = after;
    maintenanceTimeMs += durationMs;
    if (after != before) {
      manifestRewrites++;
    }
  }

  /** The connector scanned the table's location: {@code found} orphans, {@code deleted} deleted. */
  public synchronized void orphansScanned(int found, int deleted, long durationMs) {
    lastOrphanScanMs = clock.millis();
    orphanFilesFound = found;
    orphanFilesDeleted += deleted;
    maintenanceTimeMs += durationMs;
  }

  /** A maintenance run of the table failed. */
  public void maintenanceFailed() {
    maintenanceFailures++;
  }

  /** A commit attempt of the table failed. */
  public void failed() {
    failures++;
  }

  long freshnessLagMs() {
    long watermark = validThroughMs;
    return watermark == UNKNOWN ? UNKNOWN : Math.max(0, clock.millis() - watermark);
  }

  @Override
  public synchronized void close() {
    registration.close();
    columns.values().forEach(ColumnProfile::close);
    columns.clear();
  }
}
