/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.branch.CommitBranch;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which snapshots expiry removes, what it keeps, and the files it deletes, on real tables. */
class SnapshotExpiryTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final SnapshotExpiry.Policy EXPIRE_ALL_BUT_NEWEST =
      new SnapshotExpiry.Policy(0, 1);
  private static final CommitBranch AUDIT = CommitBranch.of("audit");

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private InMemoryCatalog catalog;
  private Table table;
  private final List<DataFile> files = new ArrayList<>();

  @BeforeEach
  void createTable() {
    catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
  }

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  /** Appends one data file, written to the table's storage, as its own snapshot. */
  private DataFile append() {
    String location = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
    try (OutputStream out = table.io().newOutputFile(location).create()) {
      out.write(new byte[] {1, 2, 3});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(location)
            .withFormat(FileFormat.PARQUET)
            .withRecordCount(1)
            .withFileSizeInBytes(3)
            .build();
    table.newFastAppend().appendFile(file).commit();
    files.add(file);
    return file;
  }

  private boolean exists(DataFile file) {
    try {
      return table.io().newInputFile(file.location()).exists();
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      return false; // how the in-memory store answers for a file it does not hold
    }
  }

  private int snapshots() {
    table.refresh();
    int n = 0;
    for (Snapshot ignored : table.snapshots()) {
      n++;
    }
    return n;
  }

  private SnapshotExpiry.Result expire(SnapshotExpiry.Policy policy) {
    return SnapshotExpiry.expire(table, policy, System.currentTimeMillis() + 1, threads);
  }

  @Test
  void expiresAllButTheNewestAndDeletesOnlyTheFilesNoSnapshotLeftReferences() {
    DataFile first = append();
    for (int i = 0; i < 4; i++) {
      append();
    }
    table.newDelete().deleteFile(first).commit();
    String metadataBefore = table.properties().toString();

    SnapshotExpiry.Result result = expire(EXPIRE_ALL_BUT_NEWEST);

    assertThat(result.expired()).isEqualTo(5);
    assertThat(result.kept()).isEqualTo(1);
    assertThat(snapshots()).isEqualTo(1);
    assertThat(exists(first))
        .as("the deleted file, referenced by expired snapshots only")
        .isFalse();
    for (DataFile live : files.subList(1, files.size())) {
      assertThat(exists(live)).as("a file of the current snapshot").isTrue();
    }
    assertThat(result.filesDeleted()).isGreaterThan(1); // the file and expired manifest lists
    assertThat(table.properties().toString()).isEqualTo(metadataBefore);
  }

  @Test
  void theNewestSnapshotsToKeepAndTheYoungerOnesStay() {
    for (int i = 0; i < 6; i++) {
      append();
    }

    assertThat(expire(new SnapshotExpiry.Policy(0, 4)).expired()).isEqualTo(2);
    assertThat(snapshots()).isEqualTo(4);
    assertThat(expire(new SnapshotExpiry.Policy(3_600_000, 1)).expired()).isZero();
    assertThat(snapshots()).isEqualTo(4);
  }

  @Test
  void theTablesOwnHistoryPropertiesWinOverTheConnectorsPolicy() {
    for (int i = 0; i < 6; i++) {
      append();
    }
    table.updateProperties().set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, "3").commit();

    expire(EXPIRE_ALL_BUT_NEWEST);
    assertThat(snapshots()).isEqualTo(3);

    table.updateProperties().set(TableProperties.MAX_SNAPSHOT_AGE_MS, "86400000").commit();
    String location = table.currentSnapshot().manifestListLocation();
    assertThat(expire(EXPIRE_ALL_BUT_NEWEST).expired()).isZero();
    assertThat(snapshots()).isEqualTo(3);
    assertThat(table.currentSnapshot().manifestListLocation()).isEqualTo(location);
  }

  @Test
  void aTaggedSnapshotAndItsFilesStay() {
    DataFile first = append();
    long tagged = table.currentSnapshot().snapshotId();
    table.manageSnapshots().createTag("audit", tagged).commit();
    append();
    table.newDelete().deleteFile(first).commit();

    expire(EXPIRE_ALL_BUT_NEWEST);

    assertThat(table.snapshot(tagged)).isNotNull();
    assertThat(snapshots()).isEqualTo(2);
    assertThat(exists(first)).as("a file of the tagged snapshot").isTrue();
  }

  /** Appends one data file to {@code branch} as its own snapshot, marked as the connector's. */
  private DataFile appendTo(String branch, boolean marked) {
    String location = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
    try (OutputStream out = table.io().newOutputFile(location).create()) {
      out.write(new byte[] {1, 2, 3});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(location)
            .withFormat(FileFormat.PARQUET)
            .withRecordCount(1)
            .withFileSizeInBytes(3)
            .build();
    var append = table.newFastAppend().appendFile(file).toBranch(branch);
    if (marked) {
      append.set("marked", "true");
    }
    append.commit();
    return file;
  }

  private SnapshotExpiry.Result expireWithBranch(SnapshotExpiry.Policy policy, long nowMs) {
    return SnapshotExpiry.expire(
        table,
        policy,
        nowMs,
        threads,
        AUDIT,
        snapshot -> "true".equals(snapshot.summary().get("marked")));
  }

  private List<Long> branchHistory() {
    table.refresh();
    List<Long> ids = new ArrayList<>();
    AUDIT.history(table).forEach(snapshot -> ids.add(snapshot.snapshotId()));
    return ids;
  }

  @Test
  void theCommitBranchsOldSnapshotsAreExpiredByThePolicyAndMainsByItsOwn() {
    append();
    append();
    table
        .manageSnapshots()
        .createBranch(AUDIT.name(), table.currentSnapshot().snapshotId())
        .commit();
    DataFile gone = appendTo(AUDIT.name(), true);
    table.newDelete().deleteFile(gone).toBranch(AUDIT.name()).set("marked", "true").commit();
    appendTo(AUDIT.name(), true);
    long head = branchHistory().get(0);

    SnapshotExpiry.Result result =
        expireWithBranch(EXPIRE_ALL_BUT_NEWEST, System.currentTimeMillis() + 1);

    assertThat(result.heldBack()).isNull();
    assertThat(branchHistory()).containsExactly(head);
    assertThat(table.snapshot(table.currentSnapshot().parentId()))
        .as("main: its newest only")
        .isNull();
    assertThat(snapshots()).isEqualTo(2);
    assertThat(table.refs()).containsKey(AUDIT.name());
    assertThat(exists(gone)).as("a file only expired snapshots of the branch held").isFalse();
    assertThat(files).as("main's files").allMatch(this::exists);
  }

  @Test
  void theBranchsSnapshotHoldingTheConnectorsNewestMarksIsKept() {
    appendTo(AUDIT.name(), false);
    appendTo(AUDIT.name(), true);
    appendTo(AUDIT.name(), false); // other writers commit to the branch after the connector
    appendTo(AUDIT.name(), false);
    List<Long> before = branchHistory();

    expireWithBranch(EXPIRE_ALL_BUT_NEWEST, System.currentTimeMillis() + 1);

    assertThat(branchHistory()).as("down to the marked snapshot").isEqualTo(before.subList(0, 3));
  }

  @Test
  void anExpiryThatWouldRemoveTheCommitBranchIsHeldBack() {
    appendTo(AUDIT.name(), true);
    appendTo(AUDIT.name(), true);
    table.updateProperties().set(TableProperties.MAX_REF_AGE_MS, "1000").commit();
    List<Long> before = branchHistory();

    SnapshotExpiry.Result result =
        expireWithBranch(EXPIRE_ALL_BUT_NEWEST, System.currentTimeMillis() + 60_000);

    assertThat(result.heldBack())
        .contains("branch audit, which the connector commits to, is older than its maximum age");
    assertThat(result.expired()).isZero();
    assertThat(branchHistory()).isEqualTo(before);
  }

  @Test
  void anExpiryThatWouldExpireTheMarkedSnapshotByTheBranchsOwnRetentionIsHeldBack() {
    appendTo(AUDIT.name(), true);
    appendTo(AUDIT.name(), false);
    appendTo(AUDIT.name(), false);
    table.manageSnapshots().setMinSnapshotsToKeep(AUDIT.name(), 1).commit();
    List<Long> before = branchHistory();

    SnapshotExpiry.Result result =
        expireWithBranch(EXPIRE_ALL_BUT_NEWEST, System.currentTimeMillis() + 1);

    assertThat(result.heldBack()).contains("min-snapshots-to-keep of branch audit (1)");
    assertThat(branchHistory()).isEqualTo(before);
  }

  @Test
  void aTableWithoutSnapshotsIsLeftAlone() {
    assertThat(expire(EXPIRE_ALL_BUT_NEWEST)).isEqualTo(new SnapshotExpiry.Result(0, 0, 0));
  }
}
