/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * What Iceberg's expiry keeps of the branch the connector commits a table to, as its {@code
 * RemoveSnapshots} decides for every branch: the newest snapshots while fewer than the ref's {@code
 * min-snapshots-to-keep} are kept or they are younger than its {@code max-snapshot-age-ms} (the
 * expiry's defaults where the ref sets none), and none of the branch once its newest snapshot is
 * older than the ref's {@code max-ref-age-ms} (the table's {@code history.expire.max-ref-age-ms}
 * where the ref sets none), which removes the branch.
 *
 * @param kept the branch's snapshots kept
 * @param expired the branch's older snapshots, which the expiry removes, save those a ref names
 * @param defaultMinSnapshots the default {@code min-snapshots-to-keep} the expiry must have for the
 *     branch to keep its snapshot holding the connector's newest marks: 0 when the branch keeps it
 *     anyway
 * @param heldBack why the expiry must not run now (it would remove the branch, or the snapshot
 *     holding the connector's newest marks, whatever its defaults), null when it may
 */
record BranchRetention(
    Set<Long> kept, List<Long> expired, int defaultMinSnapshots, String heldBack) {

  /**
   * The retention of {@code branch}, named by {@code ref}, under {@code policy} at {@code nowMs}.
   *
   * @param marked whether a snapshot holds the connector's marks
   */
  static BranchRetention of(
      Table table,
      String branch,
      SnapshotRef ref,
      SnapshotExpiry.Policy policy,
      long nowMs,
      Predicate<Snapshot> marked) {
    Snapshot head = table.snapshot(ref.snapshotId());
    long maxRefAgeMs =
        ref.maxRefAgeMs() != null
            ? ref.maxRefAgeMs()
            : PropertyUtil.propertyAsLong(
                table.properties(),
                TableProperties.MAX_REF_AGE_MS,
                TableProperties.MAX_REF_AGE_MS_DEFAULT);
    if (head == null || nowMs - head.timestampMillis() > maxRefAgeMs) {
      return held(
          "branch "
              + branch
              + ", which the connector commits to, is older than its maximum age of "
              + maxRefAgeMs
              + " ms (history.expire.max-ref-age-ms, or its ref's own), so expiring snapshots"
              + " now would remove the branch; they are expired once the connector has committed"
              + " to it again");
    }
    List<Snapshot> history = new ArrayList<>();
    for (Snapshot snapshot = head;
        snapshot != null;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      history.add(snapshot);
    }
    long cutoff =
        ref.maxSnapshotAgeMs() != null
            ? nowMs - ref.maxSnapshotAgeMs()
            : nowMs - policy.maxSnapshotAgeMs();
    Integer ownMin = ref.minSnapshotsToKeep();
    int min = ownMin != null ? ownMin : policy.minSnapshotsToKeep();
    int newestMarked = 0;
    for (int i = 0; i < history.size(); i++) {
      if (marked.test(history.get(i))) {
        newestMarked = i + 1;
        break;
      }
    }
    int kept = kept(history, min, cutoff);
    int defaultMin = 0;
    if (newestMarked > kept) {
      if (ownMin != null) {
        return held(
            "the min-snapshots-to-keep of branch "
                + branch
                + " ("
                + ownMin
                + ") would expire its snapshot "
                + history.get(newestMarked - 1).snapshotId()
                + ", which holds the connector's newest marks (other writers committed to the"
                + " branch since); they are expired once the connector has committed to it again");
      }
      defaultMin = newestMarked;
      kept = kept(history, newestMarked, cutoff);
    }
    Set<Long> keptIds = new HashSet<>();
    history.subList(0, kept).forEach(snapshot -> keptIds.add(snapshot.snapshotId()));
    Set<Long> named = new HashSet<>();
    table.refs().values().forEach(other -> named.add(other.snapshotId()));
    List<Long> expired = new ArrayList<>();
    for (Snapshot snapshot : history.subList(kept, history.size())) {
      if (!named.contains(snapshot.snapshotId())) {
        expired.add(snapshot.snapshotId());
      }
    }
    return new BranchRetention(keptIds, expired, defaultMin, null);
  }

  /** How many of the newest snapshots Iceberg keeps: while fewer than {@code min}, or younger. */
  private static int kept(List<Snapshot> history, int min, long cutoff) {
    int kept = 0;
    while (kept < history.size() && (kept < min || history.get(kept).timestampMillis() >= cutoff)) {
      kept++;
    }
    return kept;
  }

  private static BranchRetention held(String reason) {
    return new BranchRetention(Set.of(), List.of(), 0, reason);
  }
}
