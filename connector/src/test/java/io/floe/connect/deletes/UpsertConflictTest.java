/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteRules.checkDeletes;
import static io.floe.connect.deletes.DeleteTables.append;
import static io.floe.connect.deletes.DeleteTables.exists;
import static io.floe.connect.deletes.DeleteTables.ids;
import static io.floe.connect.deletes.DeleteTables.idsByFile;
import static io.floe.connect.deletes.DeleteTables.keys;
import static io.floe.connect.deletes.DeleteTables.row;
import static io.floe.connect.deletes.DeleteTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Commits that land between locating the keys and committing: the commit fails its validation, the
 * next attempt locates the keys again in the new snapshot and commits the right rows; the files of
 * failed attempts are deleted, except after an unknown commit outcome.
 */
class UpsertConflictTest {
  @RegisterExtension final DeleteTables tables = new DeleteTables();

  private Table table;
  private Table other;
  private List<DataFile> files;
  private List<Long> sameFile;
  private DataFile sharedFile;

  static Stream<Arguments> tables() {
    return Stream.of(2, 3)
        .flatMap(v -> Stream.of("unpartitioned", "region").map(spec -> Arguments.of(v, spec)));
  }

  /** A table of 24 rows; {@code sameFile} holds ids that share {@code sharedFile}. */
  private void create(int version, String spec) {
    table = tables.create(spec, version);
    List<Record> rows = rows(1, 24, "a");
    files = append(table, rows);
    sameFile = idsByFile(table, rows).get(0);
    sharedFile = files.get(0);
    other = tables.load(table);
  }

  /** Retires {@code key}, while {@code concurrent} commits before the first attempt's commit. */
  private UpsertCommit.Outcome retireWhile(long key, Runnable concurrent) {
    return commitWhile(keys(table, key), List.of(), false, concurrent);
  }

