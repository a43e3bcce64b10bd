/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.deletes.KeyIndexSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Committing a cycle's manifests: marks, replays skipped, racing coordinators, recreated topics.
 */
class TableCommitterTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String GROUP = "connect-orders";
  private static final ControlTopic TOPIC =
      new ControlTopic(
          "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));

  private InMemoryCatalog catalog;
  private Table table;

  @BeforeEach
  void createTable() {
    catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "orders"), SCHEMA, PartitionSpec.unpartitioned());
  }

  private TableCommitter committer(ControlTopic topic) {
    return committer(catalog, topic);
  }

  /** A table committer as the coordinator builds it, without key indexes. */
  private static TableCommitter committer(Catalog catalog, ControlTopic topic) {
    return new TableCommitter(
        catalog,
        GROUP,
        "orders",
        topic,
        KeyIndexSettings.off(),
        table -> CommitBranch.MAIN,
        table -> java.util.Optional.empty(),
        ThreadPools.getWorkerPool());
  }

  private PendingEvent event(long controlOffset, UUID commitId, long records) {
    return new PendingEvent(
        0, controlOffset, TestManifests.manifest(table, "db.orders", commitId, records).event());
  }

  private static TableCommitter.Cycle cycle(UUID id, List<PendingEvent> events, long position) {
    return new TableCommitter.Cycle(
        id,
        TableCommitter.byTable(events),
        Map.of(0, position),
        Map.of(new TopicPartition("orders", 0), 42L),
        OptionalLong.of(5_000L),
        false);
  }

  @Test
  void aCommitLeavesItsCommitIdPositionsAndWatermarkInTheSnapshot() throws IOException {
    UUID id = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(TOPIC).commit(cycle(id, List.of(event(3, id, 10)), 4));

    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary())
        .containsEntry("added-records", "10")
        .containsEntry("floe.commit-id", id.toString())
        .containsEntry("floe.valid-through-ms." + GROUP, "5000")
        .containsEntry("floe.source-offsets." + GROUP, "{\"orders\":{\"0\":42}}");
    CommitMarks.Mark mark = CommitMarks.latest(table, GROUP).orElseThrow();
    assertThat(mark.offsets()).isEqualTo(Map.of(0, 4L));
    assertThat(mark.topicId()).isEqualTo(TOPIC.id().toString());
    assertThat(outcome.committed().get("db.orders").snapshot().snapshotId())
        .isEqualTo(snapshot.snapshotId());
  }

  @Test
  void twoRouteNamesOfOneTableInACaseInsensitiveCatalogAreCommittedTogetherAndNothingIsLost() {
    InMemoryCatalog caseInsensitive =
        new InMemoryCatalog() {
          @Override
          public Table loadTable(TableIdentifier identifier) {
            return super.loadTable(
                TableIdentifier.parse(identifier.toString().toLowerCase(Locale.ROOT)));
          }
        };
    caseInsensitive.initialize("test", Map.of());
    caseInsensitive.createNamespace(Namespace.of("db"));
    table =
        caseInsensitive.createTable(
            TableIdentifier.of("db", "orders"), SCHEMA, PartitionSpec.unpartitioned());
    UUID id = UUID.randomUUID();
    List<PendingEvent> pending =
        new ArrayList<>(
            List.of(
                new PendingEvent(0, 3, TestManifests.manifest(table, "db.Orders", id, 10).event()),
                new PendingEvent(
                    0, 4, TestManifests.manifest(table, "db.orders", id, 20).event())));
    TableCommitter committer = committer(caseInsensitive, TOPIC);

    TableCommitter.Outcome outcome = committer.commit(cycle(id, pending, 5));
    // as the coordinator does: what was committed leaves the pending events, the rest is retried
    pending.removeIf(event -> outcome.committed().containsKey(event.event().table()));
    if (!pending.isEmpty()) {
      committer.commit(cycle(id, pending, 5));
    }

    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .as("both names' files, in one commit")
        .containsEntry("total-records", "30")
        .containsEntry("added-records", "30");
    assertThat(outcome.failures()).isEmpty();
    assertThat(outcome.committed()).containsOnlyKeys("db.Orders", "db.orders");
  }

  @Test
  void aCommitTheCatalogAnswersAsMadeButTheTableDoesNotHoldFailsAndIsCommittedOnTheRetry() {
    DroppingCatalog dropping = new DroppingCatalog();
    dropping.initialize("test", Map.of());
    dropping.createNamespace(Namespace.of("db"));
    table =
        dropping.createTable(
            TableIdentifier.of("db", "orders"), SCHEMA, PartitionSpec.unpartitioned());
    TableCommitter committer = committer(dropping, TOPIC);
    UUID id = UUID.randomUUID();
    List<PendingEvent> pending = List.of(event(3, id, 10));

    dropping.drop = true;
    TableCommitter.Outcome dropped = committer.commit(cycle(id, pending, 4));
    assertThat(dropped.committed()).doesNotContainKey("db.orders");
    assertThat(dropped.failures().get("db.orders"))
        .hasMessageContaining("the catalog answered that commit " + id + " was made")
        .hasMessageContaining("does not hold it");

    dropping.drop = false;
    TableCommitter.Outcome retried = committer.commit(cycle(id, pending, 4));
    assertThat(retried.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.commit-id", id.toString())
        .containsEntry("total-records", "10");
  }

  /**
   * A catalog that answers commits as made while it drops them when told to, as a REST server that
   * replays a conflicting transaction on the newer metadata without its changes does.
   */
  private static final class DroppingCatalog extends InMemoryCatalog {
    private volatile boolean drop;

    @Override
    protected TableOperations newTableOps(TableIdentifier identifier) {
      TableOperations ops = super.newTableOps(identifier);
      return new TableOperations() {
        @Override
        public TableMetadata current() {
          return ops.current();
        }

        @Override
        public TableMetadata refresh() {
          return ops.refresh();
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
          if (!drop) {
            ops.commit(base, metadata);
          }
        }

        @Override
        public FileIO io() {
          return ops.io();
        }

        @Override
        public EncryptionManager encryption() {
          return ops.encryption();
        }

        @Override
        public String metadataFileLocation(String fileName) {
          return ops.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
          return ops.locationProvider();
        }

        @Override
        public long newSnapshotId() {
          return ops.newSnapshotId();
        }
      };
    }
  }

  @Test
  void theSummarysStandardFileCountsAndSizesMatchTheFiles() throws IOException {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10), event(4, first, 20)), 5));
    UUID second = UUID.randomUUID();
    committer(TOPIC).commit(cycle(second, List.of(event(6, second, 5)), 7));

    table.refresh();
    long size = 0;
    long files = 0;
    long records = 0;
    try (var tasks = table.newScan().planFiles()) {
      for (var task : tasks) {
        size += task.file().fileSizeInBytes();
        files++;
        records += task.file().recordCount();
      }
    }
    assertThat(table.currentSnapshot().summary())
        .containsEntry("added-files-size", "105")
        .containsEntry("total-files-size", Long.toString(size))
        .containsEntry("total-data-files", Long.toString(files))
        .containsEntry("total-records", Long.toString(records));
    assertThat(size).isEqualTo(110 + 120 + 105);
  }

  @Test
  void replayedEventsBelowTheStoredPositionAreNotCommittedAgain() throws IOException {
    UUID first = UUID.randomUUID();
    PendingEvent old = event(3, first, 10);
    committer(TOPIC).commit(cycle(first, List.of(old), 4));

    // a new coordinator replays from an older control position: the old event and a new one
    UUID second = UUID.randomUUID();
    PendingEvent fresh = event(7, second, 5);
    TableCommitter.Outcome outcome = committer(TOPIC).commit(cycle(second, List.of(old, fresh), 8));

    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "15");
    assertThat(table.currentSnapshot().summary()).containsEntry("added-records", "5");
    assertThat(outcome.committed().get("db.orders").skipped()).isEqualTo(1);
    assertThat(outcome.committed().get("db.orders").manifests()).isEqualTo(1);
  }

  @Test
  void aFullyReplayedCycleCommitsNothing() throws IOException {
    UUID first = UUID.randomUUID();
    PendingEvent old = event(3, first, 10);
    committer(TOPIC).commit(cycle(first, List.of(old), 4));
    long snapshots = countSnapshots();

    TableCommitter.Outcome outcome =
        committer(TOPIC).commit(cycle(UUID.randomUUID(), List.of(old), 4));

    assertThat(outcome.failures()).isEmpty();
    assertThat(outcome.committed().get("db.orders").snapshot()).isNull();
    assertThat(outcome.committed().get("db.orders").skipped()).isEqualTo(1);
    assertThat(countSnapshots()).isEqualTo(snapshots);
  }

  @Test
  void aCoordinatorThatCheckedBeforeAnotherCommittedCannotCommitTheSameFiles() throws IOException {
    UUID id = UUID.randomUUID();
    PendingEvent event = event(3, id, 10);
    Table stale = catalog.loadTable(TableIdentifier.of("db", "orders"));
    committer(TOPIC).commit(cycle(id, List.of(event), 4));

    // the zombie checked the table before that commit: no mark, nothing committed yet
    var append = stale.newFastAppend();
    append.appendManifest(new io.floe.connect.control.EventManifest(event.event()));
    append.set(CommitMarks.CONTROL_OFFSETS + GROUP, "{}");
    append.validateWith(new TableCommitter.NoCommitSince(GROUP, null, null));

    assertThatThrownBy(append::commit)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("another commit of connector group " + GROUP);
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "10");
  }

  @Test
  void aCommitRecordsItsMarkInATablePropertyThatNamesItsSnapshot() {
    UUID id = UUID.randomUUID();
    committer(TOPIC).commit(cycle(id, List.of(event(3, id, 10)), 4));

    table.refresh();
    CommitMarks.Mark recorded = CommitMarks.recorded(table, GROUP, CommitBranch.MAIN).orElseThrow();
    assertThat(recorded.commitId()).isEqualTo(id.toString());
    assertThat(recorded.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(recorded.offsets()).isEqualTo(Map.of(0, 4L));
    assertThat(recorded.validThroughMs()).isEqualTo(5_000L);
    assertThat(recorded.sourceOffsets()).containsEntry(new TopicPartition("orders", 0), 42L);
  }

  /**
   * Another engine compacts the table and expires every snapshot but its own, so no snapshot left
   * holds Floe's mark; a coordinator that restarts from an older control position must still skip
   * what the table holds.
   */
  @Test
  void replayedEventsAreSkippedAfterAnotherEngineCompactedAndExpiredTheMarkedSnapshot() {
    UUID first = UUID.randomUUID();
    PendingEvent old = event(3, first, 10);
    committer(TOPIC).commit(cycle(first, List.of(old), 4));
    compactAndExpireAllButCurrent();
    assertThat(countSnapshots()).isEqualTo(1);

    UUID second = UUID.randomUUID();
    PendingEvent fresh = event(7, second, 5);
    TableCommitter.Outcome outcome = committer(TOPIC).commit(cycle(second, List.of(old, fresh), 8));

    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "15");
    assertThat(CommitMarks.latest(table, GROUP).orElseThrow().offsets()).isEqualTo(Map.of(0, 8L));
  }

  @Test
  void aCoordinatorThatCheckedBeforeAnotherCompactedAndExpiredCannotCommit() {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10)), 4));
    compactAndExpireAllButCurrent();
    table.refresh();
    long checkedAt = table.currentSnapshot().snapshotId();
    String marked = CommitMarks.latest(table, GROUP).orElseThrow().commitId();
    UUID second = UUID.randomUUID();
    committer(TOPIC).commit(cycle(second, List.of(event(7, second, 5)), 8));
    compactAndExpireAllButCurrent();

    // a zombie checked the table after the first expiry: it cannot see the second commit
    var append = table.newFastAppend();
    append.appendManifest(new io.floe.connect.control.EventManifest(event(7, second, 5).event()));
    append.validateWith(new TableCommitter.NoCommitSince(GROUP, marked, checkedAt));

    assertThatThrownBy(append::commit).isInstanceOf(ValidationException.class);
  }

  @Test
  void aTableRolledBackPastTheLastCommitFailsTheCommitSayingWhatToDo() {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10)), 4));
    table.refresh();
    long kept = table.currentSnapshot().snapshotId();
    UUID second = UUID.randomUUID();
    committer(TOPIC).commit(cycle(second, List.of(event(5, second, 5)), 6));
    table.manageSnapshots().rollbackTo(kept).commit();

    UUID third = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(TOPIC).commit(cycle(third, List.of(event(7, third, 1)), 8));

    assertThat(outcome.failures().get("db.orders"))
        .isInstanceOf(HistoryRewoundException.class)
        .hasMessageContaining("no longer holds the last commit of connector group " + GROUP)
        .hasMessageContaining("UNSET TBLPROPERTIES ('floe.last-commit." + GROUP + "')");

    // the operator meant it: without the property, the commit goes on from the history's mark
    table.updateProperties().remove(CommitMarks.LAST_COMMIT + GROUP).commit();
    outcome = committer(TOPIC).commit(cycle(third, List.of(event(7, third, 1)), 8));
    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "11");
  }

  /** What an operator's maintenance does: rewrite the data files, expire all but the newest. */
  private void compactAndExpireAllButCurrent() {
    table.refresh();
    org.apache.iceberg.RewriteFiles rewrite =
        table.newRewrite().validateFromSnapshot(table.currentSnapshot().snapshotId());
    long records = 0;
    for (org.apache.iceberg.FileScanTask task : table.newScan().planFiles()) {
      rewrite.deleteFile(task.file());
      records += task.file().recordCount();
    }
    rewrite
        .addFile(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/compacted-" + UUID.randomUUID() + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withRecordCount(records)
                .withFileSizeInBytes(100)
                .build())
        .commit();
    OtherEngine.expireAllButNewest(table, false);
  }

  @Test
  void otherWritersCommitsBetweenFloeCommitsDoNotBlockTheNextOne() throws IOException {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10)), 4));
    table
        .newFastAppend()
        .appendFile(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/other.parquet")
                .withFormat(FileFormat.PARQUET)
                .withRecordCount(1)
                .withFileSizeInBytes(10)
                .build())
        .commit();

    UUID second = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(TOPIC).commit(cycle(second, List.of(event(9, second, 2)), 10));

    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "13");
    assertThat(CommitMarks.latest(table, GROUP).orElseThrow().offsets()).isEqualTo(Map.of(0, 10L));
  }

  @Test
  void theWatermarkNeverMovesBack() throws IOException {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10)), 4));
    UUID second = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(TOPIC)
            .commit(
                new TableCommitter.Cycle(
                    second,
                    TableCommitter.byTable(List.of(event(5, second, 1))),
                    Map.of(0, 6L),
                    Map.of(),
                    OptionalLong.of(1_000L),
                    false));
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.valid-through-ms." + GROUP, "5000");
    TableCommitter.TableResult result = outcome.committed().get("db.orders");
    assertThat(result.validThroughMs()).isEqualTo(5000L);
    assertThat(result.previousSourceOffsets())
        .isEqualTo(Map.of(new TopicPartition("orders", 0), 42L));
  }

  @Test
  void aRecreatedControlTopicFailsTheCommitSayingWhatHappened() throws IOException {
    UUID first = UUID.randomUUID();
    committer(TOPIC).commit(cycle(first, List.of(event(3, first, 10)), 4));
    ControlTopic recreated = new ControlTopic(TOPIC.name(), Uuid.randomUuid(), TOPIC.partitions());

    UUID second = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(recreated).commit(cycle(second, List.of(event(0, second, 1)), 1));

    assertThat(outcome.failures().get("db.orders"))
        .isInstanceOf(ControlTopicChangedException.class)
        .hasMessageContaining("was recreated")
        .hasMessageContaining(TOPIC.id().toString());
  }

  @Test
  void eventsForADroppedAndRecreatedTableAreNotCommittedToTheNewOne() throws IOException {
    UUID id = UUID.randomUUID();
    PendingEvent event = event(3, id, 10);
    catalog.dropTable(TableIdentifier.of("db", "orders"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "orders"), SCHEMA, PartitionSpec.unpartitioned());

    TableCommitter.Outcome outcome = committer(TOPIC).commit(cycle(id, List.of(event), 4));

    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot()).isNull();
  }

  private long countSnapshots() {
    table.refresh();
    long n = 0;
    for (Snapshot ignored : table.snapshots()) {
      n++;
    }
    return n;
  }
}
