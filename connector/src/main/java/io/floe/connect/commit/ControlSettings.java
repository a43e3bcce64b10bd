/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.MaintenanceKeys;
import io.floe.connect.config.Secrets;
import io.floe.connect.config.UpsertKeys;
import io.floe.connect.contract.Contract;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.maintain.Compaction;
import io.floe.connect.maintain.MaintenanceSettings;
import io.floe.connect.maintain.OrphanFiles;
import io.floe.connect.maintain.SnapshotExpiry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The commit protocol's settings of one task.
 *
 * @param connectorName the connector's name, part of every transactional id
 * @param taskIndex the task's number
 * @param transactionalIdPrefix prefix of the transactional ids
 * @param commitInterval how often a cycle starts
 * @param commitTimeout how long a cycle waits for every answer
 * @param retryTimeout how long retriable commit failures are retried
 * @param bufferBytes pending bytes at which a worker asks for an early cycle
 * @param secrets the connector's secret values, masked in what the control threads log and throw
 * @param tables the configured (static) tables, whose metrics the coordinator restores at start
 * @param maxSilentCycles consecutive cycles without an answer for a partition that fail the
 *     coordinator (0: never)
 * @param keyIndex which upsert tables the coordinator keeps a key index for, and its budget
 * @param maintenance what the coordinator does to keep its tables healthy
 * @param branches the branch each table's commits go to, by the table's configured name
 * @param contracts each table's contract, by the table's configured name, if it has one
 */
public record ControlSettings(
    String connectorName,
    int taskIndex,
    String transactionalIdPrefix,
    Duration commitInterval,
    Duration commitTimeout,
    Duration retryTimeout,
    long bufferBytes,
    Secrets secrets,
    List<String> tables,
    int maxSilentCycles,
    KeyIndexSettings keyIndex,
    MaintenanceSettings maintenance,
    Function<String, CommitBranch> branches,
    Function<String, Optional<Contract>> contracts) {

  public static ControlSettings of(FloeSinkConfig config) {
    return new ControlSettings(
        config.connectorName(),
        config.taskIndex(),
        config.transactionalIdPrefix(),
        config.commitInterval(),
        config.commitTimeout(),
        config.commitRetryTimeout(),
        config.commitBufferBytes(),
        config.secrets(),
        List.copyOf(config.tables()),
        config.commitMaxSilentCycles(),
        new KeyIndexSettings(
            config::upsertKeyIndexEnabled,
            config.upsertKeyIndexMaxBytes(),
            UpsertKeys.UPSERT_KEY_INDEX_MAX_MEMORY_MB),
        maintenance(config),
        table -> CommitBranch.of(config.commitBranch(table)),
        table -> config.tableConfig(table).contract());
  }

  private static MaintenanceSettings maintenance(FloeSinkConfig config) {
    MaintenanceKeys keys = config.maintenance();
    return new MaintenanceSettings(
        config::maintenanceEnabled,
        Duration.ofMillis(keys.intervalMs()),
        keys.expireSnapshots(),
        new SnapshotExpiry.Policy(keys.snapshotMaxAgeMs(), keys.minSnapshotsToKeep()),
        keys.compaction()
            ? new Compaction.Settings(
                keys.compactionMinInputFiles(),
                keys.compactionDeleteRatio(),
                keys.compactionMaxBytes())
            : null,
        keys.manifestThreshold(),
        new MaintenanceSettings.Triggers(
            Duration.ofMillis(keys.minIntervalMs()),
            keys.triggerCommits(),
            keys.triggerDataFiles(),
            keys.triggerDeleteRatio()),
        Duration.ofMillis(keys.timeBudgetMs()),
        keys.orphanFiles().equals("off")
            ? null
            : new OrphanFiles.Settings(
                keys.orphanFiles().equals("delete")
                    ? OrphanFiles.Mode.DELETE
                    : OrphanFiles.Mode.DRY_RUN,
                keys.orphanMinAgeMs(),
                Duration.ofMillis(keys.orphanIntervalMs())));
  }

  /** These settings with other maintenance. */
  ControlSettings withMaintenance(MaintenanceSettings maintenance) {
    return new ControlSettings(
        connectorName,
        taskIndex,
        transactionalIdPrefix,
        commitInterval,
        commitTimeout,
        retryTimeout,
        bufferBytes,
        secrets,
        tables,
        maxSilentCycles,
        keyIndex,
        maintenance,
        branches,
        contracts);
  }

  /** The worker's transactional id: stable per task, so a restarted task fences its old self. */
  String workerTransactionalId() {
    return transactionalIdPrefix + "floe-" + connectorName + "-worker-" + taskIndex;
  }

  /** The coordinator's transactional id: one per connector, so a new coordinator fences the old. */
  String coordinatorTransactionalId() {
    return transactionalIdPrefix + "floe-" + connectorName + "-coordinator";
  }

  /** The group holding the coordinator's control-topic position. */
  String coordinatorGroupId() {
    return "floe-" + connectorName + "-coordinator";
  }

  String taskId() {
    return connectorName + "-" + taskIndex;
  }
}
