/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import io.floe.connect.branch.CommitBranch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Expires a table's old snapshots and deletes the files only they referenced.
 *
 * <p>What is kept follows the table's own {@code history.expire.max-snapshot-age-ms} and {@code
 * history.expire.min-snapshots-to-keep} where it sets them, else the connector's {@link Policy};
 * branches and tags, and their {@code history.expire.max-ref-age-ms}, are Iceberg's to honour. The
 * connector never needs an old snapshot to know its position: that is the {@code floe.last-commit}
 * table property (ARCHITECTURE.md, "Replays are skipped").
 *
 * <p>A table the connector commits to a branch other than main keeps that branch as Iceberg's
 * expiry treats every branch: its newest snapshots by the branch's own retention ({@code
 * min-snapshots-to-keep}, {@code max-snapshot-age-ms} of its ref), else the same policy as main.
 * Two things Iceberg's expiry would do are held back: it would remove the whole branch once its
 * newest snapshot is older than the ref's maximum age ({@code history.expire.max-ref-age-ms}), and
 * it would expire the snapshot holding the connector's newest marks when other writers committed to
 * the branch after it. The first makes the expiry wait (the connector's next commit to the branch
 * makes it young again), the second keeps as many of the branch's newest snapshots as reach that
 * snapshot.
 *
 * <p>Files are deleted by reachability: a file goes only if no snapshot left references it. The
 * expired snapshots are named one by one, which makes Iceberg compare what the snapshots kept and
 * those expired reference, instead of deleting each file an expired snapshot's manifests list as
 * deleted: with deletion vectors, one Puffin file holds the vectors of many data files, and a
 * commit that replaces one of them lists the whole Puffin file as deleted while the others still
 * live in it.
 */
public final class SnapshotExpiry {
  private SnapshotExpiry() {}

  /**
   * How long snapshots are kept where the table's properties say nothing.
   *
   * @param maxSnapshotAgeMs snapshots older than this are expired
   * @param minSnapshotsToKeep the newest snapshots of the main branch kept whatever their age
   */
  public record Policy(long maxSnapshotAgeMs, int minSnapshotsToKeep) {
    /** Iceberg's own defaults: 5 days, 1 snapshot. */
    public static final Policy ICEBERG_DEFAULTS =
        new Policy(
            TableProperties.MAX_SNAPSHOT_AGE_MS_DEFAULT,
            TableProperties.MIN_SNAPSHOTS_TO_KEEP_DEFAULT);

    public Policy {
      if (maxSnapshotAgeMs < 0) {
        throw new IllegalArgumentException("maxSnapshotAgeMs must be >= 0: " + maxSnapshotAgeMs);
      }
      if (minSnapshotsToKeep < 1) {
        throw new IllegalArgumentException(
            "minSnapshotsToKeep must be >= 1: " + minSnapshotsToKeep);
      }
    }

    /** The table's own {@code history.expire.*} values where it sets them, else these. */
    public Policy forTable(Table table) {
      return new Policy(
          PropertyUtil.propertyAsLong(
              table.properties(), TableProperties.MAX_SNAPSHOT_AGE_MS, maxSnapshotAgeMs),
          PropertyUtil.propertyAsInt(
              table.properties(), TableProperties.MIN_SNAPSHOTS_TO_KEEP, minSnapshotsToKeep));
    }
  }

  /**
   * What one expiry did.
   *
   * @param expired the snapshots expired
   * @param kept the snapshots left
   * @param filesDeleted the files deleted (manifest lists, manifests, data and delete files)
   * @param heldBack why nothing was expired although snapshots were due, null when it ran
   */
  public record Result(int expired, int kept, long filesDeleted, String heldBack) {
    /** An expiry that ran, or had nothing to expire. */
    public Result(int expired, int kept, long filesDeleted) {
      this(expired, kept, filesDeleted, null);
    }