  private UpsertCommit.Outcome commitWhile(
      RetiredKeys keys, List<DataFile> added, boolean truncate, Runnable concurrent) {
    AtomicInteger attempts = new AtomicInteger();
    return new UpsertCommit(table, 3)
        .commit(
            keys,
            added,
            List.of(),
            truncate,
            "floe-mine",
            (delta, base, deletes) -> {
              if (attempts.incrementAndGet() == 1) {
                concurrent.run();
              }
            });
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aDeleteCommittedMeanwhileInTheSameFileIsMergedOnTheNextAttempt(int version, String spec) {
    create(version, spec);
    long mine = sameFile.get(0);
    long theirs = sameFile.get(1);

    UpsertCommit.Outcome outcome =
        retireWhile(mine, () -> UpsertCommitTest.commit(other, keys(other, theirs), List.of()));

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(ids(table)).doesNotContain(mine, theirs).hasSize(22);
    List<DeleteFile> deletes = checkDeletes(table);
    assertThat(deletes)
        .filteredOn(
            d -> sharedFile.location().equals(ContentFileUtil.referencedDataFileLocation(d)))
        .singleElement()
        .extracting(DeleteFile::recordCount)
        .isEqualTo(2L);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aDataFileRewrittenMeanwhileIsResolvedAgainInItsNewFile(int version, String spec) {
    create(version, spec);
    long key = sameFile.get(0);
    List<Record> sameRows = sameFile.stream().map(id -> row(id, "a")).toList();
    List<DataFile> rewritten = DeleteTables.write(other, sameRows);

    UpsertCommit.Outcome outcome =
        retireWhile(
            key,
            () -> {
              RewriteFiles rewrite = other.newRewrite().deleteFile(sharedFile);
              rewritten.forEach(rewrite::addFile);
              rewrite.commit();
            });

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(ids(table)).doesNotContain(key).hasSize(23);
    assertThat(outcome.deletes().referencedDataFiles())
        .containsExactly(rewritten.get(0).location());
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aRetiredKeyAppendedMeanwhileIsDeletedToo(int version, String spec) {
    create(version, spec);
    long key = sameFile.get(0);

    UpsertCommit.Outcome outcome = retireWhile(key, () -> append(other, List.of(row(key, "late"))));

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(outcome.resolution().rowsMatched()).isEqualTo(2);
    assertThat(ids(table)).doesNotContain(key).hasSize(23);
    checkDeletes(table);
  }

  /** Truncates the table and adds {@code added}, while {@code concurrent} commits first. */
  private UpsertCommit.Outcome truncateWhile(List<DataFile> added, Runnable concurrent) {
    return commitWhile(keys(table), added, true, concurrent);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aRollbackMeanwhileOfTheSnapshotTheKeysWereLocatedInIsRetriedFromTheNewOne(
      int version, String spec) {
    create(version, spec);
    long key = sameFile.get(0);
    long appended = 100;
    append(table, List.of(row(appended, "rolled back")));

    UpsertCommit.Outcome outcome =
        retireWhile(
            key,
            () -> {
              other.refresh();
              other.manageSnapshots().rollbackTo(other.currentSnapshot().parentId()).commit();
            });

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(ids(table)).doesNotContain(key, appended).hasSize(23);
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aTruncateRemovesRowsAppendedMeanwhileOnItsNextAttempt(int version, String spec) {
    create(version, spec);
    List<DataFile> mine = DeleteTables.write(table, rows(100, 102, "new"));

    UpsertCommit.Outcome outcome =
        truncateWhile(mine, () -> append(other, List.of(row(50, "late"))));

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(ids(table)).containsExactlyInAnyOrder(100L, 101L, 102L);
    assertThat(checkDeletes(table)).isEmpty();
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aTruncateRemovesRowsRewrittenOrDeletedMeanwhileOnItsNextAttempt(int version, String spec) {
    create(version, spec);
    List<DataFile> mine = DeleteTables.write(table, rows(100, 101, "new"));
    List<Record> sameRows = sameFile.stream().map(id -> row(id, "a")).toList();
    List<DataFile> rewritten = DeleteTables.write(other, sameRows);

    UpsertCommit.Outcome outcome =
        truncateWhile(
            mine,
            () -> {
              UpsertCommitTest.commit(other, keys(other, sameFile.get(1)), List.of());
              RewriteFiles rewrite = other.newRewrite().deleteFile(sharedFile);
              rewritten.forEach(rewrite::addFile);
              rewrite.commit();
            });

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(ids(table)).containsExactlyInAnyOrder(100L, 101L);
    assertThat(checkDeletes(table)).isEmpty();
    assertThat(table.currentSnapshot().deleteManifests(table.io()))
        .allSatisfy(
            manifest ->
                assertThat(manifest.hasAddedFiles() || manifest.hasExistingFiles()).isFalse());
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void givesUpAfterTheLastAttemptAndDeletesEveryAttemptsFiles(int version, String spec) {
    create(version, spec);
    long key = sameFile.get(0);
    AtomicInteger late = new AtomicInteger();

    assertThatThrownBy(
            () ->
                new UpsertCommit(table, 2)
                    .commit(
                        keys(table, key),
                        List.of(),
                        "floe-mine",
                        (delta, base, deletes) ->
                            append(other, List.of(row(key, "late" + late.incrementAndGet())))))
        .isInstanceOf(ValidationException.class);

    assertThat(late.get()).isEqualTo(2);
    assertThat(RecordingFileIO.created(table.location(), "floe-mine-deletes-"))
        .isNotEmpty()
        .allSatisfy(location -> assertThat(exists(table, location)).isFalse());
    checkDeletes(table);
  }

  /**
   * Retires a key through operations whose every commit fails with {@code failure}; returns how
   * many commits were tried, once the table is checked unchanged.
   */
  private int commitsFailingWith(Supplier<RuntimeException> failure) {
    FailingCommits ops = new FailingCommits(((HasTableOperations) table).operations(), failure);
    Table failing = new BaseTable(ops, table.name());

    assertThatThrownBy(
            () ->
                new UpsertCommit(failing, 3)
                    .commit(
                        keys(failing, sameFile.get(0)), List.of(), "floe-mine", (d, b, w) -> {}))
        .isSameAs(ops.lastFailure());
    assertThat(ids(table)).hasSize(24);
    return ops.commits();
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void anUnknownCommitOutcomeKeepsTheFilesAndIsNotRetried(int version, String spec) {
    create(version, spec);

    int commits =
        commitsFailingWith(() -> new CommitStateUnknownException(new RuntimeException("reset")));

    assertThat(commits).isEqualTo(1);
    assertThat(RecordingFileIO.created(table.location(), "floe-mine-deletes-"))
        .singleElement()
        .satisfies(location -> assertThat(exists(table, location)).isTrue());
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aCommitLostEveryTimeIsRetriedThenFailsWithoutLeavingFiles(int version, String spec) {
    create(version, spec);
    table.updateProperties().set(TableProperties.COMMIT_NUM_RETRIES, "0").commit();

    int commits = commitsFailingWith(() -> new CommitFailedException("another writer won"));

    assertThat(commits).isEqualTo(3);
    assertThat(RecordingFileIO.created(table.location(), "floe-mine-deletes-"))
        .hasSize(3)
        .allSatisfy(location -> assertThat(exists(table, location)).isFalse());
  }
}
