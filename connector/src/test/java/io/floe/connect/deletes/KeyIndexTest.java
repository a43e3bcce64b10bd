/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteRules.checkDeletes;
import static io.floe.connect.deletes.DeleteTables.append;
import static io.floe.connect.deletes.DeleteTables.keys;
import static io.floe.connect.deletes.DeleteTables.read;
import static io.floe.connect.deletes.DeleteTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key index: a locate through it finds exactly what the pruned scan finds, while reading only
 * the files it names; it never leaves out a file holding a live row of a key, through this
 * connector's commits and everything other writers do to the table meanwhile; and when it cannot
 * serve, the commit goes on without it.
 */
class KeyIndexTest {
  private static final long KEY_SPACE = 300;
  private static final long LARGE = 64L * 1024 * 1024;

  @RegisterExtension final DeleteTables tables = new DeleteTables();

  private Table table;
  private TableKeyIndex index;
  private Random random;
  private int cycle;

  /**
   * Both format versions, unpartitioned and partitioned by the key ({@code bucket}, which prunes a
   * locate). A table partitioned by another column ({@code region}) is followed by the index in the
   * tests below (v2 and v3), and located and committed in every spec by {@link UpsertCommitTest}
   * and {@link UpsertConflictTest}.
   */
  static Stream<Arguments> tables() {
    return Stream.of(2, 3)
        .flatMap(
            version ->
                Stream.of("unpartitioned", "bucket").map(spec -> Arguments.of(version, spec)));
  }

  private void create(int version, String spec, long seed) {
    create(version, spec, seed, TableKeyIndex.KeyHashes.STANDARD);
  }

  private void create(int version, String spec, long seed, TableKeyIndex.KeyHashes hashes) {
    table = tables.create(spec, version);
    random = new Random(seed);
    index = new TableKeyIndex(table.name(), LARGE, "the-budget-setting", null, hashes);
    for (int file = 0; file < 6; file++) {
      append(table, randomRows(40, "start"));
    }
  }

