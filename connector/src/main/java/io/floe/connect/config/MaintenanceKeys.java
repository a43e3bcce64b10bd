/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The keys of the coordinator's table maintenance (compaction, snapshot expiry): whether it
 * maintains the tables it commits to (each may leave itself to other engines with {@code
 * iceberg.table.<table>.maintenance-enabled}), how often, and how long snapshots are kept where a
 * table's own {@code history.expire.*} properties say nothing.
 *
 * @param enabled whether tables are maintained unless they say otherwise
 * @param intervalMs the least time between two runs of one table
 * @param expireSnapshots whether snapshot expiry runs
 * @param snapshotMaxAgeMs snapshots older than this are expired, where the table sets no {@code
 *     history.expire.max-snapshot-age-ms}
 * @param minSnapshotsToKeep the newest snapshots kept whatever their age, where the table sets no
 *     {@code history.expire.min-snapshots-to-keep}
 * @param compaction whether compaction runs
 * @param compactionMinInputFiles the fewest small files of a partition worth a rewrite
 * @param compactionDeleteRatio the share of deleted rows from which a file is rewritten
 * @param compactionMaxBytes the most bytes of data files one run rewrites
 * @param manifestThreshold the data manifests above which they are rewritten, 0 for never
 * @param minIntervalMs the least time between two runs of one table, whatever triggers
 * @param triggerCommits commits of a table that bring its run forward, 0 for no such trigger
 * @param triggerDataFiles data files added that bring a table's run forward, 0 for none
 * @param triggerDeleteRatio share of deleted rows that brings a table's run forward, 0 for none
 * @param timeBudgetMs how long one table's run may go on starting new work
 * @param orphanFiles {@code off}, {@code dry-run} or {@code delete}
 * @param orphanMinAgeMs the least age of an orphan file
 * @param orphanIntervalMs the least time between two orphan-file scans of one table
 */
