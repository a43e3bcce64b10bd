/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.branch;

import java.util.List;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * The branch of a table that the connector commits to: {@code main} unless {@code
 * iceberg.table.<table>.commit-branch} (or {@code iceberg.tables.default-commit-branch}) names
 * another. Every read of what the connector committed (its marks, the stored rows of retired keys,
 * the snapshot a commit is checked against) goes through {@link #head}, and every commit through
 * {@link #newFastAppend} or {@link #newRowDelta}, so that the two agree.
 *
 * <p>A branch that does not exist yet is created by its first commit, from the table's current
 * snapshot, as Iceberg's snapshot producer does for a commit to a missing branch (it takes main's
 * current snapshot as the parent, {@code SnapshotUtil.latestSnapshot(TableMetadata, String)}).
 * Until then the branch's head is therefore main's current snapshot, its history main's: a
 * connector that moves a table from main to a new branch goes on from its marks on main, and main
 * stays an ancestor of the branch, so main can be fast-forwarded to it. The branch is created
 * explicitly, in the commit's transaction, rather than by the commit alone: Iceberg counts the
 * totals of a commit to a missing branch ({@code total-records}, {@code total-data-files}, ...)
 * from zero, leaving out what the branch holds of main, and every later snapshot of the branch
 * would carry that error on.
 *
 * @param name the branch's name
 */
public record CommitBranch(String name) {
  /** The table's main branch. */
  public static final CommitBranch MAIN = new CommitBranch(SnapshotRef.MAIN_BRANCH);

  public CommitBranch {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a branch needs a name");
    }
  }

  /** The branch named {@code name}, main when the name is null or blank. */
  public static CommitBranch of(String name) {
    return name == null || name.isBlank() || name.equals(SnapshotRef.MAIN_BRANCH)
        ? MAIN
        : new CommitBranch(name);
  }

  /** Whether this is the table's main branch. */
  public boolean isMain() {
    return name.equals(SnapshotRef.MAIN_BRANCH);
  }

  /**
   * The snapshot the next commit to this branch builds on: the branch's newest snapshot, or, while
   * the branch does not exist, the table's current snapshot (from which its first commit creates
   * it); null when there is none.
   *
   * @throws CommitBranchException when the name is a tag's
   */
  public Snapshot head(Table table) {
    if (isMain()) {
      return table.currentSnapshot();
    }
    SnapshotRef ref = ref(table);
    return ref == null ? table.currentSnapshot() : table.snapshot(ref.snapshotId());
  }

  /** {@link #head} and its ancestors that the table still has, newest first, read as iterated. */
  public Iterable<Snapshot> history(Table table) {
    Snapshot head = head(table);
    return head == null ? List.of() : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot);
  }

  /**
   * A fast append to this branch in {@code transaction}, which first creates the branch from the
   * table's current snapshot if it is missing.
   *
   * @throws CommitBranchException when the name is a tag's
   */
  public AppendFiles newFastAppend(Transaction transaction) {
    return target(created(transaction).newFastAppend());
  }

  /**
   * A row delta to this branch in {@code transaction}, which first creates the branch from the
   * table's current snapshot if it is missing.
   *
   * @throws CommitBranchException when the name is a tag's
   */
  public RowDelta newRowDelta(Transaction transaction) {
    return target(created(transaction).newRowDelta());
  }

  /**
   * {@code transaction}, where this branch is created from the table's current snapshot (its {@link
   * #head}) if it is missing and the table has a snapshot; on a table without one, the commit
   * itself creates the branch, with the commit's snapshot as its first.
   */
  private Transaction created(Transaction transaction) {
    if (!isMain() && ref(transaction.table()) == null) {
      Snapshot from = transaction.table().currentSnapshot();
      if (from != null) {
        transaction.manageSnapshots().createBranch(name, from.snapshotId()).commit();
      }
    }
    return transaction;
  }

  private <T extends SnapshotUpdate<T>> T target(T update) {
    return isMain() ? update : update.toBranch(name);
  }

  /**
   * The branch's ref, null while the table has none of that name.
   *
   * @throws CommitBranchException when the name is a tag's
   */
  private SnapshotRef ref(Table table) {
    SnapshotRef ref = table.refs().get(name);
    if (ref != null && !ref.isBranch()) {
      throw CommitBranchException.tag(table.name(), name);
    }
    return ref;
  }

  @Override
  public String toString() {
    return name;
  }
}
