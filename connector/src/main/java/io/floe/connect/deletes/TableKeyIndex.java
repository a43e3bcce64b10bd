/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's key index on the coordinator, and what happens when it cannot serve: an index is an
 * optimisation, so it never fails a commit. {@link UpsertCommit} asks it before each locate for the
 * files that may hold the retired keys ({@link #lookup}), and tells it after its commit ({@link
 * #committed}).
 *
 * <ul>
 *   <li>Built lazily, at the first lookup, from the snapshot the commit starts from.
 *   <li>Kept current: after this connector's commit it drops what the commit deleted and adds the
 *       keys of the files it added; when the table moved on by other commits (compaction, another
 *       writer, a rollback) it follows the snapshots in between, or is built again when one of them
 *       expired or the table's history no longer leads from its snapshot.
 *   <li>Dropped for good, with one WARN, when it would take more than its budget, when a key column
 *       cannot be indexed, or when building or updating it fails: the table's keys are then located
 *       by the pruned scan until the coordinator starts again.
 * </ul>
 */
public final class TableKeyIndex {
  private static final Logger LOG = LoggerFactory.getLogger(TableKeyIndex.class);
  private static final double MB = 1024.0 * 1024.0;

  private final String table;
  private final boolean enabled;
  private final long maxBytes;
  private final String budgetSetting;
  private final ExecutorService readers;
  private final KeyHashes hashes;
  private KeyIndex index;
  private String tableUuid;
  private boolean dropped;
  private int builds;

  /**
   * An index for {@code table}, built at its first lookup.
   *
   * @param maxBytes the most bytes it may take
   * @param budgetSetting the setting that raises {@code maxBytes}, named when it is dropped
   * @param readers the threads reading data files, null to read them on the calling thread
   */
  TableKeyIndex(String table, long maxBytes, String budgetSetting, ExecutorService readers) {
    this(table, true, maxBytes, budgetSetting, readers, KeyHashes.STANDARD);
  }

  /** How an index hashes the keys of a key schema (see {@link KeyIndex}). */
  @FunctionalInterface
  interface KeyHashes {
    KeyHashes STANDARD = KeyHash::of;

    KeyIndex.Hasher of(Schema keySchema, List<Integer> keyFieldIds);
  }

  /** An index for {@code table} hashing keys with {@code hashes}. */
  TableKeyIndex(
      String table,
      long maxBytes,
      String budgetSetting,
      ExecutorService readers,
      KeyHashes hashes) {
    this(table, true, maxBytes, budgetSetting, readers, hashes);
  }

  private TableKeyIndex(
      String table,
      boolean enabled,
      long maxBytes,
      String budgetSetting,
      ExecutorService readers,
      KeyHashes hashes) {
    this.table = table;
    this.enabled = enabled;
    this.maxBytes = maxBytes;
    this.budgetSetting = budgetSetting;
    this.readers = readers;
    this.hashes = hashes;
  }

  /** No index: every lookup leaves the locate to the pruned scan. */
  public static TableKeyIndex off(String table) {
    return new TableKeyIndex(table, false, Long.MAX_VALUE, "", null, KeyHashes.STANDARD);
  }

  /** Whether lookups may use an index: enabled and not dropped. */
  boolean active() {
    return enabled && !dropped;
  }

  /** How many times the index was built. */
  int builds() {
    return builds;
  }

  /** Whether the index is current for {@code snapshot} (null: the empty table). */
  boolean isAt(Snapshot snapshot) {
    return index != null && index.isAt(snapshot);
  }

  /** The index's estimated bytes, 0 when there is none. */
  long bytes() {
    return index == null ? 0 : index.bytes();
  }

  /** The key hashes the index holds, 0 when there is none. */
  int hashes() {
    return index == null ? 0 : index.hashes();
  }

  /**
   * The index's lookup of {@code keys} at {@code base}, after bringing the index to {@code base}
   * (building it if need be); null when there is no index to use: locate by the pruned scan then.
   */
  KeyIndex.Lookup lookup(Table table, Snapshot base, RetiredKeys keys) {
    if (!active() || keys.isEmpty()) {
      return null;
    }
    try {
      if (index != null
          && (!index.keyFieldIds().equals(keys.keyFieldIds())
              || !table.uuid().toString().equals(tableUuid))) {
        index = null;
      }
      if (index == null || !index.catchUp(table, base, readers)) {
        build(table, base, keys);
      }
      return index.lookup(keys);
    } catch (RuntimeException e) {
      drop(e);
      return null;
    }
  }

  private void build(Table table, Snapshot base, RetiredKeys keys) {
    long start = System.nanoTime();
    index = null;
    KeyIndex built =
        new KeyIndex(
            keys.keySchema(),
            keys.keyFieldIds(),
            maxBytes,
            hashes.of(keys.keySchema(), keys.keyFieldIds()));
    built.build(table, base, readers);
    index = built;
    tableUuid = table.uuid().toString();
    builds++;
    LOG.info(
        "Table {}: built its key index at snapshot {}: {} key hashes in {} data files, about"
            + " {} MiB of its budget of {}, in {} ms",
        this.table,
        base == null ? null : base.snapshotId(),
        built.hashes(),
        built.files(),
        String.format("%.1f", built.bytes() / MB),
        budget(),
        (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * After the commit of the rows {@code lookup} helped locate: forgets what the commit deleted and
   * brings the index to the head of the branch committed to.
   *
   * @param table the table, just committed to
   * @param current the head of the branch committed to, which holds the commit
   * @param lookup the lookup of the committed attempt, null if it had none
   * @param deletes the deletes the commit added
   */
  void committed(Table table, Snapshot current, KeyIndex.Lookup lookup, WrittenDeletes deletes) {
    if (lookup == null || index == null || !active()) {
      return;
    }
    try {
      if (lookup.isOf(index) && holdsCommit(table, current, lookup.baseId(), deletes)) {
        index.retired(lookup);
      }
      if (!index.catchUp(table, current, readers)) {
        index = null; // built again at the next lookup
      }
    } catch (RuntimeException e) {
      drop(e);
    }
  }

  /**
   * Whether {@code current} descends from the snapshot the commit started from, through a snapshot
   * that added the commit's deletes (when it had any: without, the located rows are none and the
   * index's update holds without them).
   */
  private static boolean holdsCommit(
      Table table, Snapshot current, Long baseId, WrittenDeletes deletes) {
    if (current == null || current.snapshotId() == (baseId == null ? Long.MIN_VALUE : baseId)) {
      return false;
    }
    Set<String> ours = deletes.fileLocations();
    boolean found = ours.isEmpty();
    for (Snapshot snapshot = current; ; snapshot = table.snapshot(snapshot.parentId())) {
      if (!found) {
        SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(snapshot).build();
        for (DeleteFile file : changes.addedDeleteFiles()) {
          if (ours.contains(file.location())) {
            found = true;
            break;
          }
        }
      }
      if (snapshot.parentId() == null) {
        return found && baseId == null;
      }
      if (snapshot.parentId().equals(baseId)) {
        return found;
      }
      if (table.snapshot(snapshot.parentId()) == null) {
        return false;
      }
    }
  }

  /** After a commit that emptied the table: the index is built again at the next lookup. */
  void truncated() {
    index = null;
  }

  private void drop(RuntimeException e) {
    index = null;
    dropped = true;
    if (isFull(e)) {
      LOG.warn(
          "Table {}: its key index would take more than its budget of {}, so it is dropped and"
              + " retired keys are located by the pruned scan from now on; to keep an index for"
              + " this table, raise {}",
          table,
          budget(),
          budgetSetting);
    } else if (e instanceof UnsupportedOperationException) {
      LOG.warn(
          "Table {}: no key index, since {}; retired keys are located by the pruned scan",
          table,
          e.getMessage());
    } else {
      LOG.warn(
          "Table {}: its key index could not be built or kept current, so it is dropped and"
              + " retired keys are located by the pruned scan until the coordinator restarts",
          table,
          e);
    }
  }

  private String budget() {
    long mib = 1024 * 1024;
    return maxBytes % mib == 0 ? maxBytes / mib + " MiB" : maxBytes + " bytes";
  }

  private static boolean isFull(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof KeyRowMap.Full) {
        return true;
      }
    }
    return false;
  }
}