    /** An expiry held back for {@code reason}: nothing expired. */
    static Result heldBack(int kept, String reason) {
      return new Result(0, kept, 0, reason);
    }
  }

  /**
   * The snapshots of the table's main branch that {@code policy} expires at {@code nowMs}: past the
   * newest {@code minSnapshotsToKeep} and older than the maximum age; never a branch's or tag's.
   */
  static List<Long> due(Table table, Policy policy, long nowMs) {
    Set<Long> referenced = new HashSet<>();
    for (SnapshotRef ref : table.refs().values()) {
      referenced.add(ref.snapshotId());
    }
    long cutoff = nowMs - policy.maxSnapshotAgeMs();
    List<Long> due = new ArrayList<>();
    int newer = 0;
    for (Snapshot snapshot = table.currentSnapshot();
        snapshot != null;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      newer++;
      if (newer > policy.minSnapshotsToKeep()
          && snapshot.timestampMillis() < cutoff
          && !referenced.contains(snapshot.snapshotId())) {
        due.add(snapshot.snapshotId());
      }
    }
    return due;
  }

  /**
   * Expires the snapshots that are due of a table the connector commits to main, and deletes the
   * files only they referenced.
   *
   * @param defaults the policy where the table's properties say nothing
   * @param nowMs the wall-clock time snapshots' ages are counted from
   * @param threads the threads to plan and delete on
   */
  public static Result expire(Table table, Policy defaults, long nowMs, ExecutorService threads) {
    return expire(table, defaults, nowMs, threads, CommitBranch.MAIN, snapshot -> false);
  }

  /**
   * Expires the table's snapshots that are due, those of the branch the connector commits to
   * included, and deletes the files only they referenced; held back (nothing expired, {@link
   * Result#heldBack} saying why) when it would remove that branch, or the branch's snapshot that
   * holds the connector's newest marks, and cannot keep it.
   *
   * @param branch the branch the connector commits the table to
   * @param marked whether a snapshot holds the connector's marks
   */
  public static Result expire(
      Table table,
      Policy defaults,
      long nowMs,
      ExecutorService threads,
      CommitBranch branch,
      Predicate<Snapshot> marked) {
    Policy policy = defaults.forTable(table);
    List<Long> due = due(table, policy, nowMs);
    int before = size(table.snapshots());
    int retainLast = policy.minSnapshotsToKeep();
    SnapshotRef ref = branch.isMain() ? null : table.refs().get(branch.name());
    if (ref != null) {
      BranchRetention retention =
          BranchRetention.of(table, branch.name(), ref, policy, nowMs, marked);
      if (retention.heldBack() != null) {
        return Result.heldBack(before, retention.heldBack());
      }
      retainLast = Math.max(retainLast, retention.defaultMinSnapshots());
      due.removeAll(retention.kept());
      Set<Long> keptByMain = new HashSet<>();
      for (Snapshot snapshot = table.currentSnapshot();
          snapshot != null;
          snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
        if (!due.contains(snapshot.snapshotId())) {
          keptByMain.add(snapshot.snapshotId());
        }
      }
      for (long id : retention.expired()) {
        if (!keptByMain.contains(id) && !due.contains(id)) {
          due.add(id);
        }
      }
    }
    if (due.isEmpty()) {
      return new Result(0, before, 0);
    }
    AtomicLong deleted = new AtomicLong();
    ExpireSnapshots expire =
        table
            .expireSnapshots()
            .expireOlderThan(nowMs - policy.maxSnapshotAgeMs())
            .retainLast(retainLast)
            .planWith(threads)
            .executeDeleteWith(threads)
            .deleteWith(
                location -> {
                  table.io().deleteFile(location);
                  deleted.incrementAndGet();
                });
    due.forEach(expire::expireSnapshotId);
    expire.commit();
    table.refresh();
    int after = size(table.snapshots());
    return new Result(before - after, after, deleted.get());
  }

  private static int size(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }
}
