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
import java.util.function.ToLongFunction;
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
 * Where the keys of one table live at one snapshot: each key's hash ({@link KeyHash}) mapped to the
 * data files of the snapshot that may hold a live row of it.
 *
 * <p><b>The invariant.</b> For every live row of the snapshot, the file holding it is among the
 * files of its key's hash. Extra files (a key's rows deleted since, a hash shared by two keys) only
 * cost reads. Every change keeps it:
 *
 * <ul>
 *   <li>a build reads the key of every live row of the snapshot;
 *   <li>a snapshot's added data files have all their keys added (rows deleted in the same snapshot
 *       included); its removed data files are forgotten;
 *   <li>after this connector's own commit from snapshot B, which deleted every live row of the
 *       retired keys located in B, a retired key's hash keeps only the files the locate did not
 *       read and those in which it saw a live row of another key with the same hash; the commit's
 *       new files are then added as any snapshot's.
 * </ul>
 *
 * <p>Files are known by a number; a removed file's number stays in the hashes that named it until
 * enough of them pile up, then a sweep drops them all. Not thread-safe, except that reads run on
 * several threads and add under a lock.
 */
final class KeyIndex {
  private static final int FILE_BYTES = 160;

  private final Schema keySchema;
  private final List<Integer> keyFieldIds;
  private final ToLongFunction<StructLike> hash;
  private final KeyFileMap map;
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
    this(keySchema, keyFieldIds, maxBytes, KeyHash.of(keySchema, keyFieldIds)::hash);
  }

  /**
   * An empty index hashing keys with {@code hash}, which must give equal keys equal hashes, never
   * 0; a hash that many keys share costs reads, never a missed row.
   */
  KeyIndex(
      Schema keySchema, List<Integer> keyFieldIds, long maxBytes, ToLongFunction<StructLike> hash) {
    this.keySchema = keySchema;
    this.keyFieldIds = List.copyOf(keyFieldIds);
    this.hash = hash;
    this.maxBytes = maxBytes;
    this.map = new KeyFileMap(maxBytes);
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

  /** The key hashes held. */
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
   * Builds the index of {@code snapshot} afresh: reads the key of every live row.
   *
   * @throws KeyFileMap.Full when the index would take more than its budget
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
              HashList hashes = new HashList();
              reader.visit(task, true, (key, position) -> hashes.add(hash.applyAsLong(key)));
              addFile(task.file().location(), hashes.values, hashes.size);
            });
  }

  /** The hashes of one file's rows, as read. */
  private static final class HashList {
    private long[] values = new long[256];
    private int size;

    void add(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }
  }

  private synchronized void addFile(String location, long[] hashes, int count) {
    int number = register(location);
    for (int i = 0; i < count; i++) {
      if (map.add(hashes[i], number)) {
        references[number]++;
      }
    }
    checkBudget();
  }

  private void checkBudget() {
    long bytes = bytes();
    if (bytes > maxBytes) {
      throw new KeyFileMap.Full(bytes);
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

  /** Drops removed files from every hash once they hold a quarter of the references. */
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
    /** The retired keys' hashes, sorted, each once. */
    private final long[] retired;

    private final Set<String> named = new HashSet<>();
    private final Set<String> read = new HashSet<>();
    private final Map<Long, Set<String>> sharedHashes = new HashMap<>();
    private final Long baseId;

    private Lookup(RetiredKeys keys) {
      this.baseId = snapshotId;
      long[] hashes = new long[keys.size()];
      int i = 0;
      for (StructLike key : keys) {
        long h = hash.applyAsLong(key);
        hashes[i++] = h;
        map.forEach(
            h,
            number -> {
              if (live.get(number)) {
                named.add(paths.get(number));
              }
            });
      }
      Arrays.sort(hashes);
      int distinct = 0;
      for (int k = 0; k < hashes.length; k++) {
        if (k == 0 || hashes[k] != hashes[k - 1]) {
          hashes[distinct++] = hashes[k];
        }
      }
      this.retired = Arrays.copyOf(hashes, distinct);
    }

    /** The snapshot the lookup was made at, null for the empty table. */
    Long baseId() {
      return baseId;
    }

    /** Whether this is a lookup of {@code other}. */
    boolean isOf(KeyIndex other) {
      return other == KeyIndex.this;
    }

    /** Whether the index names the data file at {@code location} for a retired key. */
    boolean names(String location) {
      return named.contains(location);
    }

    /** The files the index names for the retired keys. */
    int namedFiles() {
      return named.size();
    }

    /** Notes that {@code file} is read whole, with its other keys told to {@link #otherKeys}. */
    synchronized void reading(DataFile file) {
      read.add(file.location());
    }

    /** Told the keys of the rows of read files that are not retired. */
    LiveKeyReader.OtherKeys otherKeys() {
      return (file, key) -> {
        long h = hash.applyAsLong(key);
        if (Arrays.binarySearch(retired, h) >= 0) {
          synchronized (this) {
            sharedHashes.computeIfAbsent(h, x -> new HashSet<>()).add(file.location());
          }
        }
      };
    }
  }

  /** A lookup of {@code keys} at the index's snapshot, to locate them with. */
  Lookup lookup(RetiredKeys keys) {
    return new Lookup(keys);
  }

  /**
   * After this connector committed the deletes of {@code lookup}'s located rows from the index's
   * snapshot: forgets the retired keys' hashes in the files the locate read, except where another
   * key shares the hash. The index is then right for the snapshots after the commit only, not for
   * its own: the caller must bring it to the committed snapshot (or a later one) with {@link
   * #catchUp} at once, and discard it if that fails.
   */
  void retired(Lookup lookup) {
    if (!known || !Objects.equals(lookup.baseId, snapshotId)) {
      throw new IllegalStateException("the lookup is not of the index's snapshot");
    }
    known = false;
    Set<Integer> read = new HashSet<>();
    for (String location : lookup.read) {
      Integer number = numbers.get(location);
      if (number != null) {
        read.add(number);
      }
    }
    for (long h : lookup.retired) {
      Set<String> shared = lookup.sharedHashes.getOrDefault(h, Set.of());
      map.retain(
          h,
          number -> !read.contains(number) || shared.contains(paths.get(number)),
          number -> {
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
