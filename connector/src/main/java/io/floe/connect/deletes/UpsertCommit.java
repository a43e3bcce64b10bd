/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import io.floe.connect.branch.CommitBranch;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a cycle's changes to one table as one {@link RowDelta}: locate the retired keys in the
 * head of the branch it commits to ({@link CommitBranch#head}: the table's current snapshot for
 * main) ({@link KeyLocator}), write their deletes ({@link DeleteWriter}), add them and the new data
 * files ({@link UpsertDelta}) and commit. When the commit fails its validation (a commit that
 * landed meanwhile touched the same data files, deletes or keys) or loses the race for the table
 * ({@code CommitFailedException}, once Iceberg's own retries are spent), the table is refreshed and
 * everything is done again from the new snapshot, up to a bound.
 *
 * <p>The delete files of an attempt are deleted only when its commit certainly did not land: it
 * failed with a {@link CleanableFailure} ({@code CommitFailedException}, {@code
 * ValidationException}, ...), the failures after which Iceberg cleans up its own files too, or
 * Iceberg refused its validation from a snapshot that was rolled back, which it does before sending
 * anything to the catalog. After any other failure nothing is deleted: a {@code
 * CommitStateUnknownException}, a REST call whose answer was lost (a socket timeout or reset is a
 * plain {@code RESTException}), a JDBC connection that dropped mid-commit may all have landed, so
 * the files may be in the table, and at worst they are orphans. The exception goes to the caller,
 * who must read the table to learn the outcome. The data files are the caller's and are never
 * deleted here.
 */
public final class UpsertCommit {
  private static final Logger LOG = LoggerFactory.getLogger(UpsertCommit.class);

  private final Table table;
  private final CommitBranch branch;
  private final int maxAttempts;
  private final KeyLocator locator;
  private final TableKeyIndex index;
  private final ExecutorService manifestReaders;

  /**
   * Commits to main, reading files on Iceberg's shared worker pool.
   *
   * @param table the table as the caller loaded it: the first attempt starts from its current
   *     snapshot, every later one refreshes it
   * @param maxAttempts how many times to locate, write and commit before giving up, at least 1
   */
  public UpsertCommit(Table table, int maxAttempts) {
    this(
        table,
        CommitBranch.MAIN,
        maxAttempts,
        new KeyLocator(table),
        TableKeyIndex.off(table.name()),
        null);
  }

  /**
   * Commits to main, reading files on Iceberg's shared worker pool, locating keys with the table's
   * key index when it has one that serves.
   *
   * @param index the table's key index, kept by the caller across commits
   */
  public UpsertCommit(Table table, int maxAttempts, TableKeyIndex index) {
    this(table, CommitBranch.MAIN, maxAttempts, new KeyLocator(table), index, null);
  }

  /**
   * Commits to main, reading files on {@code readers} (see {@link KeyLocator#KeyLocator(Table,
   * ExecutorService)}).
   */
  public UpsertCommit(Table table, int maxAttempts, ExecutorService readers) {
    this(table, CommitBranch.MAIN, maxAttempts, TableKeyIndex.off(table.name()), readers);
  }

  /**
   * Commits to {@code branch} with the table's key index, planning and reading files on {@code
   * readers} (see {@link KeyLocator#KeyLocator(Table, ExecutorService)}) and reading manifests
   * there to validate the commit.
   *
   * @param branch the branch the commit goes to, whose head the keys are located in and the commit
   *     is validated from
   * @param readers the threads to plan, read and validate on, null for Iceberg's shared worker pool
   */
  public UpsertCommit(
      Table table,
      CommitBranch branch,
      int maxAttempts,
      TableKeyIndex index,
      ExecutorService readers) {
    this(
        table,
        branch,
        maxAttempts,
        readers == null ? new KeyLocator(table) : new KeyLocator(table, readers),
        index,
        readers);
  }

  private UpsertCommit(
      Table table,
      CommitBranch branch,
      int maxAttempts,
      KeyLocator locator,
      TableKeyIndex index,
      ExecutorService manifestReaders) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
    }
    this.table = table;
    this.branch = branch;
    this.maxAttempts = maxAttempts;
    this.locator = locator;
    this.index = index;
    this.manifestReaders = manifestReaders;
  }

  /** What the caller adds to each attempt's commit. */
  public interface BeforeCommit {
    /**
     * Called once per attempt, just before the commit.
     *
     * @param delta the filled row delta: set summary properties or validators on it
     * @param base the snapshot this attempt located the keys in, null if the table had none; a
     *     caller that decided anything from an earlier read of the table decides it again here
     * @param deletes the delete files the attempt wrote, and the rows they delete
     */
    void prepare(RowDelta delta, Snapshot base, WrittenDeletes deletes);

    /**
     * Called once per attempt, after the row delta is applied to the attempt's transaction and
     * before the transaction is committed: changes to the table's metadata that must land with the
     * new snapshot, or not at all.
     *
     * @param transaction the attempt's transaction, where the head of the branch committed to is
     *     the new snapshot
     */
    default void applied(Transaction transaction) {}
  }

  /**
   * The committed attempt.
   *
   * @param attempts the attempts made, the committed one included
   * @param resolution the committed attempt's resolution of the keys
   * @param deletes the delete files it committed, and those it removed
   */
  public record Outcome(int attempts, ResolutionStats resolution, WrittenDeletes deletes) {}

  /**
   * Retires {@code keys} and adds {@code dataFiles} in one commit.
   *
   * @param keys the keys whose stored rows go: every key deleted or upserted in the cycle
   * @param dataFiles the cycle's new data files: the images of upserted keys (those a later change
   *     superseded are among {@code superseded})
   * @param namePrefix the start of the delete files' operation id, such as {@code floe-<commit-id>}
   * @param beforeCommit adds the caller's summary properties and validators to each attempt
   * @throws ValidationException when the last attempt's commit failed its validation
   * @throws CommitFailedException when the last attempt's commit lost the race for the table
   * @throws CommitStateUnknownException when a commit's outcome is unknown (its files are kept)
   * @throws RuntimeException any other failure of a commit, its files kept unless it is a {@link
   *     CleanableFailure}
   */
  public Outcome commit(
      RetiredKeys keys, List<DataFile> dataFiles, String namePrefix, BeforeCommit beforeCommit) {
    return commit(keys, dataFiles, List.of(), namePrefix, beforeCommit);
  }

  /**
   * {@link #commit(RetiredKeys, List, String, BeforeCommit)}, also deleting rows of {@code
   * dataFiles} themselves that a later part of the commit replaces ({@link SupersededRows}).
   *
   * @param superseded rows of {@code dataFiles} to delete in the same commit
   */
  public Outcome commit(
      RetiredKeys keys,
      List<DataFile> dataFiles,
      List<LocatedRows.FileRows> superseded,
      String namePrefix,
      BeforeCommit beforeCommit) {
    return commit(keys, dataFiles, superseded, false, namePrefix, beforeCommit);
  }

  /**
   * {@link #commit(RetiredKeys, List, List, String, BeforeCommit)}, or, when {@code truncate}, a
   * commit that first empties the table: every live data and delete file of the snapshot it starts
   * from is removed (no key is located then: no stored row is left to retire), and a commit landed
   * meanwhile that added or removed anything makes it start again from the new snapshot.
   *
   * @param truncate whether the cycle truncated the table
   */
  public Outcome commit(
      RetiredKeys keys,
      List<DataFile> dataFiles,
      List<LocatedRows.FileRows> superseded,
      boolean truncate,
      String namePrefix,
      BeforeCommit beforeCommit) {
    for (int attempt = 1; ; attempt++) {
      if (attempt > 1) {
        table.refresh();
      }
      StagedUpsert staged = locateAndWrite(keys, dataFiles, superseded, truncate, namePrefix);
      Long baseId = staged.baseSnapshotId();
      try {
        staged.apply(beforeCommit, manifestReaders);
        staged.transaction().commitTransaction();
      } catch (ValidationException | CommitFailedException e) {
        staged.discard();
        if (attempt >= maxAttempts) {
          throw e;
        }
        LOG.warn(
            "Table {}: the commit from snapshot {} failed ({}); locating the {} keys again"
                + " (attempt {} of {})",
            table.name(),
            baseId,
            e.getMessage(),
            keys.size(),
            attempt + 1,
            maxAttempts);
        continue;
      } catch (IllegalArgumentException e) {
        // Iceberg refuses a validation from a snapshot that is no longer an ancestor of the
        // table's current one (another writer rolled the table back meanwhile) while it applies
        // the changes, before it sends anything; any other cause may have come after the commit
        if (!rolledBack(baseId)) {
          staged.keep(e);
          throw e;
        }
        staged.discard();
        if (attempt >= maxAttempts) {
          throw e;
        }
        LOG.warn(
            "Table {}: snapshot {}, where the {} keys were located, was rolled back meanwhile;"
                + " locating them again (attempt {} of {})",
            table.name(),
            baseId,
            keys.size(),
            attempt + 1,
            maxAttempts);
        continue;
      } catch (RuntimeException e) {
        if (e instanceof CleanableFailure) {
          staged.discard();
        } else {
          staged.keep(e);
        }
        throw e;
      }
      return staged.landed(attempt);
    }
  }

  /**
   * One attempt of {@link #commit(RetiredKeys, List, List, boolean, String, BeforeCommit)} from the
   * branch's head as the caller loaded or refreshed the table, short of committing: the keys
   * located, their deletes written, the row delta filled and applied to a new transaction of the
   * table, whose commit is the caller's. Nothing is sent to the catalog: when staging fails, its
   * delete files are deleted and the exception goes to the caller. After the commit the caller says
   * how it went ({@link StagedUpsert#landed}, {@link StagedUpsert#discard} or {@link
   * StagedUpsert#keep}); when it failed, a new attempt is staged from the refreshed table.
   */
  public StagedUpsert stage(
      RetiredKeys keys,
      List<DataFile> dataFiles,
      List<LocatedRows.FileRows> superseded,
      boolean truncate,
      String namePrefix,
      BeforeCommit beforeCommit) {
    StagedUpsert staged = locateAndWrite(keys, dataFiles, superseded, truncate, namePrefix);
    try {
      staged.apply(beforeCommit, manifestReaders);
    } catch (RuntimeException e) {
      staged.discard();
      throw e;
    }
    return staged;
  }

  /** Locates the keys in the head of the branch and writes their deletes. */
  private StagedUpsert locateAndWrite(
      RetiredKeys keys,
      List<DataFile> dataFiles,
      List<LocatedRows.FileRows> superseded,
      boolean truncate,
      String namePrefix) {
    Snapshot base = branch.head(table);
    Long baseId = base == null ? null : base.snapshotId();
    KeyIndex.Lookup lookup = truncate ? null : index.lookup(table, base, keys);
    TableContents removed = truncate ? TableContents.of(table, base) : TableContents.EMPTY;
    LocatedRows located =
        truncate
            ? new LocatedRows(baseId, List.of(), ResolutionStats.none(removed.dataFiles().size()))
            : locator.locate(base, keys, lookup);
    LocatedRows rows = located.plus(superseded);
    WrittenDeletes deletes = new DeleteWriter(table).write(rows, namePrefix);
    return new StagedUpsert(
        table, branch, index, base, keys, dataFiles, truncate, removed, lookup, rows, deletes);
  }

  /** Whether {@code baseId} is no longer in the history of the branch's head. */
  private boolean rolledBack(Long baseId) {
    if (baseId == null) {
      return false;
    }
    table.refresh();
    Snapshot current = branch.head(table);
    return current == null || !SnapshotUtil.isAncestorOf(table, current.snapshotId(), baseId);
  }
}
