/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.TestContracts;
import io.floe.connect.deletes.WrittenDeletes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CommitProfileTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final Contract CONTRACT =
      Contract.parse(TestContracts.orders("id integer required", "name string"));
  private static final WrittenDeletes THREE_DELETED =
      new WrittenDeletes(List.of(), List.of(), Set.of(), 3);

  private Table table;

  @BeforeEach
  void createTable() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "orders"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"));
  }

  private DataFile file(long rows, ByteBuffer lowerId, ByteBuffer upperId) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + rows + "-" + lowerId.remaining() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withMetrics(
            new Metrics(
                rows,
                null,
                null,
                Map.of(1, 0L, 2, 1L),
                null,
                Map.of(1, lowerId),
                Map.of(1, upperId)))
        .build();
  }

  private static ByteBuffer id(long value) {
    return Conversions.toByteBuffer(Types.LongType.get(), value);
  }

  @Test
  void anUpsertProfileCountsTheImagesTheSupersededAndTheRetiredRows() {
    RowDelta delta = table.newRowDelta();
    assertThat(
            CommitProfile.setUpsert(
                delta,
                table,
                CONTRACT,
                List.of(file(4, id(3), id(9)), file(2, id(1), id(4))),
                1,
                THREE_DELETED,
                false))
        .map(CommitProfile.Profile::rows)
        .contains(6L);
    assertThat(delta.apply().summary())
        .containsEntry(CommitProfile.ROWS, "6")
        .containsEntry(CommitProfile.SUPERSEDED, "1")
        .containsEntry(CommitProfile.DELETED, "2")
        .containsEntry(
            CommitProfile.COLUMNS,
            "{\"id\":{\"nulls\":0,\"null-fraction\":0.0,\"min\":\"1\",\"max\":\"9\"},"
                + "\"name\":{\"nulls\":2,\"null-fraction\":0.3333333333333333}}");

    RowDelta truncating = table.newRowDelta();
    CommitProfile.setUpsert(
        truncating, table, CONTRACT, List.of(file(4, id(3), id(9))), 0, THREE_DELETED, true);
    assertThat(truncating.apply().summary())
        .containsEntry(CommitProfile.ROWS, "4")
        .doesNotContainKey(CommitProfile.DELETED);
  }

  @Test
  void aProfileThatCannotBeMadeIsToldAndTheCommitGoesOnWithoutIt() {
    // a lower bound of one byte for a long column: its metrics cannot be read
    DataFile broken = file(4, ByteBuffer.wrap(new byte[] {7}), id(9));
    RowDelta delta = table.newRowDelta().addRows(broken);
    try (LogCapture logs = LogCapture.of(CommitProfile.class)) {
      assertThat(
              CommitProfile.setUpsert(
                  delta, table, CONTRACT, List.of(broken), 0, THREE_DELETED, false))
          .isEmpty();
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .startsWith(
              "WARN Table test.db.orders: the upsert commit carries no profile, as it could not"
                  + " be made");
    }
    delta.commit();
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("added-records", "4")
        .doesNotContainKeys(
            CommitProfile.ROWS,
            CommitProfile.COLUMNS,
            CommitProfile.SUPERSEDED,
            CommitProfile.DELETED);
  }
}
