/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.Tasks;

/**
 * Where the keys of one table live at one snapshot: each key's 128-bit hash ({@link KeyHash})
 * mapped to the rows of the snapshot's data files that hold it, each row a file and a position. A
 * locate takes the rows of a retired key from here instead of reading the files that hold them, so
 * a commit of keys spread over every file of a large table reads no data file.
 *
 * <p><b>The invariant.</b> Every live row of the snapshot is among the rows of its key's hash.
 * Extra rows (deleted since, by this connector or another writer) are deleted again, which changes
 * nothing; the locate drops the ones the file's deletes at the snapshot already name. Every change
 * keeps it:
 *
 * <ul>
 *   <li>a build reads the key and position of every live row of the snapshot;
 *   <li>a snapshot's added data files have all their rows added (rows deleted in the same snapshot
 *       included); its removed data files are forgotten;
 *   <li>after this connector's own commit from snapshot B, which deleted every live row of the
 *       retired keys in the files it located them in, a retired key's hash keeps only its rows in
 *       other files; the commit's new files are then added as any snapshot's.
 * </ul>
 *
 * <p>The index trusts the 128-bit hash: two keys sharing it would have each other's rows deleted.
 * For keys whose probe halves meet (the check halves tell them apart) nothing is shared.
 *
 * <p>Files are known by a number; a removed file's number stays in the rows that named it until
 * enough of them pile up, then a sweep drops them all. Not thread-safe, except that reads run on
 * several threads and add under a lock.
 */
final class KeyIndex {
  private static final int FILE_BYTES = 160;

  /** The two halves of a key's 128-bit hash, equal for keys Iceberg holds equal. */
  interface Hasher {
    /** The probe half; never 0. */
    long hash(StructLike key);

    /** The check half. */
    long check(StructLike key);
  }

  private final Schema keySchema;
  private final List<Integer> keyFieldIds;
  private final Hasher hasher;
  private final KeyRowMap map;
  private final Map<String, Integer> numbers = new HashMap<>();
  private final List<String> paths = new ArrayList<>();
  private final BitSet live = new BitSet();
  private final Deque<Integer> free = new ArrayDeque<>();
  private int[] references = new int[64];
  private long deadReferences;
  private long pathBytes;
  private final long maxBytes;
  private Long snapshotId;
  private boolean known;

  /**
   * An empty index, at no snapshot.
   *
   * @throws UnsupportedOperationException if a key column's type cannot be hashed
   */
  KeyIndex(Schema keySchema, List<Integer> keyFieldIds, long maxBytes) {
    this(keySchema, keyFieldIds, maxBytes, KeyHash.of(keySchema, keyFieldIds));
  }

  /** An empty index hashing keys with {@code hasher}. */
  KeyIndex(Schema keySchema, List<Integer> keyFieldIds, long maxBytes, Hasher hasher) {
    this.keySchema = keySchema;
    this.keyFieldIds = List.copyOf(keyFieldIds);
    this.hasher = hasher;
    this.maxBytes = maxBytes;
    this.map = new KeyRowMap(maxBytes);
  }

  /** The key columns the index was built for. */
  List<Integer> keyFieldIds() {
    return keyFieldIds;
  }

  /** Whether the index is current for {@code snapshot} (null: the empty table). */
  boolean isAt(Snapshot snapshot) {
    Long id = snapshot == null ? null : snapshot.snapshotId();
    return known && Objects.equals(snapshotId, id);
  }

  /** The keys held. */
  int hashes() {
    return map.size();
  }

  /** The data files known. */
  int files() {
    return numbers.size();
  }

  /** An estimate of the index's bytes on the heap. */
  long bytes() {
    return map.bytes()
        + pathBytes
        + (long) paths.size() * FILE_BYTES
        + (long) references.length * Integer.BYTES;
  }

