/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.branch.CommitBranch;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.TestContracts;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.deletes.WrittenDeletes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract's id, version, hash and rules in every commit, a change of it told once, and the
 * profile of what a commit adds.
 */
class ContractMarksTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final ControlTopic TOPIC =
      new ControlTopic(
          "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));
  private static final String V1 =
      """
      id: orders
      version: 1.0.0
      schema:
        - name: orders
          properties:
            - name: id
              logicalType: integer
              required: true
              logicalTypeOptions: {minimum: 1}
      """;

  private static final Contract SCORES =
      Contract.parse(TestContracts.orders("score number", "day date"));
  private static final WrittenDeletes SEVEN_DELETED =
      new WrittenDeletes(List.of(), List.of(), java.util.Set.of(), 7);

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

  /** A coordinator's committer enforcing {@code contract}. */
  private TableCommitter committer(Contract contract) {
    return new TableCommitter(
        catalog,
        "connect-orders",
        "orders",
        TOPIC,
        KeyIndexSettings.off(),
        t -> CommitBranch.MAIN,
        t -> Optional.ofNullable(contract),
        ThreadPools.getWorkerPool());
  }

  private void commit(TableCommitter committer, long controlOffset) {
    UUID id = UUID.randomUUID();
    commit(
        committer,
        id,
        new PendingEvent(
            0, controlOffset, TestManifests.manifest(table, "db.orders", id, 10).event()));
  }

  /** Commits one event in a cycle of its own, and reads the table again. */
  private void commit(TableCommitter committer, UUID id, PendingEvent event) {
    long controlOffset = event.controlOffset();
    TableCommitter.Outcome outcome =
        committer.commit(
            new TableCommitter.Cycle(
                id,
                TableCommitter.byTable(List.of(event)),
                Map.of(0, controlOffset + 1),
                Map.of(),
                OptionalLong.empty(),
                false));
    assertThat(outcome.failures()).isEmpty();
    table.refresh();
  }

  /** Table db.scores, of the columns of the profile test, as {@link #table}. */
  private void createScores() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "score", Types.DoubleType.get()),
            Types.NestedField.optional(3, "email", Types.StringType.get()),
            Types.NestedField.optional(4, "day", Types.DateType.get()));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "scores"), schema, PartitionSpec.unpartitioned());
  }

  @Test
  void aCommitOfATableWithAContractCarriesTheProfileOfItsFilesMetrics() throws Exception {
    createScores();
    Contract contract =
        Contract.parse(
            """
            id: scores
            version: 1
            schema:
              - name: scores
                properties:
                  - {name: id, logicalType: integer, required: true}
                  - {name: score, logicalType: number}
                  - {name: email, logicalType: string}
                  - {name: day, logicalType: date}
                  - {name: absent, logicalType: string}
            """);
    String location = table.location() + "/metadata/" + UUID.randomUUID() + "-m.avro";
    org.apache.iceberg.ManifestWriter<org.apache.iceberg.DataFile> writer =
        org.apache.iceberg.ManifestFiles.write(
            2, table.spec(), table.io().newOutputFile(location), null);
    try (writer) {
      writer.add(file(10, 0L, 1L, 2L, 5L, -1.5, 2.0, 100, 120));
      writer.add(file(30, 0L, 3L, 0L, 1L, 0.5, 9.25, 90, 110));
    }
    UUID id = UUID.randomUUID();
    TableCommitter committer = committer(contract);
    commit(
        committer,
        id,
        new PendingEvent(
            0,
            1,
            io.floe.connect.control.DataWritten.of(
                id, "db.scores", table.uuid(), writer.toManifestFile(), 200)));
    table.refresh();
    Map<String, String> summary = table.currentSnapshot().summary();
    assertThat(summary).containsEntry("floe.profile.rows", "40");
    CommitProfile.Profile forMetrics = committer.takeProfile("db.scores").orElseThrow();
    assertThat(forMetrics.rows()).isEqualTo(40);
    assertThat(forMetrics.columns())
        .containsExactly(
            new io.floe.connect.metrics.ColumnCounts("id", 0, -1),
            new io.floe.connect.metrics.ColumnCounts("score", 4, 2),
            new io.floe.connect.metrics.ColumnCounts("email", 6, -1),
            new io.floe.connect.metrics.ColumnCounts("day", 0, -1));
    assertThat(committer.takeProfile("db.scores")).isEmpty();
    assertThat(
            org.apache.iceberg.util.JsonUtil.mapper().readTree(summary.get("floe.profile.columns")))
        .isEqualTo(
            org.apache.iceberg.util.JsonUtil.mapper()
                .readTree(
                    "{\"id\":{\"nulls\":0,\"null-fraction\":0.0},"
                        + "\"score\":{\"nulls\":4,\"null-fraction\":0.1,\"nans\":2,"
                        + "\"min\":\"-1.5\",\"max\":\"9.25\"},"
                        + "\"email\":{\"nulls\":6,\"null-fraction\":0.15},"
                        + "\"day\":{\"nulls\":0,\"null-fraction\":0.0,"
                        + "\"min\":\"1970-04-01\",\"max\":\"1970-05-01\"}}"));
  }

  @Test
  void anUpsertProfileCountsTheImagesTheSupersededAndTheRetiredRows() {
    createScores();
    RowDelta delta = table.newRowDelta();
    List<org.apache.iceberg.DataFile> images =
        List.of(
            file(10, 0L, 1L, 2L, 5L, -1.5, 2.0, 100, 120),
            file(30, 0L, 3L, 0L, 1L, 0.5, 9.25, 90, 110));
    assertThat(CommitProfile.setUpsert(delta, table, SCORES, images, 4, SEVEN_DELETED, false))
        .map(CommitProfile.Profile::rows)
        .contains(40L);
    assertThat(delta.apply().summary())
        .containsEntry(CommitProfile.ROWS, "40")
        .containsEntry(CommitProfile.SUPERSEDED, "4")
        .containsEntry(CommitProfile.DELETED, "3")
        .containsEntry(
            CommitProfile.COLUMNS,
            "{\"score\":{\"nulls\":4,\"null-fraction\":0.1,\"nans\":2,\"min\":\"-1.5\","
                + "\"max\":\"9.25\"},\"day\":{\"nulls\":0,\"null-fraction\":0.0,"
                + "\"min\":\"1970-04-01\",\"max\":\"1970-05-01\"}}");

    RowDelta truncating = table.newRowDelta();
    CommitProfile.setUpsert(truncating, table, SCORES, images, 0, SEVEN_DELETED, true);
    assertThat(truncating.apply().summary())
        .containsEntry(CommitProfile.ROWS, "40")
        .doesNotContainKey(CommitProfile.DELETED);
  }

  @Test
  void anUpsertProfileThatCannotBeMadeIsToldAndTheCommitGoesOnWithoutIt() {
    createScores();
    // a bound of one byte for a date column: the file's metrics cannot be read
    java.nio.ByteBuffer oneByte = java.nio.ByteBuffer.wrap(new byte[] {7});
    org.apache.iceberg.DataFile broken =
        org.apache.iceberg.DataFiles.builder(table.spec())
            .copy(file(10, 0L, 1L, 2L, 5L, -1.5, 2.0, 100, 120))
            .withMetrics(
                new org.apache.iceberg.Metrics(
                    10L, null, null, Map.of(4, 0L), null, Map.of(4, oneByte), Map.of(4, oneByte)))
            .build();
    RowDelta delta = table.newRowDelta().addRows(broken);
    try (LogCapture logs = LogCapture.of(CommitProfile.class)) {
      assertThat(
              CommitProfile.setUpsert(
                  delta, table, SCORES, List.of(broken), 0, SEVEN_DELETED, false))
          .isEmpty();
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .startsWith(
              "WARN Table test.db.scores: the upsert commit carries no profile, as it could not"
                  + " be made");
    }
    delta.commit();
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("added-records", "10")
        .doesNotContainKeys(
            CommitProfile.ROWS,
            CommitProfile.COLUMNS,
            CommitProfile.SUPERSEDED,
            CommitProfile.DELETED);
  }

  /** A data file of {@code rows} rows with the column metrics of the profile test. */
  private org.apache.iceberg.DataFile file(
      long rows,
      long idNulls,
      long scoreNulls,
      long scoreNans,
      long emailNulls,
      double scoreMin,
      double scoreMax,
      int dayMin,
      int dayMax) {
    org.apache.iceberg.types.Type.PrimitiveType dbl = Types.DoubleType.get();
    org.apache.iceberg.types.Type.PrimitiveType date = Types.DateType.get();
    return org.apache.iceberg.DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
        .withFormat(org.apache.iceberg.FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withMetrics(
            new org.apache.iceberg.Metrics(
                rows,
                null,
                null,
                Map.of(1, idNulls, 2, scoreNulls, 3, emailNulls, 4, 0L),
                Map.of(2, scoreNans),
                Map.of(
                    2,
                    org.apache.iceberg.types.Conversions.toByteBuffer(dbl, scoreMin),
                    3,
                    java.nio.ByteBuffer.wrap(
                        "a@x".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    4,
                    org.apache.iceberg.types.Conversions.toByteBuffer(date, dayMin)),
                Map.of(
                    2,
                    org.apache.iceberg.types.Conversions.toByteBuffer(dbl, scoreMax),
                    4,
                    org.apache.iceberg.types.Conversions.toByteBuffer(date, dayMax))))
        .build();
  }

  @Test
  void everyCommitCarriesTheContractAndAChangeIsToldOnceWithItsRules() {
    Contract v1 = Contract.parse(V1);
    try (LogCapture logs = LogCapture.of(ContractMarks.class)) {
      TableCommitter first = committer(v1);
      commit(first, 1);
      commit(first, 2);
      assertThat(table.currentSnapshot().summary())
          .containsEntry("floe.contract.id", "orders")
          .containsEntry("floe.contract.version", "1.0.0")
          .containsEntry("floe.contract.sha256", v1.sha256())
          .containsEntry(
              "floe.contract.rules",
              "[\"id logicalType integer\",\"id required\",\"id minimum 1\"]");
      assertThat(logs.lines())
          .singleElement()
          .asString()
          .contains("contract 'orders' version 1.0.0 (sha256 " + v1.sha256() + ") is enforced");

      Contract v2 =
          Contract.parse(V1.replace("1.0.0", "1.1.0").replace("minimum: 1", "maximum: 9"));
      TableCommitter restarted = committer(v2);
      commit(restarted, 3);
      commit(restarted, 4);
      assertThat(table.currentSnapshot().summary())
          .containsEntry("floe.contract.version", "1.1.0")
          .containsEntry("floe.contract.sha256", v2.sha256());
      assertThat(logs.lines()).hasSize(2);
      assertThat(logs.lines().get(1))
          .contains(
              "the contract changed from 'orders' version 1.0.0 (sha256 "
                  + v1.sha256()
                  + ") to 'orders' version 1.1.0 (sha256 "
                  + v2.sha256()
                  + "): rules added [id maximum 9], rules removed [id minimum 1]");

      commit(committer(null), 5);
      assertThat(table.currentSnapshot().summary()).doesNotContainKey("floe.contract.sha256");
      assertThat(logs.lines()).hasSize(3);
      assertThat(logs.lines().get(2)).contains("is no longer enforced");
    }
  }
}
