/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;

/**
 * What must hold once a schedule has settled: every produced record is in every table exactly once
 * (a table in upsert mode holds its change stream's final state instead: the last change of each
 * live key, once, and no equality deletes); the Connect group's committed offsets are the ends of
 * the source partitions and what the tables' snapshot summaries say; no data file was added twice;
 * watermarks never went back; and no file a snapshot references was written twice or by an instance
 * after its replacement started (nothing Floe writes may replace a file). A table committed to a
 * branch other than main is checked on that branch, and its main must hold no row of the source and
 * no commit of the connector.
 */
final class SimOracle {
  /**
   * The topic of the rows another writer appends to main, which the checks of the source's rows
   * leave out: the branch holds those that came before its first commit.
   */
  static final String ELSEWHERE = "elsewhere";

  /** A broken rule. */
  record Violation(String rule, String detail) {
    @Override
    public String toString() {
      return rule + ": " + detail;
    }
  }

  private final List<Violation> violations = new ArrayList<>();

  /** The quarantine table of a contract refusing the offsets past {@link #acceptedThrough}. */
  private String quarantine;

  private long acceptedThrough = Long.MAX_VALUE;

  /**
   * Per table, what its snapshot summaries say of the source offsets, when they are checked
   * together.
   */
  private final Map<String, Map<TopicPartition, Long>> summaries = new TreeMap<>();

  /**
   * The tables' contract refuses every record past offset {@code acceptedThrough}, and those go to
   * the quarantine table {@code table} and to no other: each table then holds the records up to it,
   * the quarantine table those past it (by its columns {@code source_topic}, {@code
   * source_partition}, {@code source_offset}), and the tables' summaries are checked together
   * ({@link #checkSummariesTogether}), as a table is not committed by the cycles that had nothing
   * for it.
   */
  void quarantine(String table, long acceptedThrough) {
    this.quarantine = table;
    this.acceptedThrough = acceptedThrough;
  }

  List<Violation> violations() {
    return violations;
  }

  void violated(String rule, String detail) {
    violations.add(new Violation(rule, detail));
  }