  /** Rows of random ids of the key space, some repeated: a key may live in several files. */
  private List<Record> randomRows(int count, String name) {
    List<Record> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(row(1 + random.nextInt((int) KEY_SPACE), name));
    }
    return rows;
  }

  private List<Long> randomKeys(int count, long space) {
    Set<Long> keys = new HashSet<>();
    while (keys.size() < count) {
      keys.add(1 + (long) random.nextInt((int) space));
    }
    return new ArrayList<>(keys);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void findsWhatThePrunedScanFindsThroughCommitsOfEveryKind(int version, String spec) {
    for (long seed : new long[] {version * 31L + spec.hashCode(), 7L * version - spec.length()}) {
      create(version, spec, seed);
      for (cycle = 0; cycle < 8; cycle++) {
        int action = random.nextInt(10);
        switch (action) {
          case 0 -> append(other(), randomRows(1 + random.nextInt(30), "theirs"));
          case 1 -> compactOneFile();
          case 2 -> compactAll();
          case 3 -> UpsertCommitTest.commit(other(), keys(other(), someIds(8)), List.of());
          case 4 -> expireAllButCurrent();
          case 5 -> rollBackOne();
          default -> {}
        }
        upsert(random.nextInt(4) == 0);
        checkIndexNamesEveryLiveRow();
      }
      checkDeletes(table);
    }
  }

  /**
   * Keys whose probe halves meet, told apart by their check halves only: none is given another's
   * rows, and a commit retiring one leaves the others' rows in the index.
   */
  @ParameterizedTest(name = "v{0} {1}")
  @CsvSource({"2, region", "3, bucket"}) // v3 unpartitioned: the first test, without collisions
  void keysSharingAProbeHashKeepTheirOwnRows(int version, String spec) {
    // eleven probe halves for the whole key space: every one is shared by some 27 keys
    create(
        version,
        spec,
        19L * version,
        (schema, ids) ->
            new KeyIndex.Hasher() {
              @Override
              public long hash(StructLike key) {
                return 1 + Math.floorMod(key.get(0, Long.class), 11L);
              }

              @Override
              public long check(StructLike key) {
                return key.get(0, Long.class);
              }
            });
    for (cycle = 0; cycle < 8; cycle++) {
      switch (cycle % 4) {
        case 0 -> append(other(), randomRows(20, "theirs"));
        case 1 -> compactOneFile();
        case 2 -> UpsertCommitTest.commit(other(), keys(other(), someIds(5)), List.of());
        default -> {}
      }
      upsert(cycle % 3 == 0);
      checkIndexNamesEveryLiveRow();
    }
    assertThat(index.builds()).isEqualTo(1);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @CsvSource({"2, bucket", "3, region"})
  void staysCurrentThroughItsOwnCommitsWithoutBeingBuiltAgain(int version, String spec) {
    create(version, spec, 11L * version);
    for (cycle = 0; cycle < 6; cycle++) {
      upsert(false);
      table.refresh();
      assertThat(index.isAt(table.currentSnapshot())).as("current after cycle %s", cycle).isTrue();
      checkIndexNamesEveryLiveRow();
    }
    assertThat(index.builds()).isEqualTo(1);
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0} {1}")
  // partitioned by region: other writers followed in keysSharingAHash (v2), its own commits in
  // staysCurrent (v3)
  @CsvSource({"2, unpartitioned", "3, bucket"})
  void followsOtherWritersWithoutBeingBuiltAgainWhileTheirSnapshotsAreKept(
      int version, String spec) {
    create(version, spec, 13L * version);
    for (cycle = 0; cycle < 8; cycle++) {
      switch (cycle % 4) {
        case 0 -> append(other(), randomRows(20, "theirs"));
        case 1 -> compactOneFile();
        case 2 -> UpsertCommitTest.commit(other(), keys(other(), someIds(5)), List.of());
        default -> compactAll();
      }
      upsert(cycle % 3 == 0);
      checkIndexNamesEveryLiveRow();
    }
    assertThat(index.builds()).isEqualTo(1);
    checkDeletes(table);
  }

  @Test
  void isBuiltAgainWhenItsSnapshotExpiredOrWasRolledBack() {
    create(3, "unpartitioned", 5);
    upsert(false);
    append(other(), randomRows(10, "theirs"));
    expireAllButCurrent();
    upsert(false);
    assertThat(index.builds()).isEqualTo(2);
    rollBackOne();
    upsert(false);
    assertThat(index.builds()).isEqualTo(3);
    checkIndexNamesEveryLiveRow();
  }

  @Test
  void randomKeysAreLocatedWithoutReadingAnyDataFile() {
    table = tables.create("unpartitioned", 3);
    random = new Random(3);
    index = new TableKeyIndex(table.name(), LARGE, "the-budget-setting", null);
    // 40 files of 50 distinct random ids each: every file's bounds span nearly the whole key space
    List<Long> ids = new ArrayList<>(LongStream.rangeClosed(1, 2000).boxed().toList());
    java.util.Collections.shuffle(ids, random);
    for (int file = 0; file < 40; file++) {
      append(
          table, ids.subList(file * 50, file * 50 + 50).stream().map(id -> row(id, "a")).toList());
    }
    RetiredKeys keys = keys(table, 17, 404, 999, 1234, 1999);
    Snapshot base = table.currentSnapshot();

    LocatedRows plain = new KeyLocator(table, null).locate(base, keys);
    LocatedRows indexed =
        new KeyLocator(table, null).locate(base, keys, index.lookup(table, base, keys));

    assertThat(plain.stats().filesRead()).isEqualTo(40);
    assertThat(plain.stats().rowsRead()).isEqualTo(2000);
    assertThat(indexed.stats().filesRead()).isEqualTo(5);
    assertThat(indexed.stats().rowsRead()).isZero();
    assertThat(positionsByFile(indexed)).isEqualTo(positionsByFile(plain)).hasSize(5);
    assertThat(indexed.stats().keysMatched()).isEqualTo(5);
  }

  @Test
  void anIndexOverItsBudgetIsDroppedWithOneWarningAndTheCommitsGoOn() {
    table = tables.create("bucket", 3);
    random = new Random(17);
    append(table, DeleteTables.rows(1, 3000, "a"));
    index =
        new TableKeyIndex(
            "db.orders", 20_000, "iceberg.tables.upsert-key-index-max-memory-mb", null);

    try (LogCapture logs = LogCapture.of(TableKeyIndex.class)) {
      UpsertCommit.Outcome first = commitWith(index, keys(table, 5, 6, 7, 8), List.of(8L));
      UpsertCommit.Outcome second = commitWith(index, keys(table, 8, 9), List.of());

      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .contains("db.orders")
          .contains("20000 bytes")
          .contains("iceberg.tables.upsert-key-index-max-memory-mb");
      assertThat(first.resolution().rowsMatched()).isEqualTo(4);
      assertThat(second.resolution().rowsMatched()).isEqualTo(2);
    }
    assertThat(index.active()).isFalse();
    assertThat(DeleteTables.ids(table)).hasSize(2995).doesNotContain(5L, 6L, 7L, 8L, 9L);
  }

  @Test
  void anIndexThatCannotBeBuiltIsDroppedAndTheCommitGoesOn() {
    table = tables.create("bucket", 2);
    append(table, DeleteTables.rows(1, 40, "a"));
    RetiredKeys keys = keys(table, 7);
    // a file the key's bucket rules out is lost: the pruned scan never reads it, a build must
    String bucketOfKey =
        new KeyLocator(table, null)
            .locate(table.currentSnapshot(), keys)
            .files()
            .get(0)
            .file()
            .partition()
            .toString();
    List<String> others = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(
          task -> {
            if (!task.file().partition().toString().equals(bucketOfKey)) {
              others.add(task.file().location());
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.io().deleteFile(others.get(0));
    index = new TableKeyIndex("db.orders", LARGE, "the-budget-setting", null);

    try (LogCapture logs = LogCapture.of(TableKeyIndex.class)) {
      UpsertCommit.Outcome outcome = commitWith(index, keys, List.of());

      assertThat(outcome.resolution().rowsMatched()).isEqualTo(1);
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .contains("db.orders")
          .contains("could not be built");
    }
    assertThat(index.active()).isFalse();
  }

  @Test
  void anIndexThatIsOffLeavesEveryLocateToThePrunedScan() {
    table = tables.create("unpartitioned", 3);
    append(table, DeleteTables.rows(1, 10, "a"));
    TableKeyIndex off = TableKeyIndex.off("db.orders");

    assertThat(off.lookup(table, table.currentSnapshot(), keys(table, 3))).isNull();
    commitWith(off, keys(table, 3), List.of());

    assertThat(off.builds()).isZero();
    assertThat(DeleteTables.ids(table)).hasSize(9).doesNotContain(3L);
  }

  private UpsertCommit.Outcome commitWith(TableKeyIndex with, RetiredKeys keys, List<Long> images) {
    List<DataFile> files =
        images.isEmpty()
            ? List.of()
            : DeleteTables.write(table, images.stream().map(id -> row(id, "new")).toList());
    return new UpsertCommit(table, 3, with).commit(keys, files, "floe-test", (d, b, w) -> {});
  }

  /**
   * This connector's commit: retires random keys (some never stored), writes new images of about
   * half of them, checks first that a locate through the index finds what the pruned scan finds,
   * and after that the table holds exactly the expected rows. With {@code concurrent}, another
   * writer appends rows before the first attempt commits: of a retired key (a conflict, located
   * again) or of others.
   */
  private void upsert(boolean concurrent) {
    table.refresh();
    List<Long> retired = randomKeys(1 + random.nextInt(25), KEY_SPACE + 40);
    List<Long> upserted = retired.subList(0, retired.size() / 2);
    RetiredKeys keys = keys(table, retired.stream().mapToLong(Long::longValue).toArray());
    Snapshot base = table.currentSnapshot();

    KeyIndex.Lookup lookup = index.lookup(table, base, keys);
    assertThat(lookup).as("cycle %s", cycle).isNotNull();
    LocatedRows indexed = new KeyLocator(table, null).locate(base, keys, lookup);
    LocatedRows plain = new KeyLocator(table, null).locate(base, keys);
    assertThat(positionsByFile(indexed))
        .as("rows located through the index in cycle %s", cycle)
        .isEqualTo(positionsByFile(plain));
    assertThat(indexed.stats().filesRead()).isLessThanOrEqualTo(plain.stats().filesRead());
    assertThat(indexed.stats().rowsRead()).as("rows read in cycle %s", cycle).isZero();
    assertThat(indexed.stats().keysMatched()).isEqualTo(plain.stats().keysMatched());

    Map<Long, Integer> expected = counts(read(table));
    retired.forEach(expected::remove);
    upserted.forEach(id -> expected.put(id, 1));
    List<Record> late = new ArrayList<>();
    if (concurrent) {
      if (random.nextBoolean()) {
        late.add(row(retired.get(0), "late")); // deleted too, after the conflict
      } else {
        late.addAll(randomRows(5, "late"));
        late.removeIf(row -> retired.contains((Long) row.getField("id")));
        late.forEach(row -> expected.merge((Long) row.getField("id"), 1, Integer::sum));
      }
    }
    List<DataFile> images =
        upserted.isEmpty()
            ? List.of()
            : DeleteTables.write(table, upserted.stream().map(id -> row(id, "c" + cycle)).toList());
    AtomicInteger attempts = new AtomicInteger();
    new UpsertCommit(table, 3, index)
        .commit(
            keys,
            images,
            "floe-c" + cycle,
            (delta, at, deletes) -> {
              if (attempts.incrementAndGet() == 1 && !late.isEmpty()) {
                append(other(), late);
              }
            });

    assertThat(counts(read(table))).as("rows after cycle %s", cycle).isEqualTo(expected);
  }

  /**
   * The invariant: for every live row of the current snapshot, a lookup of its key holds the row,
   * its file and position.
   */
  private void checkIndexNamesEveryLiveRow() {
    Table current = other();
    Snapshot snapshot = current.currentSnapshot();
    Map<Long, Map<String, Set<Long>>> truth = new TreeMap<>();
    LiveKeyReader reader = LiveKeyReader.allRows(current, current.schema().select("id"));
    try (CloseableIterable<FileScanTask> tasks = current.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        reader.visit(
            task,
            true,
            (key, position) ->
                truth
                    .computeIfAbsent(key.get(0, Long.class), id -> new HashMap<>())
                    .computeIfAbsent(task.file().location(), file -> new HashSet<>())
                    .add(position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    truth.forEach(
        (id, files) -> {
          KeyIndex.Lookup lookup = index.lookup(current, snapshot, keys(current, id));
          assertThat(lookup).isNotNull();
          files.forEach(
              (file, positions) -> {
                assertThat(lookup.names(file))
                    .as("key %s in %s after cycle %s", id, file, cycle)
                    .isTrue();
                assertThat(lookup.positionsIn(file))
                    .as("rows of key %s in %s after cycle %s", id, file, cycle)
                    .containsAll(positions);
              });
        });
  }

  /** The table as another writer sees it. */
  private Table other() {
    return tables.load(table);
  }

  private long[] someIds(int count) {
    return randomKeys(count, KEY_SPACE).stream().mapToLong(Long::longValue).toArray();
  }

  /** Another writer rewrites one data file's live rows into a new file (and drops its deletes). */
  private void compactOneFile() {
    Table other = other();
    List<FileScanTask> tasks = DeleteTables.tasks(other);
    if (tasks.isEmpty()) {
      return;
    }
    FileScanTask task = tasks.get(random.nextInt(tasks.size()));
    List<Long> ids = new ArrayList<>();
    LiveKeyReader.allRows(other, other.schema().select("id"))
        .visit(task, true, (key, position) -> ids.add(key.get(0, Long.class)));
    if (ids.isEmpty()) {
      return;
    }
    RewriteFiles rewrite =
        other
            .newRewrite()
            .validateFromSnapshot(other.currentSnapshot().snapshotId())
            .deleteFile(task.file());
    for (DeleteFile delete : task.deletes()) {
      if (task.file().location().equals(ContentFileUtil.referencedDataFileLocation(delete))) {
        rewrite.deleteFile(delete);
      }
    }
    DeleteTables.write(other, ids.stream().map(id -> row(id, "compacted")).toList())
        .forEach(rewrite::addFile);
    rewrite.commit();
  }

  /** Another writer rewrites the whole table into new files, dropping every delete file. */
  private void compactAll() {
    Table other = other();
    List<Record> rows = read(other);
    if (rows.isEmpty()) {
      return;
    }
    RewriteFiles rewrite =
        other.newRewrite().validateFromSnapshot(other.currentSnapshot().snapshotId());
    Set<String> deletes = new HashSet<>();
    for (FileScanTask task : DeleteTables.tasks(other)) {
      rewrite.deleteFile(task.file());
      for (DeleteFile delete : task.deletes()) {
        if (deletes.add(delete.location() + "#" + delete.contentOffset())) {
          rewrite.deleteFile(delete);
        }
      }
    }
    DeleteTables.write(other, rows).forEach(rewrite::addFile);
    rewrite.commit();
  }

  /**
   * Another writer expires every snapshot but the current one. Their files are kept: what matters
   * here is that the history the index would follow is gone.
   */
  private void expireAllButCurrent() {
    other()
        .expireSnapshots()
        .expireOlderThan(System.currentTimeMillis() + 1)
        .retainLast(1)
        .cleanupLevel(ExpireSnapshots.CleanupLevel.NONE)
        .commit();
  }

  private void rollBackOne() {
    Table other = other();
    Long parent = other.currentSnapshot().parentId();
    if (parent != null && other.snapshot(parent) != null) {
      other.manageSnapshots().rollbackTo(parent).commit();
    }
  }

  private static Map<Long, Integer> counts(List<Record> rows) {
    Map<Long, Integer> counts = new HashMap<>();
    rows.forEach(row -> counts.merge((Long) row.getField("id"), 1, Integer::sum));
    return counts;
  }

  /** The positions found, by data file. */
  static Map<String, List<Long>> positionsByFile(LocatedRows rows) {
    Map<String, List<Long>> positions = new HashMap<>();
    rows.files()
        .forEach(
            file ->
                positions.put(
                    file.file().location(), LongStream.of(file.positions()).boxed().toList()));
    return positions;
  }
}
