/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.branch.CommitBranch;
import io.floe.connect.config.UpsertKeys;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.TestContracts;
import io.floe.connect.control.ChangeSource;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.DataWritten;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.deletes.TableKeyIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The coordinator's upsert commit: workers' data manifests (final images) and key manifests (keys
 * to retire) become one commit that adds the images and deletes the stored rows of the keys, with
 * deletion vectors (v3) or position deletes (v2), exactly once across replays.
 */
class TableCommitterUpsertTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "name", Types.StringType.get()),
              Types.NestedField.required(3, "part", Types.IntegerType.get())),
          Set.of(1));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("part").build();
  private static final String GROUP = "connect-orders";
  private static final ControlTopic TOPIC =
      new ControlTopic(
          "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));

  private static final Contract CONTRACT =
      Contract.parse(TestContracts.orders("id integer required", "name string"));

  @TempDir Path dir;
  private JdbcCatalog catalog;
  private Table table;
  // the data files of the latest events(...)
  private List<DataFile> lastImages = List.of();

  @BeforeEach
  void createCatalog() {
    catalog = new JdbcCatalog();
    catalog.initialize(
        "test",
        Map.of(
            "uri",
            "jdbc:sqlite:" + dir.resolve("catalog.db"),
            "warehouse",
            dir.resolve("warehouse").toString(),
            "jdbc.schema-version",
            "V1"));
    catalog.createNamespace(Namespace.of("db"));
  }

  @AfterEach
  void closeCatalog() throws IOException {
    catalog.close();
  }

  private void createTable(int formatVersion) {
    table =
        catalog.createTable(
            TableIdentifier.of("db", "orders"),
            SCHEMA,
            SPEC,
            Map.of("format-version", Integer.toString(formatVersion)));
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void upsertsReplaceAndDeleteStoredRowsOnceAcrossReplays(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committer(KeyIndexSettings.off());
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    UUID one = UUID.randomUUID();
    List<PendingEvent> cycleOne = events(one, 0, first, ids(0, 10));
    assertThat(committer.commit(cycle(one, cycleOne, 2, 10)).failures()).isEmpty();
    assertThat(rows()).hasSize(10).containsEntry(3L, "first");

    // key 3 upserted, key 5 deleted, key 42 deleted though never stored
    UUID two = UUID.randomUUID();
    List<PendingEvent> cycleTwo = events(two, 2, List.of(row(3, "second")), List.of(3L, 5L, 42L));
    List<String> transport = transportFiles(cycleTwo);
    TableCommitter.Outcome outcome = committer.commit(cycle(two, cycleTwo, 4, 20));
    assertThat(outcome.failures()).isEmpty();
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 10; id++) {
      expected.put(id, "first");
    }
    expected.put(3L, "second");
    expected.remove(5L);
    assertThat(rows()).isEqualTo(expected);
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.commit-id", two.toString())
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":20}}");
    assertThat(CommitMarks.latest(table, GROUP).orElseThrow().offsets()).isEqualTo(Map.of(0, 4L));
    for (String location : transport) {
      assertThat(table.io().newInputFile(location).exists())
          .as("%s, needed by no snapshot", location)
          .isFalse();
    }
    long snapshots = count(table.snapshots());

    // the same cycle again, as after a coordinator that committed it and died: nothing changes
    committer.commit(cycle(two, cycleTwo, 4, 20));
    table.refresh();
    assertThat(count(table.snapshots())).isEqualTo(snapshots);
    assertThat(rows()).isEqualTo(expected);

    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> deletes.addAll(task.deletes()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(deletes).isNotEmpty();
    for (DeleteFile delete : deletes) {
      assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
      assertThat(delete.format())
          .isEqualTo(formatVersion >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
    }
  }

  /**
   * Another engine rewrites the manifests and expires every snapshot but its own, so no snapshot
   * left holds Floe's mark: a coordinator that replays the last cycle (its key files are gone)
   * skips it, as the table's property still records the commit.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aReplayedCycleIsSkippedAfterAnotherEngineExpiredTheMarkedSnapshot(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID one = UUID.randomUUID();
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    assertThat(committer.commit(cycle(one, events(one, 0, first, ids(0, 10)), 2, 10)).failures())
        .isEmpty();
    UUID two = UUID.randomUUID();
    List<PendingEvent> cycleTwo = events(two, 2, List.of(row(3, "second")), List.of(3L, 5L));
    assertThat(committer.commit(cycle(two, cycleTwo, 4, 20)).failures()).isEmpty();
    Map<Long, String> expected = rows();
    table.rewriteManifests().rewriteIf(manifest -> true).commit();
    OtherEngine.expireAllButNewest(table, false);
    assertThat(count(table.snapshots())).isEqualTo(1);

    TableCommitter.Outcome replay =
        committer(KeyIndexSettings.off()).commit(cycle(two, cycleTwo, 4, 20));

    assertThat(replay.failures()).isEmpty();
    assertThat(replay.committed().get("db.orders").snapshot()).isNull();
    assertThat(rows()).isEqualTo(expected).containsEntry(3L, "second").doesNotContainKey(5L);
  }

  /**
   * A table committed to a branch: the stored rows of retired keys are located in the branch's head
   * (main's current snapshot while the branch does not exist, which its first commit creates from),
   * their deletes and the new rows go to the branch, and rows another writer appends to main
   * meanwhile are neither retired nor a conflict; main keeps only its own rows. The key index, when
   * there is one, follows the branch too.
   */
  @ParameterizedTest(name = "format v{0}, key index {1}")
  @CsvSource({"2,false", "3,false", "2,true", "3,true"})
  void upsertsRetireTheBranchsRowsAndLeaveMainAsItWas(int formatVersion, boolean keyIndex) {
    createTable(formatVersion);
    CommitBranch audit = CommitBranch.of("audit");
    TableCommitter committer =
        committer(
            keyIndex
                ? new KeyIndexSettings(
                    "db.orders"::equals,
                    64L * 1024 * 1024,
                    UpsertKeys.UPSERT_KEY_INDEX_MAX_MEMORY_MB)
                : KeyIndexSettings.off(),
            audit);
    long mainBefore = appendToMain(List.of(row(7, "main"), row(11, "main")));
    List<Record> first = new ArrayList<>();
    Map<Long, String> expected = new TreeMap<>(Map.of(11L, "main"));
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
      expected.put(id, "first");
    }
    UUID three = UUID.randomUUID();
    List<PendingEvent> cycleThree;
    long mainAfter;
    try (LogCapture logs = LogCapture.of(TableKeyIndex.class)) {
      UUID one = UUID.randomUUID();
      assertThat(committer.commit(cycle(one, events(one, 0, first, ids(0, 10)), 2, 10)).failures())
          .isEmpty();
      mainAfter = appendToMain(List.of(row(3, "main"), row(5, "main")));
      UUID two = UUID.randomUUID();
      List<PendingEvent> cycleTwo =
          events(two, 2, List.of(row(3, "second")), List.of(3L, 5L, 11L, 42L));
      assertThat(committer.commit(cycle(two, cycleTwo, 4, 20)).failures()).isEmpty();
      cycleThree = events(three, 4, List.of(row(4, "third")), List.of(4L));
      assertThat(committer.commit(cycle(three, cycleThree, 6, 30)).failures()).isEmpty();

      assertThat(logs.at("INFO"))
          .as("the index built once, then kept along the branch")
          .filteredOn(line -> line.contains("built its key index"))
          .hasSize(keyIndex ? 1 : 0);
      assertThat(logs.at("WARN")).isEmpty();
    }
    // a restarted coordinator replays cycle three: it is on the branch already
    TableCommitter.Outcome replay =
        committer(KeyIndexSettings.off(), audit).commit(cycle(three, cycleThree, 6, 30));

    assertThat(replay.failures()).isEmpty();
    assertThat(replay.committed().get("db.orders").snapshot()).isNull();
    expected.put(3L, "second");
    expected.remove(5L);
    expected.remove(11L);
    expected.put(4L, "third");
    table.refresh();
    assertThat(rows(table.snapshot(audit.name()).snapshotId())).isEqualTo(expected);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainAfter);
    assertThat(table.currentSnapshot().parentId()).isEqualTo(mainBefore);
    assertThat(rows(mainAfter))
        .as("main: the other writer's rows only")
        .isEqualTo(Map.of(7L, "main", 11L, "main", 3L, "main", 5L, "main"));
    assertThat(CommitMarks.latest(table, GROUP, audit).orElseThrow().commitId())
        .isEqualTo(three.toString());
  }

  /**
   * With a key index for the table, the coordinator builds it at the table's first upsert commit
   * and keeps it from then on: the same rows result, and the index is built once.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aTableWithAKeyIndexBuildsItOnceAndGetsTheSameRows(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer =
        committer(
            new KeyIndexSettings(
                "db.orders"::equals, 64L * 1024 * 1024, UpsertKeys.UPSERT_KEY_INDEX_MAX_MEMORY_MB));
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    try (LogCapture logs = LogCapture.of(TableKeyIndex.class)) {
      UUID one = UUID.randomUUID();
      assertThat(committer.commit(cycle(one, events(one, 0, first, ids(0, 10)), 2, 10)).failures())
          .isEmpty();
      UUID two = UUID.randomUUID();
      List<PendingEvent> cycleTwo = events(two, 2, List.of(row(3, "second")), List.of(3L, 5L));
      assertThat(committer.commit(cycle(two, cycleTwo, 4, 20)).failures()).isEmpty();
      UUID three = UUID.randomUUID();
      List<PendingEvent> cycleThree = events(three, 4, List.of(row(7, "third")), List.of(3L, 7L));
      assertThat(committer.commit(cycle(three, cycleThree, 6, 30)).failures()).isEmpty();

      assertThat(logs.at("INFO"))
          .filteredOn(line -> line.contains("built its key index"))
          .hasSize(1);
      assertThat(logs.at("WARN")).isEmpty();
    }
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 10; id++) {
      expected.put(id, "first");
    }
    expected.remove(3L);
    expected.remove(5L);
    expected.put(7L, "third");
    assertThat(rows()).isEqualTo(expected);
  }

  /**
   * A late answer joins the next cycle: one commit takes two hand-overs of the same source
   * partitions, and where both hold a key, the later one's change is the one that counts.
   */
  /**
   * A worker writes each image as it comes: a key changed twice in a hand-over has two rows in its
   * file, and the earlier one's position in the hand-over's file of superseded rows. The commit
   * deletes it, with the stored row of the key, in one delete per data file.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void rowsAHandOverSupersededGoWithItsCommit(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID one = UUID.randomUUID();
    assertThat(
            committer
                .commit(cycle(one, events(one, 0, List.of(row(1, "stored")), List.of(1L)), 2, 1))
                .failures())
        .isEmpty();

    UUID two = UUID.randomUUID();
    List<PendingEvent> cycleTwo =
        events(
            two,
            2,
            // one partition (ids 1, 4, 7), so one data file, in this order
            List.of(row(1, "first"), row(4, "only"), row(1, "last"), row(7, "gone")),
            List.of(1L, 4L, 7L),
            Shipped.byWorker("db.orders", two),
            null,
            new long[] {0, 3});
    List<String> transport = transportFiles(cycleTwo);
    assertThat(committer.commit(cycle(two, cycleTwo, 4, 5)).failures()).isEmpty();

    assertThat(rows()).isEqualTo(Map.of(1L, "last", 4L, "only"));
    table.refresh();
    List<DeleteFile> deletes = new ArrayList<>();
    table.newScan().planFiles().forEach(task -> deletes.addAll(task.deletes()));
    assertThat(deletes)
        .as("one delete per data file: the stored row's, and the new file's two rows")
        .extracting(DeleteFile::recordCount)
        .containsExactlyInAnyOrder(1L, 2L);
    for (String location : transport) {
      assertThat(table.io().newInputFile(location).exists()).as(location).isFalse();
    }
  }

  /**
   * An upsert commit of a table with a contract carries the profile of the images it adds (every
   * image written, from the data files' metrics), the images of it a later change superseded, and
   * the stored rows it retires: the table grows by rows - superseded - deleted.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void anUpsertCommitCarriesTheProfileOfItsImagesAndCountsWhatItDeletes(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committerWithContract();
    UUID one = UUID.randomUUID();
    List<Record> stored = List.of(row(1, "stored"), row(2, null), row(5, "stored"));
    assertThat(committer.commit(cycle(one, events(one, 0, stored, List.of(1L, 2L, 5L)), 2, 3)))
        .extracting(TableCommitter.Outcome::failures)
        .isEqualTo(Map.of());
    assertThat(profile())
        .isEqualTo(
            Map.of(
                "floe.profile.rows", "3",
                "floe.profile.superseded", "0",
                "floe.profile.deleted", "0",
                "floe.profile.columns",
                    "{\"id\":{\"nulls\":0,\"null-fraction\":0.0,\"min\":\"1\",\"max\":\"5\"},"
                        + "\"name\":{\"nulls\":1,\"null-fraction\":0.3333333333333333}}"));
    assertThat(committer.takeProfile("db.orders")).map(p -> p.rows()).contains(3L);

    UUID two = UUID.randomUUID();
    List<PendingEvent> cycleTwo =
        events(
            two,
            2,
            // key 1 twice (the first superseded), 4 new, 7 created then deleted (superseded);
            // the stored rows of 1 and 2 retired, 2 deleted
            List.of(row(1, "first"), row(4, null), row(1, "last"), row(7, "gone")),
            List.of(1L, 2L, 4L, 7L),
            Shipped.byWorker("db.orders", two),
            null,
            new long[] {0, 3});
    Map<Long, String> before = rows();
    assertThat(committer.commit(cycle(two, cycleTwo, 4, 7)).failures()).isEmpty();
    Map<Long, String> after = rows();
    Map<String, String> profile = profile();
    assertThat(profile)
        .containsEntry("floe.profile.rows", "4")
        .containsEntry("floe.profile.superseded", "2")
        .containsEntry("floe.profile.deleted", "2")
        .containsEntry(
            "floe.profile.columns",
            "{\"id\":{\"nulls\":0,\"null-fraction\":0.0,\"min\":\"1\",\"max\":\"7\"},"
                + "\"name\":{\"nulls\":1,\"null-fraction\":0.25}}");
    Map<Long, String> expected = new TreeMap<>();
    expected.put(1L, "last");
    expected.put(4L, null);
    expected.put(5L, "stored");
    assertThat(after).isEqualTo(expected);
    assertThat(after.size() - before.size()).isEqualTo(4 - 2 - 2);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void twoHandOversInOneCommitKeepOnlyTheLaterChangeOfAKey(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID late = UUID.randomUUID();
    UUID next = UUID.randomUUID();
    List<PendingEvent> events = new ArrayList<>();
    // the late answer of cycle `late`: keys 1 to 4 created
    events.addAll(
        events(
            late,
            0,
            List.of(row(1, "early"), row(2, "early"), row(3, "early"), row(4, "early")),
            List.of(1L, 2L, 3L, 4L)));
    // the next cycle's answer of the same task: 2 updated, 3 deleted, 5 created
    events.addAll(events(next, 2, List.of(row(2, "later"), row(5, "later")), List.of(2L, 3L, 5L)));
    TableCommitter.Outcome outcome = committer.commit(cycle(next, events, 4, 30));
    assertThat(outcome.failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(1L, "early", 2L, "later", 4L, "early", 5L, "later"));
  }

  /**
   * A truncate read in a hand-over empties the table (its rows, deletion vectors and position
   * deletes included) and drops the earlier hand-overs of the commit from the same source
   * partition; a hand-over of another partition, and a later one, are kept, and the commit is
   * marked.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aTruncateEmptiesTheTableAndDropsTheEarlierHandOversOfItsPartitions(int formatVersion) {
    createTable(formatVersion);
    TableCommitter committer = committerWithContract();
    ChangeSource p0 = new ChangeSource("orders", 0, null);
    ChangeSource p1 = new ChangeSource("orders", 1, null);
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    UUID one = UUID.randomUUID();
    committer.commit(cycle(one, events(one, 0, first, ids(0, 10), List.of(p0)), 2, 10));
    UUID two = UUID.randomUUID();
    committer.commit(
        cycle(two, events(two, 2, List.of(row(3, "second")), List.of(3L, 5L), List.of(p0)), 4, 20));
    table.refresh();
    assertThat(table.currentSnapshot().deleteManifests(table.io())).isNotEmpty();

    UUID three = UUID.randomUUID();
    List<PendingEvent> events = new ArrayList<>();
    // a late answer of partition 0, then one of partition 1, both before the truncate
    events.addAll(
        events(
            three, 4, List.of(row(20, "early"), row(21, "early")), List.of(20L, 21L), List.of(p0)));
    List<String> earlyDataFiles = lastImages.stream().map(DataFile::location).toList();
    events.addAll(events(three, 6, List.of(row(30, "other")), List.of(30L), List.of(p1)));
    // the truncate at offset 50 of partition 0, then key 40 created after it
    events.addAll(
        events(
            three,
            8,
            List.of(row(40, "after")),
            List.of(),
            List.of(new ChangeSource("orders", 0, 50L))));
    // the next hand-over of partition 0: 40 deleted, 41 created
    events.addAll(events(three, 10, List.of(row(41, "later")), List.of(40L, 41L), List.of(p0)));
    TableCommitter.Outcome outcome = committer.commit(cycle(three, events, 12, 60));

    assertThat(outcome.failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(30L, "other", 41L, "later"));
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.truncated-at", "orders-0@50")
        .containsEntry("floe.commit-id", three.toString());
    // the images of the kept hand-overs, key 40's superseded; the rows removed are not counted
    assertThat(profile())
        .containsEntry("floe.profile.rows", "3")
        .containsEntry("floe.profile.superseded", "1")
        .doesNotContainKey("floe.profile.deleted");
    List<String> live = new ArrayList<>();
    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        live.add(task.file().location());
        deletes.addAll(task.deletes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(live).as("the files of the kept hand-overs only").hasSize(3);
    assertThat(deletes).as("only the delete of key 40, an image of the same commit").hasSize(1);
    assertThat(deletes.get(0).recordCount()).isEqualTo(1);
    for (String location : earlyDataFiles) {
      assertThat(table.io().newInputFile(location).exists())
          .as("%s, of a dropped hand-over", location)
          .isFalse();
    }

    // replayed: nothing changes
    long snapshots = count(table.snapshots());
    committer.commit(cycle(three, events, 12, 60));
    table.refresh();
    assertThat(count(table.snapshots())).isEqualTo(snapshots);
    assertThat(rows()).isEqualTo(Map.of(30L, "other", 41L, "later"));
  }

  /**
   * What was read before a hand-over a truncate drops was read before the truncate too: partition 1
   * moved from one task to another, whose next hand-over (dropped, as it shares partition 0 with
   * the truncate) holds a newer image of key 1 than the first task's; the older image goes as well,
   * never outliving the newer one.
   */
  @org.junit.jupiter.api.Test
  void aTruncateAlsoDropsWhatCameBeforeTheHandOversItDrops() {
    createTable(3);
    TableCommitter committer = committer(KeyIndexSettings.off());
    ChangeSource p0 = new ChangeSource("orders", 0, null);
    ChangeSource p1 = new ChangeSource("orders", 1, null);
    UUID one = UUID.randomUUID();
    List<PendingEvent> events = new ArrayList<>();
    events.addAll(events(one, 0, List.of(row(1, "old")), List.of(1L), List.of(p1)));
    events.addAll(events(one, 2, List.of(row(1, "newer")), List.of(1L), List.of(p0, p1)));
    events.addAll(
        events(
            one,
            4,
            List.of(row(2, "after")),
            List.of(),
            List.of(new ChangeSource("orders", 0, 9L))));
    assertThat(committer.commit(cycle(one, events, 6, 10)).failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(2L, "after"));
  }

  /** An old worker's hand-over has no change sources: a truncate leaves it as it is. */
  @org.junit.jupiter.api.Test
  void aHandOverWithoutChangeSourcesIsNotDroppedByATruncate() {
    createTable(3);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID one = UUID.randomUUID();
    List<PendingEvent> events = new ArrayList<>();
    events.addAll(events(one, 0, List.of(row(1, "old")), List.of(1L)));
    events.addAll(
        events(
            one,
            2,
            List.of(row(2, "after")),
            List.of(),
            List.of(new ChangeSource("orders", 0, 7L))));
    assertThat(committer.commit(cycle(one, events, 4, 10)).failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(1L, "old", 2L, "after"));
  }

  /**
   * The manifests of a hand-over are taken together by the id their events carry, whatever their
   * names: here names that pair the two hand-overs' manifests the other way round, or tell nothing.
   * Taken by name, the later hand-over's key 1 would retire both images of key 1, or each key
   * manifest its own images.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "names pairing them the other way, x-s0-m.avro, y-k-m.avro, y-s0-m.avro, x-k-m.avro",
    "names that tell nothing, a-images.avro, a-keys.avro, b-images.avro, b-keys.avro"
  })
  void aHandOversManifestsAreTakenTogetherByTheirIdNotByTheirNames(
      String names, String firstData, String firstKeys, String secondData, String secondKeys) {
    createTable(3);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID one = UUID.randomUUID();
    List<PendingEvent> events =
        earlyThenLater(
            one,
            new Shipped("db.orders", UUID.randomUUID(), firstData, firstKeys),
            new Shipped("db.orders", UUID.randomUUID(), secondData, secondKeys));

    assertThat(committer.commit(cycle(one, events, 4, 10)).failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(1L, "later", 2L, "early"));
  }

  /**
   * A worker of a Floe before {@code DataWritten} version 3, whose events may still be on the
   * control topic after an upgrade, sends no hand-over id: its hand-overs are told apart by their
   * manifests' names, next to those of this Floe's workers.
   */
  @org.junit.jupiter.api.Test
  void anOlderWorkersHandOversWithoutAnIdAreTakenTogetherByTheirManifestsNames() {
    createTable(3);
    TableCommitter committer = committer(KeyIndexSettings.off());
    UUID one = UUID.randomUUID();
    List<PendingEvent> events =
        earlyThenLater(
            one,
            Shipped.byWorker("db.orders", one).withoutId(),
            Shipped.byWorker("db.orders", one).withoutId());
    events.addAll(events(one, 4, List.of(row(2, "newest")), List.of(2L)));
    assertThat(events.subList(0, 4)).allMatch(event -> event.event().handOverId() == null);

    assertThat(committer.commit(cycle(one, events, 6, 10)).failures()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(1L, "later", 2L, "newest"));
  }

  /** Two hand-overs of cycle {@code commitId}: keys 1 and 2 created, then key 1 updated. */
  private List<PendingEvent> earlyThenLater(UUID commitId, Shipped first, Shipped second) {
    List<PendingEvent> events = new ArrayList<>();
    events.addAll(
        events(commitId, 0, List.of(row(1, "early"), row(2, "early")), List.of(1L, 2L), first));
    events.addAll(events(commitId, 2, List.of(row(1, "later")), List.of(1L), second));
    return events;
  }

  /**
   * A hand-over holds one fold of changes per route name, and two names of one table ({@code
   * db.Orders} and {@code db.orders} on a catalog that ignores case) are committed together: their
   * manifests, under the one id of the hand-over, are two hand-overs, the later one's image the
   * key's last.
   */
  @org.junit.jupiter.api.Test
  void twoRouteNamesOfOneTableInOneHandOverAreTwoHandOvers() {
    createTable(3);
    UUID one = UUID.randomUUID();
    UUID handOverId = UUID.randomUUID();
    String prefix = "floe-" + one + "-0-" + handOverId;
    List<PendingEvent> events =
        earlyThenLater(
            one,
            new Shipped("db.Orders", handOverId, prefix + "-0-s0-m.avro", prefix + "-0-k-m.avro"),
            new Shipped("db.orders", handOverId, prefix + "-1-s0-m.avro", prefix + "-1-k-m.avro"));

    UpsertEvents read = UpsertEvents.read(table, events);

    assertThat(read.dataFiles()).hasSize(3);
    assertThat(read.superseded())
        .as("db.Orders' image of key 1, which db.orders' replaces")
        .singleElement()
        .satisfies(
            rows -> {
              assertThat(lastImages)
                  .extracting(DataFile::location)
                  .doesNotContain(rows.file().location());
              assertThat(rows.file().partition().get(0, Integer.class)).isEqualTo(1);
              assertThat(rows.positions()).containsExactly(0L);
            });
  }

  private static long count(Iterable<?> items) {
    long n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }

  private static List<Long> ids(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  private Map<Long, String> rows() {
    table.refresh();
    return rows(table.currentSnapshot().snapshotId());
  }

  /** The rows of {@code snapshotId} by key, failing on a key held twice. */
  private Map<Long, String> rows(long snapshotId) {
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      for (Record record : records) {
        assertThat(rows.put((Long) record.getField("id"), (String) record.getField("name")))
            .as("a second row of key %s", record.getField("id"))
            .isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Record row(long id, String name) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("name", name);
    row.setField("part", (int) (id % 3));
    return row;
  }

  /** A table committer as the coordinator builds it. */
  private TableCommitter committer(KeyIndexSettings keyIndex) {
    return committer(keyIndex, CommitBranch.MAIN);
  }

  /** A table committer as the coordinator builds it, committing db.orders to {@code branch}. */
  private TableCommitter committer(KeyIndexSettings keyIndex, CommitBranch branch) {
    return committer(keyIndex, branch, java.util.Optional.empty());
  }

  /** A table committer as the coordinator builds it, db.orders having {@link #CONTRACT}. */
  private TableCommitter committerWithContract() {
    return committer(KeyIndexSettings.off(), CommitBranch.MAIN, java.util.Optional.of(CONTRACT));
  }

  private TableCommitter committer(
      KeyIndexSettings keyIndex, CommitBranch branch, java.util.Optional<Contract> contract) {
    return new TableCommitter(
        catalog,
        GROUP,
        "orders",
        TOPIC,
        keyIndex,
        table -> branch,
        table -> contract,
        ThreadPools.getWorkerPool());
  }

  /** The profile of the table's current snapshot: its {@code floe.profile.*} properties. */
  private Map<String, String> profile() {
    table.refresh();
    Map<String, String> profile = new TreeMap<>();
    table
        .currentSnapshot()
        .summary()
        .forEach(
            (key, value) -> {
              if (key.startsWith("floe.profile.")) {
                profile.put(key, value);
              }
            });
    return profile;
  }

  /** Another writer appends {@code rows} to main; returns the new snapshot's id. */
  private long appendToMain(List<Record> rows) {
    table.refresh();
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 7, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataSchema(table.schema()).build();
    var append = table.newFastAppend();
    Map<Integer, List<Record>> byPart = new TreeMap<>();
    rows.forEach(
        r -> byPart.computeIfAbsent((Integer) r.getField("part"), p -> new ArrayList<>()).add(r));
    for (List<Record> partRows : byPart.values()) {
      PartitionKey partition = new PartitionKey(SPEC, SCHEMA);
      partition.partition(partRows.get(0));
      DataWriter<Record> writer =
          writers.newDataWriter(outputs.newOutputFile(SPEC, partition), SPEC, partition);
      try (writer) {
        partRows.forEach(writer::write);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      append.appendFile(writer.toDataFile());
    }
    append.commit();
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  private static TableCommitter.Cycle cycle(
      UUID id, List<PendingEvent> events, long position, long sourceOffset) {
    return new TableCommitter.Cycle(
        id,
        TableCommitter.byTable(events),
        Map.of(0, position),
        Map.of(new TopicPartition("orders", 0), sourceOffset),
        OptionalLong.empty(),
        false);
  }

  /** What a worker ships for a cycle: a data manifest of the images and a key manifest. */
  private List<PendingEvent> events(
      UUID commitId, long controlOffset, List<Record> images, List<Long> retired) {
    return events(commitId, controlOffset, images, retired, (List<ChangeSource>) null);
  }

  /** As {@link #events(UUID, long, List, List)}, from the given source partitions. */
  private List<PendingEvent> events(
      UUID commitId,
      long controlOffset,
      List<Record> images,
      List<Long> retired,
      List<ChangeSource> sources) {
    return events(
        commitId, controlOffset, images, retired, Shipped.byWorker("db.orders", commitId), sources);
  }

  /** As {@link #events(UUID, long, List, List)}, shipped as {@code shipped} says. */
  private List<PendingEvent> events(
      UUID commitId, long controlOffset, List<Record> images, List<Long> retired, Shipped shipped) {
    return events(commitId, controlOffset, images, retired, shipped, null);
  }

  /**
   * How a hand-over's manifests reach the coordinator.
   *
   * @param table the route name of their events
   * @param handOverId the hand-over id their events carry; {@code null} as from a Floe before
   *     {@code DataWritten} version 3
   * @param dataManifest the data manifest's name
   * @param keyManifest the key manifest's name
   */
  private record Shipped(String table, UUID handOverId, String dataManifest, String keyManifest) {

    /** As a worker ships a hand-over of cycle {@code commitId}: its id in the events and names. */
    static Shipped byWorker(String table, UUID commitId) {
      UUID id = UUID.randomUUID();
      String prefix = "floe-" + commitId + "-0-" + id + "-0";
      return new Shipped(
          table, id, prefix + "-s" + SPEC.specId() + "-m.avro", prefix + "-k-m.avro");
    }

    /** As a worker of a Floe before {@code DataWritten} version 3 ships it: no id in the events. */
    Shipped withoutId() {
      return new Shipped(table, null, dataManifest, keyManifest);
    }
  }

  private List<PendingEvent> events(
      UUID commitId,
      long controlOffset,
      List<Record> images,
      List<Long> retired,
      Shipped shipped,
      List<ChangeSource> sources) {
    return events(commitId, controlOffset, images, retired, shipped, sources, new long[0]);
  }

  /**
   * As a worker ships a hand-over whose images of one partition went to one data file, with {@code
   * superseded} the positions in it of the images later changes of the hand-over replaced.
   */
  private List<PendingEvent> events(
      UUID commitId,
      long controlOffset,
      List<Record> images,
      List<Long> retired,
      Shipped shipped,
      List<ChangeSource> sources,
      long[] superseded) {
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    List<PendingEvent> events = new ArrayList<>();
    if (!images.isEmpty()) {
      GenericFileWriterFactory writers =
          new GenericFileWriterFactory.Builder(table).dataSchema(table.schema()).build();
      List<DataFile> files = new ArrayList<>();
      Map<Integer, List<Record>> byPart = new TreeMap<>();
      images.forEach(
          r -> byPart.computeIfAbsent((Integer) r.getField("part"), p -> new ArrayList<>()).add(r));
      for (List<Record> partRows : byPart.values()) {
        PartitionKey partition = new PartitionKey(SPEC, SCHEMA);
        partition.partition(partRows.get(0));
        DataWriter<Record> writer =
            writers.newDataWriter(outputs.newOutputFile(SPEC, partition), SPEC, partition);
        try (writer) {
          partRows.forEach(writer::write);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        files.add(writer.toDataFile());
      }
      ManifestWriter<DataFile> manifest =
          ManifestFiles.write(
              TableUtil.formatVersion(table),
              SPEC,
              table.io().newOutputFile(metadata(shipped.dataManifest())),
              null);
      try (manifest) {
        files.forEach(manifest::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
      events.add(
          new PendingEvent(
              0,
              controlOffset,
              DataWritten.of(
                      commitId, shipped.table(), table.uuid(), manifest.toManifestFile(), bytes)
                  .withHandOverId(shipped.handOverId())));
      lastImages = files;
    }
    Schema keySchema = table.schema().select("id");
    GenericFileWriterFactory keyWriters =
        new GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(keySchema)
            .build();
    EqualityDeleteWriter<Record> keys =
        keyWriters.newEqualityDeleteWriter(
            outputs.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (keys) {
      for (long id : retired) {
        GenericRecord key = GenericRecord.create(keySchema);
        key.setField("id", id);
        keys.write(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ManifestWriter<DeleteFile> keyManifest =
        ManifestFiles.writeDeleteManifest(
            TableUtil.formatVersion(table),
            PartitionSpec.unpartitioned(),
            table.io().newOutputFile(metadata(shipped.keyManifest())),
            null);
    try (keyManifest) {
      keyManifest.add(keys.toDeleteFile());
      if (superseded.length > 0) {
        org.apache.iceberg.deletes.PositionDeleteWriter<Record> positions =
            new GenericFileWriterFactory.Builder(table)
                .deleteFileFormat(FileFormat.AVRO)
                .build()
                .newPositionDeleteWriter(
                    org.apache.iceberg.encryption.EncryptedFiles.plainAsEncryptedOutput(
                        table
                            .io()
                            .newOutputFile(
                                table.location() + "/data/floe-superseded-" + commitId + ".avro")),
                    PartitionSpec.unpartitioned(),
                    null);
        org.apache.iceberg.deletes.PositionDelete<Record> delete =
            org.apache.iceberg.deletes.PositionDelete.create();
        try (positions) {
          for (long position : superseded) {
            positions.write(delete.set(lastImages.get(0).location(), position));
          }
        }
        keyManifest.add(positions.toDeleteFile());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    events.add(
        new PendingEvent(
            0,
            controlOffset + 1,
            DataWritten.of(
                    commitId,
                    shipped.table(),
                    table.uuid(),
                    keyManifest.toManifestFile(),
                    keys.toDeleteFile().fileSizeInBytes())
                .withChangeSources(sources)
                .withHandOverId(shipped.handOverId())));
    return events;
  }

  private String metadata(String name) {
    return table.location() + "/metadata/" + name;
  }

  /** The manifests and key files a cycle's events name. */
  private List<String> transportFiles(List<PendingEvent> events) {
    List<String> files = new ArrayList<>();
    for (PendingEvent event : events) {
      files.add(event.event().manifestLocation());
    }
    return files;
  }
}