  /**
   * Builds the index of {@code snapshot} afresh: reads the key and position of every live row.
   *
   * @throws KeyRowMap.Full when the index would take more than its budget
   */
  void build(Table table, Snapshot snapshot, ExecutorService readers) {
    known = false;
    if (snapshot != null) {
      List<FileScanTask> tasks = new ArrayList<>();
      TableScan scan = table.newScan().useSnapshot(snapshot.snapshotId());
      if (readers != null) {
        scan = scan.planWith(readers);
      }
      try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
        planned.forEach(tasks::add);
      } catch (IOException e) {
        throw new UncheckedIOException("could not plan the files of " + table.name(), e);
      }
      read(table, tasks, readers);
    }
    snapshotId = snapshot == null ? null : snapshot.snapshotId();
    known = true;
  }

  /**
   * Brings the index from its snapshot to {@code target} through the snapshots in between, when its
   * snapshot is an ancestor of {@code target} and every snapshot between is still there.
   *
   * @return false when it could not: the index must be built again
   */
  boolean catchUp(Table table, Snapshot target, ExecutorService readers) {
    if (!known) {
      return false;
    }
    if (isAt(target)) {
      return true;
    }
    if (target == null) {
      return false;
    }
    List<Snapshot> between = new ArrayList<>();
    Snapshot snapshot = target;
    while (snapshot != null && !Objects.equals(snapshot.snapshotId(), snapshotId)) {
      between.add(snapshot);
      Long parent = snapshot.parentId();
      if (parent == null) {
        if (snapshotId != null) {
          return false; // the index's snapshot is not an ancestor
        }
        snapshot = null;
      } else {
        snapshot = table.snapshot(parent);
        if (snapshot == null) {
          return false; // expired: what happened in between is not known
        }
      }
    }
    known = false;
    for (int i = between.size() - 1; i >= 0; i--) {
      apply(table, between.get(i), readers);
    }
    snapshotId = target.snapshotId();
    known = true;
    return true;
  }

  private void apply(Table table, Snapshot snapshot, ExecutorService readers) {
    SnapshotChanges.Builder builder = SnapshotChanges.builderFor(table).snapshot(snapshot);
    if (readers != null) {
      builder.executeWith(readers);
    }
    SnapshotChanges changes = builder.build();
    for (DataFile removed : changes.removedDataFiles()) {
      forget(removed.location());
    }
    List<FileScanTask> added = new ArrayList<>();
    for (DataFile file : changes.addedDataFiles()) {
      PartitionSpec spec = table.specs().get(file.specId());
      added.add(
          new BaseFileScanTask(
              file.copyWithoutStats(),
              new DeleteFile[0],
              SchemaParser.toJson(table.schema()),
              PartitionSpecParser.toJson(spec),
              ResidualEvaluator.unpartitioned(Expressions.alwaysTrue())));
    }
    read(table, added, readers);
    sweepIfStale();
  }

  private void read(Table table, List<FileScanTask> tasks, ExecutorService readers) {
    LiveKeyReader reader = LiveKeyReader.allRows(table, keySchema);
    Tasks.foreach(tasks)
        .executeWith(readers)
        .stopOnFailure()
        .throwFailureWhenFinished()
        .run(
            task -> {
              KeyRows rows = new KeyRows();
              reader.visit(
                  task,
                  true,
                  (key, position) -> rows.add(hasher.hash(key), hasher.check(key), position));
              addFile(task.file().location(), rows);
            });
  }

  /** The hashes and positions of one file's rows, as read. */
  private static final class KeyRows {
    private long[] values = new long[3 * 256];
    private int size;

    void add(long hash, long check, long position) {
      if (size + 3 > values.length) {
        values = Arrays.copyOf(values, values.length * 2);
      }
      values[size++] = hash;
      values[size++] = check;
      values[size++] = position;
    }
  }

  private synchronized void addFile(String location, KeyRows read) {
    int number = register(location);
    long[] values = read.values;
    for (int i = 0; i < read.size; i += 3) {
      if (map.add(values[i], values[i + 1], KeyRowMap.row(number, values[i + 2]))) {
        references[number]++;
      }
    }
    checkBudget();
  }

  private void checkBudget() {
    long bytes = bytes();
    if (bytes > maxBytes) {
      throw new KeyRowMap.Full(bytes);
    }
  }

  private int register(String location) {
    Integer known = numbers.get(location);
    if (known != null) {
      return known;
    }
    int number;
    if (free.isEmpty()) {
      number = paths.size();
      paths.add(location);
    } else {
      number = free.pop();
      paths.set(number, location);
    }
    if (number >= references.length) {
      references = Arrays.copyOf(references, Math.max(number + 1, references.length * 2));
    }
    references[number] = 0;
    numbers.put(location, number);
    live.set(number);
    pathBytes += 2L * location.length();
    return number;
  }

  private void forget(String location) {
    Integer number = numbers.remove(location);
    if (number != null) {
      live.clear(number);
      deadReferences += references[number];
    }
  }

  /** Drops removed files' rows from every key once they are a quarter of the rows. */
  private void sweepIfStale() {
    if (deadReferences == 0 || deadReferences * 4 < map.size()) {
      return;
    }
    map.retainAll(live::get);
    for (int number = 0; number < paths.size(); number++) {
      if (paths.get(number) != null && !live.get(number)) {
        pathBytes -= 2L * paths.get(number).length();
        paths.set(number, null);
        references[number] = 0;
        free.push(number);
      }
    }
    deadReferences = 0;
  }

  /** What a locate asks of the index and tells it back: one per attempt. */
  final class Lookup {
    /** The retired keys' hash halves, by the keys' ordinals. */
    private final long[] retiredHashes;

    private final long[] retiredChecks;

    /** The live files holding rows of retired keys: their rows' positions and keys' ordinals. */
    private final Map<String, FileRows> named = new HashMap<>();

    private final Set<String> located = new HashSet<>();
    private final Long baseId;

    private Lookup(RetiredKeys keys) {
      this.baseId = snapshotId;
      this.retiredHashes = new long[keys.size()];
      this.retiredChecks = new long[keys.size()];
      int i = 0;
      for (StructLike key : keys) {
        int ordinal = i++;
        long h = hasher.hash(key);
        long c = hasher.check(key);
        retiredHashes[ordinal] = h;
        retiredChecks[ordinal] = c;
        map.forEach(
            h,
            c,
            row -> {
              int number = KeyRowMap.file(row);
              if (live.get(number)) {
                named
                    .computeIfAbsent(paths.get(number), path -> new FileRows())
                    .add(KeyRowMap.position(row), ordinal);
              }
            });
      }
    }

    /** The snapshot the lookup was made at, null for the empty table. */
    Long baseId() {
      return baseId;
    }

    /** Whether this is a lookup of {@code other}. */
    boolean isOf(KeyIndex other) {
      return other == KeyIndex.this;
    }

    /** Whether the index holds rows of a retired key in the data file at {@code location}. */
    boolean names(String location) {
      return named.containsKey(location);
    }

    /**
     * The positions of the rows of retired keys the index holds in the file at {@code location}.
     */
    Set<Long> positionsIn(String location) {
      FileRows rows = named.get(location);
      Set<Long> positions = new HashSet<>();
      for (int i = 0; rows != null && i < rows.size(); i++) {
        positions.add(rows.position(i));
      }
      return positions;
    }

    /** The files the index names for the retired keys. */
    int namedFiles() {
      return named.size();
    }

    /**
     * The rows of retired keys the index holds in {@code file} (named by {@link #names}), noting
     * that the locate took them: the positions, ascending, and the ordinal of each one's key among
     * the retired keys.
     */
    synchronized FileRows rows(DataFile file) {
      located.add(file.location());
      return named.get(file.location()).sorted();
    }
  }

  /** Rows of retired keys in one file: positions and the ordinals of their keys. */
  static final class FileRows {
    private long[] positions = new long[4];
    private int[] ordinals = new int[4];
    private int size;

    private void add(long position, int ordinal) {
      if (size == positions.length) {
        positions = Arrays.copyOf(positions, size * 2);
        ordinals = Arrays.copyOf(ordinals, size * 2);
      }
      positions[size] = position;
      ordinals[size++] = ordinal;
    }

    private FileRows sorted() {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(positions[a], positions[b]));
      FileRows sorted = new FileRows();
      for (int i : order) {
        sorted.add(positions[i], ordinals[i]);
      }
      return sorted;
    }

    int size() {
      return size;
    }

    long position(int i) {
      return positions[i];
    }

    int ordinal(int i) {
      return ordinals[i];
    }
  }

  /** A lookup of {@code keys} at the index's snapshot, to locate them with. */
  Lookup lookup(RetiredKeys keys) {
    return new Lookup(keys);
  }

  /**
   * After this connector committed the deletes of {@code lookup}'s located rows from the index's
   * snapshot: forgets the retired keys' rows in the files the locate took rows from. The index is
   * then right for the snapshots after the commit only, not for its own: the caller must bring it
   * to the committed snapshot (or a later one) with {@link #catchUp} at once, and discard it if
   * that fails.
   */
  void retired(Lookup lookup) {
    if (!known || !Objects.equals(lookup.baseId, snapshotId)) {
      throw new IllegalStateException("the lookup is not of the index's snapshot");
    }
    known = false;
    Set<Integer> located = new HashSet<>();
    for (String location : lookup.located) {
      Integer number = numbers.get(location);
      if (number != null) {
        located.add(number);
      }
    }
    for (int i = 0; i < lookup.retiredHashes.length; i++) {
      map.retain(
          lookup.retiredHashes[i],
          lookup.retiredChecks[i],
          row -> !located.contains(KeyRowMap.file(row)),
          row -> {
            int number = KeyRowMap.file(row);
            if (live.get(number)) {
              references[number]--;
            } else {
              deadReferences--;
            }
          });
    }
    known = true;
  }
}