  /**
   * Checks one table, committed to {@code branch}, against the source and the group's committed
   * offsets.
   */
  void checkTable(
      String name,
      Table table,
      CommitBranch branch,
      SimSource source,
      Map<TopicPartition, Long> committed,
      SimFileIO io) {
    table.refresh();
    Snapshot head = branch.head(table);
    if (source.changing()) {
      checkMirror(name, table, head, source);
    } else {
      checkRows(name, table, head, source);
    }
    if (!branch.isMain()) {
      checkMainUntouched(name, table, branch);
    }
    List<Snapshot> history = history(table, head);
    checkSummary(name, table, branch, history, committed);
    Map<String, List<TestManifests.Listed>> manifests = new HashMap<>();
    Map<Long, List<String>> added = new HashMap<>();
    for (Snapshot snapshot : history) {
      added.put(snapshot.snapshotId(), new ArrayList<>());
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        List<TestManifests.Listed> files =
            manifests.computeIfAbsent(
                manifest.path(), path -> TestManifests.listed(table, manifest));
        if (manifest.snapshotId() != null && manifest.snapshotId() == snapshot.snapshotId()) {
          // a manifest the snapshot wrote may carry earlier files on (a delete manifest rewritten
          // without a replaced deletion vector): only those of its sequence number are new
          for (TestManifests.Listed file : files) {
            if (file.fileSequenceNumber() == null
                || file.fileSequenceNumber() == snapshot.sequenceNumber()) {
              added.get(snapshot.snapshotId()).add(file.file());
            }
          }
        }
      }
    }
    checkAddedOnce(name, history, added);
    checkWatermarks(name, history);
    checkCommittedFiles(name, manifests, added, io);
  }

  /**
   * With a quarantine table: the newest summary of the tables, taken together, says what the group
   * committed (each table's alone says no more, {@link #checkSummary}). A source partition whose
   * every record went to the quarantine table is in no summary of the others, and the reverse.
   */
  void checkSummariesTogether(Map<TopicPartition, Long> committed) {
    Map<TopicPartition, Long> newest = new TreeMap<>(SimTask.ORDER);
    summaries.values().forEach(latest -> latest.forEach((p, o) -> newest.merge(p, o, Math::max)));
    Map<TopicPartition, Long> group = new TreeMap<>(SimTask.ORDER);
    group.putAll(committed);
    if (!newest.equals(group)) {
      violated(
          "source-offsets-summary",
          "the tables' summaries say "
              + summaries
              + " together "
              + newest
              + ", the group "
              + group);
    }
  }

  /** The group committed the end of every partition that has records, and nothing else. */
  void checkGroup(SimSource source, Map<TopicPartition, Long> committed) {
    Map<TopicPartition, Long> expected = new TreeMap<>(SimTask.ORDER);
    for (TopicPartition partition : source.partitions()) {
      if (source.end(partition) > 0) {
        expected.put(partition, source.end(partition));
      }
    }
    Map<TopicPartition, Long> actual = new TreeMap<>(SimTask.ORDER);
    actual.putAll(committed);
    if (!expected.equals(actual)) {
      violated("group-offsets", "committed " + actual + ", source ends " + expected);
    }
  }

  /** Every write that replaced an existing file, committed or not. */
  void checkNoOverwrite(SimFileIO io) {
    io.writes()
        .forEach(
            (path, writes) -> {
              for (SimFileIO.Write write : writes) {
                if (write.overwrote()) {
                  violated("file-overwritten", path + " written " + writes);
                  return;
                }
              }
            });
  }

  /** The rows of {@code snapshot} (none for null), those another writer appended left out. */
  private static CloseableIterable<Record> read(Table table, Snapshot snapshot) {
    if (snapshot == null) {
      return CloseableIterable.empty();
    }
    return CloseableIterable.filter(
        IcebergGenerics.read(table).useSnapshot(snapshot.snapshotId()).build(),
        row -> !ELSEWHERE.equals(row.getField("topic")));
  }

  /**
   * Main, of a table committed to another branch: no row of the source, and no snapshot of the
   * connector in its history.
   */
  private void checkMainUntouched(String name, Table table, CommitBranch branch) {
    Snapshot main = table.currentSnapshot();
    List<String> wrong = new ArrayList<>();
    try (CloseableIterable<Record> rows = read(table, main)) {
      for (Record row : rows) {
        wrong.add(
            row.getField("topic") + "-" + row.getField("partition") + "@" + row.getField("offset"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      violated("table-readable", name + " main: " + e);
      return;
    }
    if (!wrong.isEmpty()) {
      violated(
          "main-untouched",
          name + " is committed to branch " + branch + ", but main holds rows " + wrong);
    }
    for (Snapshot snapshot : history(table, main)) {
      if (snapshot.summary().containsKey(CommitMarks.CONTROL_OFFSETS + SimConnect.GROUP)) {
        violated(
            "main-untouched",
            name
                + " is committed to branch "
                + branch
                + ", but main's snapshot "
                + snapshot.snapshotId()
                + " is the connector's");
        return;
      }
    }
  }

  private void checkRows(String name, Table table, Snapshot head, SimSource source) {
    boolean quarantined = name.equals(quarantine);
    String prefix = quarantined ? "source_" : "";
    Map<TopicPartition, Map<Long, Integer>> seen = new HashMap<>();
    try (CloseableIterable<Record> rows = read(table, head)) {
      for (Record row : rows) {
        TopicPartition partition =
            new TopicPartition(
                (String) row.getField(prefix + "topic"),
                (Integer) row.getField(prefix + "partition"));
        seen.computeIfAbsent(partition, p -> new HashMap<>())
            .merge((Long) row.getField(prefix + "offset"), 1, Integer::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      violated("table-readable", name + ": " + e);
      return;
    }
    for (TopicPartition partition : source.partitions()) {
      Map<Long, Integer> counts = seen.getOrDefault(partition, Map.of());
      List<Long> missing = new ArrayList<>();
      List<Long> twice = new ArrayList<>();
      List<Long> refused = new ArrayList<>();
      for (long offset = 0; offset < source.end(partition); offset++) {
        int count = counts.getOrDefault(offset, 0);
        boolean expected = quarantined == offset > acceptedThrough;
        if (!expected) {
          if (count > 0) {
            refused.add(offset);
          }
        } else if (count == 0) {
          missing.add(offset);
        } else if (count > 1) {
          twice.add(offset);
        }
      }
      if (!missing.isEmpty()) {
        violated("exactly-once", name + " lacks " + partition + " offsets " + ranges(missing));
      }
      if (!twice.isEmpty()) {
        violated(
            "exactly-once", name + " has " + partition + " offsets " + ranges(twice) + " twice");
      }
      if (!refused.isEmpty()) {
        violated(
            "quarantine",
            name
                + " has "
                + partition
                + " offsets "
                + ranges(refused)
                + (quarantined ? ", which the contract accepts" : ", which the contract refuses"));
      }
      for (Long offset : counts.keySet()) {
        if (offset >= source.end(partition)) {
          violated("exactly-once", name + " has unknown " + partition + " offset " + offset);
        }
      }
    }
  }

  /**
   * A table in upsert mode mirrors its changing source: one row for each live key, holding the
   * key's last change (by its partition and offset), and no row for a deleted key; and no equality
   * delete anywhere.
   */
  private void checkMirror(String name, Table table, Snapshot head, SimSource source) {
    Map<Long, SimSource.TopicPartitionOffset> expected = source.finalState();
    Map<Long, List<SimSource.TopicPartitionOffset>> rowsByKey = new TreeMap<>();
    try (CloseableIterable<Record> rows = read(table, head)) {
      for (Record row : rows) {
        rowsByKey
            .computeIfAbsent((Long) row.getField("key"), k -> new ArrayList<>())
            .add(
                new SimSource.TopicPartitionOffset(
                    new TopicPartition(
                        (String) row.getField("topic"), (Integer) row.getField("partition")),
                    (Long) row.getField("offset")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      violated("table-readable", name + ": " + e);
      return;
    }
    List<String> wrong = new ArrayList<>();
    rowsByKey.forEach(
        (key, rows) -> {
          SimSource.TopicPartitionOffset last = expected.get(key);
          if (rows.size() > 1) {
            wrong.add("key " + key + " has " + rows.size() + " rows " + rows);
          } else if (last == null) {
            wrong.add("deleted key " + key + " has a row from " + rows.get(0));
          } else if (!last.equals(rows.get(0))) {
            wrong.add("key " + key + " holds " + rows.get(0) + ", its last change is " + last);
          }
        });
    // a truncate on one partition removes other partitions' keys committed, or read by its task,
    // before it: there, a live key may have no row, but a row is never stale
    if (!source.truncatesAcrossPartitions()) {
      expected.forEach(
          (key, last) -> {
            if (!rowsByKey.containsKey(key)) {
              wrong.add("key " + key + " (last change " + last + ") has no row");
            }
          });
    }
    if (!wrong.isEmpty()) {
      violated(
          "mirrors-source",
          name + ": " + String.join("; ", wrong.subList(0, Math.min(8, wrong.size()))));
    }
    String equalityDeletes = head == null ? null : head.summary().get("total-equality-deletes");
    if (equalityDeletes != null && !equalityDeletes.equals("0")) {
      violated("no-equality-deletes", name + ": total-equality-deletes=" + equalityDeletes);
    }
  }

  /** The table's snapshots, oldest first, from {@code head} back. */
  private static List<Snapshot> history(Table table, Snapshot head) {
    List<Snapshot> history = new ArrayList<>();
    for (Snapshot s = head;
        s != null;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      history.add(s);
    }
    Collections.reverse(history);
    return history;
  }

  /**
   * For every partition, the newest source offset the table's commits recorded equals the group's
   * committed offset: in the summaries of the branch's history, or, where another engine expired
   * the snapshots that held them, in the table's property of the group's last commit, which each
   * commit sets with its snapshot.
   */
  private void checkSummary(
      String name,
      Table table,
      CommitBranch branch,
      List<Snapshot> history,
      Map<TopicPartition, Long> committed) {
    Map<TopicPartition, Long> latest = new TreeMap<>(SimTask.ORDER);
    for (Snapshot snapshot : history) {
      CommitMarks.read(snapshot, SimConnect.GROUP)
          .ifPresent(mark -> latest.putAll(mark.sourceOffsets()));
    }
    CommitMarks.recorded(table, SimConnect.GROUP, branch)
        .ifPresent(mark -> mark.sourceOffsets().forEach((p, o) -> latest.merge(p, o, Math::max)));
    Map<TopicPartition, Long> group = new TreeMap<>(SimTask.ORDER);
    group.putAll(committed);
    if (quarantine != null) {
      summaries.put(name, latest);
      latest.forEach(
          (partition, offset) -> {
            if (offset > group.getOrDefault(partition, 0L)) {
              violated(
                  "source-offsets-summary",
                  name + " summaries say " + latest + ", past the group's " + group);
            }
          });
      return;
    }
    if (!latest.equals(group)) {
      violated(
          "source-offsets-summary", name + " summaries say " + latest + ", the group " + group);
    }
  }

  private void checkAddedOnce(String name, List<Snapshot> history, Map<Long, List<String>> added) {
    Map<String, Long> addedBy = new HashMap<>();
    for (Snapshot snapshot : history) {
      for (String file : added.get(snapshot.snapshotId())) {
        Long earlier = addedBy.putIfAbsent(file, snapshot.snapshotId());
        if (earlier != null) {
          violated(
              "data-file-added-twice",
              name + ": " + file + " in snapshots " + earlier + " and " + snapshot.snapshotId());
        }
      }
    }
  }

  private void checkWatermarks(String name, List<Snapshot> history) {
    Long previous = null;
    for (Snapshot snapshot : history) {
      String value = snapshot.summary().get(CommitMarks.VALID_THROUGH_MS + SimConnect.GROUP);
      if (value == null) {
        continue;
      }
      long mark = Long.parseLong(value);
      if (previous != null && mark < previous) {
        violated(
            "watermark-backwards",
            name + ": " + previous + " then " + mark + " in snapshot " + snapshot.snapshotId());
      }
      previous = mark;
    }
  }

  /**
   * Every data file and manifest a snapshot references was written once, and not by an instance
   * whose replacement had started.
   */
  private void checkCommittedFiles(
      String name,
      Map<String, List<TestManifests.Listed>> manifests,
      Map<Long, List<String>> added,
      SimFileIO io) {
    Set<String> committed = new HashSet<>(manifests.keySet());
    manifests.values().forEach(files -> files.forEach(file -> committed.add(file.location())));
    for (String path : committed) {
      List<SimFileIO.Write> writes = io.writes().getOrDefault(path, List.of());
      if (writes.size() > 1) {
        violated("committed-file-written-twice", name + ": " + path + " " + writes);
      }
      for (SimFileIO.Write write : writes) {
        if (write.worker() && write.writerReplaced()) {
          violated("committed-file-by-replaced-instance", name + ": " + path + " " + write);
        }
      }
    }
  }

  private static String ranges(List<Long> offsets) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    int shown = 0;
    while (i < offsets.size() && shown < 8) {
      int j = i;
      while (j + 1 < offsets.size() && offsets.get(j + 1) == offsets.get(j) + 1) {
        j++;
      }
      out.append(out.length() == 0 ? "" : ",").append(offsets.get(i));
      if (j > i) {
        out.append("-").append(offsets.get(j));
      }
      shown++;
      i = j + 1;
    }
    if (i < offsets.size()) {
      out.append(",...");
    }
    return "[" + out + "]";
  }
}
