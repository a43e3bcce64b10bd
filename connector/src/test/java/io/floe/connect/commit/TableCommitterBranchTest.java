/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.branch.CommitBranchException;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.deletes.KeyIndexSettings;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table committed to a branch ({@code commit-branch}): the data and the marks go to the branch,
 * main stays as it was; the position is read back from the branch, also while main moves on by
 * other writers, and from main's history while the branch does not exist yet.
 */
class TableCommitterBranchTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String GROUP = "connect-orders";
  private static final ControlTopic TOPIC =
      new ControlTopic(
          "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));
  private static final CommitBranch AUDIT = CommitBranch.of("audit");

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

  /** A table committer as the coordinator builds it, committing db.orders to {@code branch}. */
  private TableCommitter committer(CommitBranch branch) {
    return new TableCommitter(
        catalog,
        GROUP,
        "orders",
        TOPIC,
        KeyIndexSettings.off(),
        table -> branch,
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
        Map.of(new TopicPartition("orders", 0), position * 10),
        OptionalLong.of(position * 1_000),
        false);
  }

  /** Another writer appends a file of {@code records} rows to main. */
  private Snapshot appendToMain(long records) {
    table.refresh();
    table
        .newFastAppend()
        .appendFile(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/other-" + UUID.randomUUID() + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withRecordCount(records)
                .withFileSizeInBytes(10)
                .build())
        .commit();
    return table.currentSnapshot();
  }

  private Set<String> files(Snapshot snapshot) throws Exception {
    Set<String> files = new HashSet<>();
    if (snapshot == null) {
      return files;
    }
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      tasks.forEach(task -> files.add(task.file().location()));
    }
    return files;
  }

  private Snapshot branchHead() {
    table.refresh();
    return table.snapshot(AUDIT.name());
  }

  @Test
  void appendsAndMarksGoToTheBranchWhichTheFirstCommitCreatesFromMain() throws Exception {
    Snapshot main = appendToMain(5);
    UUID id = UUID.randomUUID();

    TableCommitter.Outcome outcome =
        committer(AUDIT).commit(cycle(id, List.of(event(3, id, 10)), 4));

    assertThat(outcome.failures()).isEmpty();
    Snapshot head = branchHead();
    assertThat(head).isNotNull();
    assertThat(outcome.committed().get("db.orders").snapshot().snapshotId())
        .isEqualTo(head.snapshotId());
    assertThat(head.parentId())
        .as("created from main's current snapshot")
        .isEqualTo(main.snapshotId());
    assertThat(head.summary())
        .containsEntry("floe.commit-id", id.toString())
        .containsEntry("total-records", "15")
        .containsKey(CommitMarks.CONTROL_OFFSETS + GROUP);
    assertThat(table.currentSnapshot().snapshotId())
        .as("main is where it was")
        .isEqualTo(main.snapshotId());
    assertThat(table.properties())
        .doesNotContainKey(CommitMarks.LAST_COMMIT + GROUP)
        .containsKey(CommitMarks.LAST_COMMIT + GROUP + ".branch_audit");
    assertThat(table.properties().get(CommitMarks.LAST_COMMIT + GROUP + ".branch_audit"))
        .contains("\"branch\":\"audit\"")
        .contains("\"snapshot-id\":" + head.snapshotId());
    assertThat(CommitMarks.latest(table, GROUP, AUDIT).orElseThrow().offsets())
        .isEqualTo(Map.of(0, 4L));
    assertThat(CommitMarks.latest(table, GROUP, CommitBranch.MAIN))
        .as("main holds no commit of the connector")
        .isEmpty();
  }

  @Test
  void aReplayedCycleOnTheBranchIsRecognizedAsCommitted() {
    UUID first = UUID.randomUUID();
    PendingEvent old = event(3, first, 10);
    committer(AUDIT).commit(cycle(first, List.of(old), 4));
    Snapshot committed = branchHead();

    // a restarted coordinator reads the cycle again from an older control position
    TableCommitter.Outcome replayed =
        committer(AUDIT).commit(cycle(UUID.randomUUID(), List.of(old), 4));

    assertThat(replayed.failures()).isEmpty();
    assertThat(replayed.committed().get("db.orders").skipped()).isEqualTo(1);
    assertThat(replayed.committed().get("db.orders").snapshot()).isNull();
    assertThat(branchHead().snapshotId()).isEqualTo(committed.snapshotId());

    UUID second = UUID.randomUUID();
    TableCommitter.Outcome next =
        committer(AUDIT).commit(cycle(second, List.of(old, event(7, second, 5)), 8));
    assertThat(next.committed().get("db.orders").skipped()).isEqualTo(1);
    assertThat(branchHead().summary())
        .containsEntry("added-records", "5")
        .containsEntry("total-records", "15");
    assertThat(table.currentSnapshot()).as("main has no snapshot still").isNull();
  }

  @Test
  void mainMovingOnByAnotherWriterLeavesTheBranchExact() throws Exception {
    UUID one = UUID.randomUUID();
    committer(AUDIT).commit(cycle(one, List.of(event(3, one, 10)), 4));
    Set<String> afterOne = files(branchHead());
    Snapshot otherFirst = appendToMain(7);
    Snapshot otherSecond = appendToMain(8);

    UUID two = UUID.randomUUID();
    TestManifests.Manifest manifest = TestManifests.manifest(table, "db.orders", two, 20);
    PendingEvent second = new PendingEvent(0, 5, manifest.event());
    TableCommitter.Outcome outcome = committer(AUDIT).commit(cycle(two, List.of(second), 6));

    assertThat(outcome.failures()).isEmpty();
    Snapshot head = branchHead();
    assertThat(head.summary()).containsEntry("total-records", "30");
    Set<String> expected = new HashSet<>(afterOne);
    expected.addAll(manifest.dataFiles());
    assertThat(files(head)).isEqualTo(expected);
    assertThat(files(head)).doesNotContainAnyElementsOf(files(otherSecond));
    assertThat(files(table.currentSnapshot()))
        .as("main holds the other writer's files only")
        .hasSize(2)
        .doesNotContainAnyElementsOf(afterOne);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(otherSecond.snapshotId());
    assertThat(otherFirst.parentId()).isNull();
    assertThat(CommitMarks.latest(table, GROUP, AUDIT).orElseThrow().commitId())
        .isEqualTo(two.toString());

    // and a replay of both cycles after a restart is recognized from the branch
    TableCommitter.Outcome replayed =
        committer(AUDIT).commit(cycle(UUID.randomUUID(), List.of(second), 6));
    assertThat(replayed.committed().get("db.orders").skipped()).isEqualTo(1);
    assertThat(branchHead().snapshotId()).isEqualTo(head.snapshotId());
  }

  @Test
  void aTableMovedFromMainToANewBranchGoesOnFromItsMarksOnMain() {
    UUID one = UUID.randomUUID();
    PendingEvent first = event(3, one, 10);
    committer(CommitBranch.MAIN).commit(cycle(one, List.of(first), 4));
    table.refresh();
    Snapshot main = table.currentSnapshot();

    // the connector now commits to a branch that does not exist yet; the cycle is replayed
    UUID two = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(AUDIT).commit(cycle(two, List.of(first, event(5, two, 20)), 6));

    assertThat(outcome.failures()).isEmpty();
    assertThat(outcome.committed().get("db.orders").skipped()).isEqualTo(1);
    Snapshot head = branchHead();
    assertThat(head.parentId()).isEqualTo(main.snapshotId());
    assertThat(head.summary())
        .containsEntry("added-records", "20")
        .containsEntry("total-records", "30");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(main.snapshotId());
  }

  @Test
  void mainAndTheBranchEachKeepTheirOwnPositionSoSwitchingBackToMainGoesOn() {
    UUID one = UUID.randomUUID();
    committer(CommitBranch.MAIN).commit(cycle(one, List.of(event(3, one, 10)), 4));
    UUID two = UUID.randomUUID();
    committer(AUDIT).commit(cycle(two, List.of(event(5, two, 20)), 6));

    // back on main: its history and its own property agree on cycle one, the branch's cycle two
    // is in the branch's property only, so main is not taken for rolled back
    table.refresh();
    assertThat(CommitMarks.latest(table, GROUP, CommitBranch.MAIN).orElseThrow().commitId())
        .isEqualTo(one.toString());
    assertThat(CommitMarks.latest(table, GROUP, AUDIT).orElseThrow().commitId())
        .isEqualTo(two.toString());
    UUID three = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(CommitBranch.MAIN).commit(cycle(three, List.of(event(7, three, 5)), 8));

    assertThat(outcome.failures()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "15");
    assertThat(branchHead().summary()).containsEntry("total-records", "30");
  }

  @Test
  void aBranchRemovedUnderTheConnectorFailsItsRecoveryRatherThanGuess() {
    UUID one = UUID.randomUUID();
    committer(AUDIT).commit(cycle(one, List.of(event(3, one, 10)), 4));
    table.refresh();
    table.manageSnapshots().removeBranch(AUDIT.name()).commit();

    UUID two = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(AUDIT).commit(cycle(two, List.of(event(5, two, 20)), 6));

    assertThat(outcome.failures().get("db.orders"))
        .isInstanceOf(HistoryRewoundException.class)
        .hasMessageContaining("its branch audit was rolled back past it or removed")
        .hasMessageContaining(CommitMarks.LAST_COMMIT + GROUP + ".branch_audit");
    table.refresh();
    assertThat(table.refs()).doesNotContainKey(AUDIT.name());
  }

  @Test
  void aColumnAddedWhileTheConnectorCommitsToABranchIsTheBranchsToo() {
    UUID one = UUID.randomUUID();
    committer(AUDIT).commit(cycle(one, List.of(event(3, one, 10)), 4));
    table.refresh();
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    table.refresh();
    int evolved = table.schema().schemaId();

    UUID two = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer(AUDIT).commit(cycle(two, List.of(event(5, two, 20)), 6));

    assertThat(outcome.failures()).isEmpty();
    Snapshot head = branchHead();
    assertThat(head.schemaId()).as("the table's one schema").isEqualTo(evolved);
    assertThat(table.schemas().get(head.schemaId()).findField("note")).isNotNull();
    assertThat(table.currentSnapshot()).as("main").isNull();
  }

  @Test
  void aTagsNameIsRefusedAndNothingIsCommitted() {
    Snapshot main = appendToMain(5);
    table.manageSnapshots().createTag(AUDIT.name(), main.snapshotId()).commit();
    UUID id = UUID.randomUUID();

    TableCommitter.Outcome outcome =
        committer(AUDIT).commit(cycle(id, List.of(event(3, id, 10)), 4));

    assertThat(outcome.failures().get("db.orders"))
        .isInstanceOf(CommitBranchException.class)
        .hasMessageContaining("its ref audit is a tag, not a branch")
        .hasMessageContaining("iceberg.table.<table>.commit-branch");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(main.snapshotId());
    assertThat(table.snapshots()).hasSize(1);
  }
}