public record MaintenanceKeys(
    boolean enabled,
    long intervalMs,
    boolean expireSnapshots,
    long snapshotMaxAgeMs,
    int minSnapshotsToKeep,
    boolean compaction,
    int compactionMinInputFiles,
    double compactionDeleteRatio,
    long compactionMaxBytes,
    int manifestThreshold,
    long minIntervalMs,
    int triggerCommits,
    long triggerDataFiles,
    double triggerDeleteRatio,
    long timeBudgetMs,
    String orphanFiles,
    long orphanMinAgeMs,
    long orphanIntervalMs) {
  static final String GROUP = "Maintenance";

  public static final String MAINTENANCE_ENABLED = "iceberg.tables.maintenance-enabled";
  public static final String MAINTENANCE_ENABLED_DOC =
      "Whether the coordinator maintains the tables it commits to (compaction, manifest rewrite,"
          + " snapshot expiry with file cleanup, and orphan-file removal where it is turned on),"
          + " between its own commits so it never races them. A table leaves itself to"
          + " other engines with iceberg.table.<table>.maintenance-enabled=false. Floe stays exactly"
          + " once when other engines maintain its tables either way.";
  public static final boolean MAINTENANCE_ENABLED_DEFAULT = true;

  public static final String MAINTENANCE_INTERVAL_MS = "iceberg.maintenance.interval-ms";
  public static final String MAINTENANCE_INTERVAL_MS_DOC =
      "The time between two maintenance runs of one table, in milliseconds, unless a trigger"
          + " (iceberg.maintenance.trigger.*) brings a run forward. A run follows the first commit"
          + " of the table after the interval has passed.";
  public static final long MAINTENANCE_INTERVAL_MS_DEFAULT = 10 * 60_000L;

  public static final String EXPIRE_SNAPSHOTS_ENABLED =
      "iceberg.maintenance.expire-snapshots-enabled";
  public static final String EXPIRE_SNAPSHOTS_ENABLED_DOC =
      "Whether the coordinator expires old snapshots of the tables it maintains and deletes the"
          + " files no snapshot left references (by reachability: a Puffin file some live deletion"
          + " vector still uses is never deleted). It honours the table's"
          + " history.expire.max-snapshot-age-ms, history.expire.min-snapshots-to-keep and"
          + " history.expire.max-ref-age-ms; branches and tags are kept.";
  public static final boolean EXPIRE_SNAPSHOTS_ENABLED_DEFAULT = true;

  public static final String SNAPSHOT_MAX_AGE_MS = "iceberg.maintenance.snapshot-max-age-ms";
  public static final String SNAPSHOT_MAX_AGE_MS_DOC =
      "Snapshots older than this, in milliseconds, are expired, for a table that sets no"
          + " history.expire.max-snapshot-age-ms. Iceberg's own default, 5 days, would keep"
          + " 43,200 snapshots of a table committed every 10 s, all of them rewritten into its"
          + " metadata file by every commit.";
  public static final long SNAPSHOT_MAX_AGE_MS_DEFAULT = 60 * 60_000L;

  public static final String MIN_SNAPSHOTS_TO_KEEP = "iceberg.maintenance.min-snapshots-to-keep";
  public static final String MIN_SNAPSHOTS_TO_KEEP_DOC =
      "The newest snapshots kept whatever their age, for a table that sets no"
          + " history.expire.min-snapshots-to-keep.";
  public static final int MIN_SNAPSHOTS_TO_KEEP_DEFAULT = 10;

  public static final String COMPACTION_ENABLED = "iceberg.maintenance.compaction-enabled";
  public static final String COMPACTION_ENABLED_DOC =
      "Whether the coordinator compacts the tables it maintains: per partition, the data files"
          + " below 3/4 of the table's write.target-file-size-bytes (when there are at least"
          + " iceberg.maintenance.compaction.min-input-files of them) and the files whose deletes"
          + " remove at least iceberg.maintenance.compaction.delete-ratio of their rows are"
          + " rewritten with their deletes applied, one commit per partition, which gives way to"
          + " any conflicting commit. The rows of a table with a sort order are sorted before they"
          + " are written (at most 32 MiB of files per partition and run).";
  public static final boolean COMPACTION_ENABLED_DEFAULT = true;

  public static final String COMPACTION_MIN_INPUT_FILES =
      "iceberg.maintenance.compaction.min-input-files";
  public static final String COMPACTION_MIN_INPUT_FILES_DOC =
      "The fewest small data files of one partition that compaction rewrites together.";
  public static final int COMPACTION_MIN_INPUT_FILES_DEFAULT = 5;

  public static final String COMPACTION_DELETE_RATIO =
      "iceberg.maintenance.compaction.delete-ratio";
  public static final String COMPACTION_DELETE_RATIO_DOC =
      "The share of a data file's rows its deletion vector or file-scoped position deletes remove"
          + " from which compaction rewrites the file whatever its size.";
  public static final double COMPACTION_DELETE_RATIO_DEFAULT = 0.3;

  public static final String COMPACTION_MAX_BYTES = "iceberg.maintenance.compaction.max-bytes";
  public static final String COMPACTION_MAX_BYTES_DOC =
      "The most bytes of data files one maintenance run of a table rewrites (one partition at"
          + " least); a larger backlog is worked off a run at a time.";
  public static final long COMPACTION_MAX_BYTES_DEFAULT = 128L * 1024 * 1024;

  public static final String REWRITE_MANIFESTS_THRESHOLD =
      "iceberg.maintenance.rewrite-manifests-threshold";
  public static final String REWRITE_MANIFESTS_THRESHOLD_DOC =
      "The data manifests a maintained table may have before the coordinator rewrites them into"
          + " fewer (each commit appends one manifest per task); 0 never rewrites them.";
  public static final int REWRITE_MANIFESTS_THRESHOLD_DEFAULT = 100;

  public static final String MIN_INTERVAL_MS = "iceberg.maintenance.min-interval-ms";
  public static final String MIN_INTERVAL_MS_DOC =
      "The least time between two maintenance runs of one table, in milliseconds, however soon a"
          + " trigger (iceberg.maintenance.trigger.*) is reached.";
  public static final long MIN_INTERVAL_MS_DEFAULT = 60_000L;

  public static final String TRIGGER_COMMITS = "iceberg.maintenance.trigger.commits";
  public static final String TRIGGER_COMMITS_DOC =
      "Brings a table's maintenance run forward once the connector has committed to it this many"
          + " times since its last run (no sooner than iceberg.maintenance.min-interval-ms after"
          + " it); 0 turns this trigger off.";
  public static final int TRIGGER_COMMITS_DEFAULT = 0;

  public static final String TRIGGER_DATA_FILES = "iceberg.maintenance.trigger.data-files";
  public static final String TRIGGER_DATA_FILES_DOC =
      "Brings a table's maintenance run forward once the connector's commits have added this many"
          + " data files to it since its last run (small files to compact); 0 turns this trigger"
          + " off.";
  public static final long TRIGGER_DATA_FILES_DEFAULT = 0;

  public static final String TRIGGER_DELETE_RATIO = "iceberg.maintenance.trigger.delete-ratio";
  public static final String TRIGGER_DELETE_RATIO_DOC =
      "Brings a table's maintenance run forward once its delete files (deletion vectors, position"
          + " deletes) remove this share of its rows, as of the connector's last commit; 0 turns"
          + " this trigger off.";
  public static final double TRIGGER_DELETE_RATIO_DEFAULT = 0;

  public static final String TIME_BUDGET_MS = "iceberg.maintenance.time-budget-ms";
  public static final String TIME_BUDGET_MS_DOC =
      "How long one table's maintenance run may go on starting new work, in milliseconds:"
          + " compaction starts no new partition and orphan-file deletion no new batch after it"
          + " (what is left waits for the next run). The connector's commits wait while a run goes"
          + " on.";
  public static final long TIME_BUDGET_MS_DEFAULT = 60_000L;

  public static final String ORPHAN_FILES = "iceberg.maintenance.orphan-files";
  public static final String ORPHAN_FILES_DOC =
      "Whether the coordinator looks for orphan files under the locations of the tables it"
          + " maintains (files no snapshot, metadata file, manifest or statistics file references"
          + " and no control event it has not committed names, older than"
          + " iceberg.maintenance.orphan-files.min-age-ms): 'off'; 'dry-run' to count and log them"
          + " only; 'delete' to delete them. Run a dry run first.";
  public static final String ORPHAN_FILES_DEFAULT = "off";

  public static final String ORPHAN_MIN_AGE_MS = "iceberg.maintenance.orphan-files.min-age-ms";
  public static final String ORPHAN_MIN_AGE_MS_DOC =
      "The least age of an orphan file, in milliseconds: younger files may belong to a commit in"
          + " progress, by this connector or another engine. The coordinator raises it to the"
          + " control topic's retention.ms plus iceberg.control.commit.timeout-ms where it can read"
          + " the topic's retention, so no control event a restarted coordinator could replay"
          + " names a file it deletes.";
  public static final long ORPHAN_MIN_AGE_MS_DEFAULT = 3 * 24 * 60 * 60_000L;

  public static final String ORPHAN_INTERVAL_MS = "iceberg.maintenance.orphan-files.interval-ms";
  public static final String ORPHAN_INTERVAL_MS_DOC =
      "The least time between two orphan-file scans of one table, in milliseconds (a scan lists"
          + " every file under the table's location and reads every manifest).";
  public static final long ORPHAN_INTERVAL_MS_DEFAULT = 24 * 60 * 60_000L;

  /**
   * Orphan files younger than two commit intervals may belong to a cycle still being handed over or
   * committed: a shorter minimum age is refused.
   */
  static void check(Map<String, ConfigValue> values) {
    if (!ConfigValidation.valid(
            values, ORPHAN_FILES, ORPHAN_MIN_AGE_MS, CommitKeys.COMMIT_INTERVAL_MS)
        || "off".equalsIgnoreCase(String.valueOf(values.get(ORPHAN_FILES).value()))) {
      return;
    }
    long minAge = (Long) values.get(ORPHAN_MIN_AGE_MS).value();
    long interval = (Long) values.get(CommitKeys.COMMIT_INTERVAL_MS).value();
    if (minAge < 2 * interval) {
      ConfigValidation.error(
          values,
          ORPHAN_MIN_AGE_MS,
          "The least age of an orphan file ("
              + minAge
              + " ms) must be at least twice the commit interval ("
              + interval
              + " ms): younger files may belong to a cycle still being handed over or committed."
              + " Days are usual (the default is 3).");
    }
  }

  static MaintenanceKeys parse(AbstractConfig config) {
    return new MaintenanceKeys(
        config.getBoolean(MAINTENANCE_ENABLED),
        config.getLong(MAINTENANCE_INTERVAL_MS),
        config.getBoolean(EXPIRE_SNAPSHOTS_ENABLED),
        config.getLong(SNAPSHOT_MAX_AGE_MS),
        config.getInt(MIN_SNAPSHOTS_TO_KEEP),
        config.getBoolean(COMPACTION_ENABLED),
        config.getInt(COMPACTION_MIN_INPUT_FILES),
        config.getDouble(COMPACTION_DELETE_RATIO),
        config.getLong(COMPACTION_MAX_BYTES),
        config.getInt(REWRITE_MANIFESTS_THRESHOLD),
        config.getLong(MIN_INTERVAL_MS),
        config.getInt(TRIGGER_COMMITS),
        config.getLong(TRIGGER_DATA_FILES),
        config.getDouble(TRIGGER_DELETE_RATIO),
        config.getLong(TIME_BUDGET_MS),
        config.getString(ORPHAN_FILES).toLowerCase(java.util.Locale.ROOT),
        config.getLong(ORPHAN_MIN_AGE_MS),
        config.getLong(ORPHAN_INTERVAL_MS));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        MAINTENANCE_ENABLED,
        Type.BOOLEAN,
        MAINTENANCE_ENABLED_DEFAULT,
        Importance.MEDIUM,
        MAINTENANCE_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Maintenance");
    def.define(
        MAINTENANCE_INTERVAL_MS,
        Type.LONG,
        MAINTENANCE_INTERVAL_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        MAINTENANCE_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Maintenance interval (ms)");
    def.define(
        EXPIRE_SNAPSHOTS_ENABLED,
        Type.BOOLEAN,
        EXPIRE_SNAPSHOTS_ENABLED_DEFAULT,
        Importance.LOW,
        EXPIRE_SNAPSHOTS_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshot expiry");
    def.define(
        SNAPSHOT_MAX_AGE_MS,
        Type.LONG,
        SNAPSHOT_MAX_AGE_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        SNAPSHOT_MAX_AGE_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshot max age (ms)");
    def.define(
        MIN_SNAPSHOTS_TO_KEEP,
        Type.INT,
        MIN_SNAPSHOTS_TO_KEEP_DEFAULT,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        MIN_SNAPSHOTS_TO_KEEP_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshots kept");
    def.define(
        COMPACTION_ENABLED,
        Type.BOOLEAN,
        COMPACTION_ENABLED_DEFAULT,
        Importance.LOW,
        COMPACTION_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction");
    def.define(
        COMPACTION_MIN_INPUT_FILES,
        Type.INT,
        COMPACTION_MIN_INPUT_FILES_DEFAULT,
        ConfigDef.Range.atLeast(2),
        Importance.LOW,
        COMPACTION_MIN_INPUT_FILES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction input files");
    def.define(
        COMPACTION_DELETE_RATIO,
        Type.DOUBLE,
        COMPACTION_DELETE_RATIO_DEFAULT,
        ConfigDef.Range.between(0.0, 1.0),
        Importance.LOW,
        COMPACTION_DELETE_RATIO_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction delete ratio");
    def.define(
        COMPACTION_MAX_BYTES,
        Type.LONG,
        COMPACTION_MAX_BYTES_DEFAULT,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        COMPACTION_MAX_BYTES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction bytes per run");
    def.define(
        REWRITE_MANIFESTS_THRESHOLD,
        Type.INT,
        REWRITE_MANIFESTS_THRESHOLD_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        REWRITE_MANIFESTS_THRESHOLD_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Manifest rewrite threshold");
    def.define(
        MIN_INTERVAL_MS,
        Type.LONG,
        MIN_INTERVAL_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        MIN_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Maintenance min interval (ms)");
    def.define(
        TRIGGER_COMMITS,
        Type.INT,
        TRIGGER_COMMITS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        TRIGGER_COMMITS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Trigger: commits");
    def.define(
        TRIGGER_DATA_FILES,
        Type.LONG,
        TRIGGER_DATA_FILES_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        TRIGGER_DATA_FILES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Trigger: data files");
    def.define(
        TRIGGER_DELETE_RATIO,
        Type.DOUBLE,
        TRIGGER_DELETE_RATIO_DEFAULT,
        ConfigDef.Range.between(0.0, 1.0),
        Importance.LOW,
        TRIGGER_DELETE_RATIO_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Trigger: delete ratio");
    def.define(
        TIME_BUDGET_MS,
        Type.LONG,
        TIME_BUDGET_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        TIME_BUDGET_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Time budget per run (ms)");
    def.define(
        ORPHAN_FILES,
        Type.STRING,
        ORPHAN_FILES_DEFAULT,
        ConfigDef.CaseInsensitiveValidString.in("off", "dry-run", "delete"),
        Importance.LOW,
        ORPHAN_FILES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan files");
    def.define(
        ORPHAN_MIN_AGE_MS,
        Type.LONG,
        ORPHAN_MIN_AGE_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        ORPHAN_MIN_AGE_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan file min age (ms)");
    def.define(
        ORPHAN_INTERVAL_MS,
        Type.LONG,
        ORPHAN_INTERVAL_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        ORPHAN_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan scan interval (ms)");
  }
}
