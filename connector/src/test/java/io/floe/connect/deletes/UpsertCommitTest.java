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
import static io.floe.connect.deletes.DeleteTables.read;
import static io.floe.connect.deletes.DeleteTables.row;
import static io.floe.connect.deletes.DeleteTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Retiring keys and adding rows in one commit, on v2 (position deletes) and v3 (deletion vectors)
 * tables, unpartitioned and partitioned by identity, bucket and day: the table then holds exactly
 * the expected rows, and its deletes keep the rules of {@link DeleteTables#checkDeletes}.
 */
class UpsertCommitTest {
  @RegisterExtension final DeleteTables tables = new DeleteTables();

  static Stream<Arguments> tables() {
    return Stream.of(2, 3)
        .flatMap(version -> DeleteTables.SPECS.stream().map(spec -> Arguments.of(version, spec)));
  }

  static UpsertCommit.Outcome commit(Table table, RetiredKeys keys, List<DataFile> dataFiles) {
    return new UpsertCommit(table, 3)
        .commit(
            keys,
            dataFiles,
            "floe-test",
            (delta, base, deletes) -> delta.set("floe.commit-id", "c"));
  }

  private static List<Long> idsWithout(long from, long to, long... removed) {
    return LongStream.rangeClosed(from, to)
        .filter(id -> LongStream.of(removed).noneMatch(r -> r == id))
        .boxed()
        .toList();
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void retiredKeysLeaveTheTableAndTheOtherRowsStay(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 10, "a"));
    append(table, rows(11, 20, "b"));

    UpsertCommit.Outcome outcome = commit(table, keys(table, 3, 7, 15, 99), List.of());

    assertThat(ids(table)).isEqualTo(idsWithout(1, 20, 3, 7, 15));
    assertThat(outcome.attempts()).isEqualTo(1);
    assertThat(outcome.resolution().keysMatched()).isEqualTo(3);
    assertThat(outcome.resolution().rowsMatched()).isEqualTo(3);
    assertThat(outcome.deletes().rowsDeleted()).isEqualTo(3);
    List<DeleteFile> deletes = checkDeletes(table);
    assertThat(deletes).hasSize(outcome.deletes().referencedDataFiles().size());
    assertThat(deletes.stream().mapToLong(DeleteFile::recordCount).sum()).isEqualTo(3);
    assertThat(table.currentSnapshot().summary()).containsEntry("floe.commit-id", "c");
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aSecondRetireInTheSameFileReplacesItsDeletes(int version, String spec) {
    Table table = tables.create(spec, version);
    List<Record> rows = rows(1, 24, "a");
    List<DataFile> files = append(table, rows);
    List<List<Long>> idsByFile = idsByFile(table, rows);
    int index = 0;
    while (idsByFile.get(index).size() < 3) {
      index++;
    }
    List<Long> ids = idsByFile.get(index);
    String file = files.get(index).location();

    UpsertCommit.Outcome first = commit(table, keys(table, ids.get(0)), List.of());
    UpsertCommit.Outcome second = commit(table, keys(table, ids.get(1)), List.of());
    UpsertCommit.Outcome third = commit(table, keys(table, ids.get(2)), List.of());

    assertThat(ids(table)).isEqualTo(idsWithout(1, 24, ids.get(0), ids.get(1), ids.get(2)));
    assertThat(second.deletes().rewritten())
        .extracting(DeleteFile::location)
        .containsExactlyElementsOf(first.deletes().fileLocations());
    assertThat(third.deletes().rewritten())
        .extracting(DeleteFile::location)
        .containsExactlyElementsOf(second.deletes().fileLocations());
    List<DeleteFile> deletes = checkDeletes(table);
    assertThat(deletes)
        .singleElement()
        .satisfies(
            delete -> {
              assertThat(ContentFileUtil.referencedDataFileLocation(delete)).isEqualTo(file);
              assertThat(delete.recordCount()).isEqualTo(3);
            });
    Map<String, String> summary = table.currentSnapshot().summary();
    assertThat(summary).containsEntry(SnapshotSummary.REMOVED_DELETE_FILES_PROP, "1");
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void keysNotInTheTableWriteNoDeleteFile(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 10, "a"));

    UpsertCommit.Outcome outcome = commit(table, keys(table, 11, 12), List.of());

    assertThat(outcome.deletes().isEmpty()).isTrue();
    assertThat(outcome.resolution().keysMatched()).isZero();
    assertThat(checkDeletes(table)).isEmpty();
    assertThat(ids(table)).isEqualTo(idsWithout(1, 10));
    assertThat(table.currentSnapshot().summary()).containsEntry("floe.commit-id", "c");
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void upsertedKeysHaveOneRowEachWithTheirNewImage(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 10, "old"));
    Snapshot before = table.currentSnapshot();
    List<DataFile> images =
        DeleteTables.write(table, List.of(row(2, "new"), row(5, "new"), row(11, "new")));

    commit(table, keys(table, 2, 5, 11), images);

    List<Record> rows = read(table);
    assertThat(ids(table)).isEqualTo(idsWithout(1, 11));
    assertThat(rows)
        .filteredOn(row -> "new".equals(row.getField("name")))
        .extracting(row -> (Long) row.getField("id"))
        .containsExactlyInAnyOrder(2L, 5L, 11L);
    Snapshot after = table.currentSnapshot();
    assertThat(after.parentId()).isEqualTo(before.snapshotId());
    assertThat(after.summary())
        .containsEntry(SnapshotSummary.ADDED_FILES_PROP, Integer.toString(images.size()))
        .containsEntry(SnapshotSummary.ADDED_POS_DELETES_PROP, "2");
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aKeyHeldBySeveralRowsLosesThemAll(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 6, "a"));
    append(table, rows(4, 8, "b"));

    UpsertCommit.Outcome outcome = commit(table, keys(table, 5), List.of());

    assertThat(ids(table)).containsExactly(1L, 2L, 3L, 4L, 4L, 6L, 6L, 7L, 8L);
    assertThat(outcome.resolution().keysMatched()).isEqualTo(1);
    assertThat(outcome.resolution().rowsMatched()).isEqualTo(2);
    assertThat(checkDeletes(table)).hasSize(2);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void rowsDeletedBeforeAreNotFoundAgain(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 6, "a"));
    commit(table, keys(table, 2), List.of());

    LocatedRows again = new KeyLocator(table).locate(table.currentSnapshot(), keys(table, 2));
    UpsertCommit.Outcome outcome = commit(table, keys(table, 2, 3), List.of());

    assertThat(again.isEmpty()).isTrue();
    assertThat(again.stats().rowsMatched()).isZero();
    assertThat(outcome.resolution().keysMatched()).isEqualTo(1);
    assertThat(outcome.deletes().rowsDeleted()).isEqualTo(1);
    assertThat(ids(table)).containsExactly(1L, 4L, 5L, 6L);
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void anEmptyTableTakesTheNewRows(int version, String spec) {
    Table table = tables.create(spec, version);
    List<DataFile> images = DeleteTables.write(table, rows(1, 3, "new"));

    UpsertCommit.Outcome outcome = commit(table, keys(table, 1, 2, 3), images);

    assertThat(outcome.resolution().filesPlanned()).isZero();
    assertThat(outcome.deletes().isEmpty()).isTrue();
    assertThat(ids(table)).containsExactly(1L, 2L, 3L);
    assertThat(checkDeletes(table)).isEmpty();
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("tables")
  void aCommitThatLandedButWhoseAnswerWasLostKeepsItsDeleteFiles(int version, String spec) {
    Table table = tables.create(spec, version);
    append(table, rows(1, 10, "old"));
    List<DataFile> images = DeleteTables.write(table, List.of(row(2, "new"), row(5, "new")));
    // a REST catalog whose response was lost on the way back: not a CleanableFailure
    FailingCommits ops =
        FailingCommits.landing(
            ((HasTableOperations) table).operations(),
            () ->
                new RESTException(
                    new SocketTimeoutException("Read timed out"),
                    "Error occurred while processing %s request",
                    "POST"));
    Table lost = new BaseTable(ops, table.name());

    assertThatThrownBy(() -> commit(lost, keys(lost, 2, 5, 7), images))
        .isSameAs(ops.lastFailure())
        .isNotInstanceOf(CleanableFailure.class);

    assertThat(ops.commits()).isEqualTo(1);
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("floe.commit-id", "c");
    assertThat(DeleteRules.liveDeletes(table))
        .isNotEmpty()
        .allSatisfy(
            delete ->
                assertThat(exists(table, delete.location()))
                    .as("committed delete file %s exists", delete.location())
                    .isTrue());
    assertThat(ids(table)).isEqualTo(idsWithout(1, 10, 7));
    assertThat(read(table))
        .filteredOn(row -> "new".equals(row.getField("name")))
        .extracting(row -> (Long) row.getField("id"))
        .containsExactlyInAnyOrder(2L, 5L);
    checkDeletes(table);
  }

  @ParameterizedTest(name = "v{0}")
  @MethodSource("versions")
  void deletesKeepTheirDataFilesSpecAfterTheSpecChanged(int version) {
    Table table = tables.create("region", version);
    append(table, rows(1, 6, "a"));
    table.updateSpec().removeField("region").addField(Expressions.bucket("id", 4)).commit();
    append(table, rows(7, 12, "b"));
    int oldSpec = table.specs().keySet().stream().mapToInt(Integer::intValue).min().orElseThrow();

    commit(table, keys(table, 1, 8), List.of());

    assertThat(ids(table)).isEqualTo(idsWithout(1, 12, 1, 8));
    List<Integer> specs = new ArrayList<>();
    checkDeletes(table).forEach(delete -> specs.add(delete.specId()));
    assertThat(specs).containsExactlyInAnyOrder(oldSpec, table.spec().specId());
  }

  @ParameterizedTest(name = "v{0}")
  @MethodSource("versions")
  void retiresInAFileWhoseEarlierDeletesOutlivedTheirSnapshots(int version) {
    Table table = tables.create("unpartitioned", version);
    append(table, rows(1, 10, "a"));
    commit(table, keys(table, 1), List.of());
    commit(table, keys(table, 2), List.of());
    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();

    UpsertCommit.Outcome outcome = commit(table, keys(table, 3), List.of());

    assertThat(outcome.attempts()).isEqualTo(1);
    assertThat(ids(table)).isEqualTo(idsWithout(1, 10, 1, 2, 3));
    assertThat(checkDeletes(table))
        .singleElement()
        .extracting(DeleteFile::recordCount)
        .isEqualTo(3L);
  }

  static Stream<Integer> versions() {
    return Stream.of(2, 3);
  }
}
