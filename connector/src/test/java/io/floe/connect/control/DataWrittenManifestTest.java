/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A DataWritten carries all a coordinator needs to commit the worker's manifest as it is. */
class DataWrittenManifestTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();

  private final EventCodec codec = new EventCodec();
  private Table table;

  @BeforeEach
  void createTable() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, SPEC);
  }

  @Test
  void theCoordinatorCommitsTheManifestFromTheDecodedEvent() throws IOException {
    ManifestFile written = writeManifest(null, dataFile("eu", 10), dataFile("us", 20));
    DataWritten sent = DataWritten.of(UUID.randomUUID(), "db.events", table.uuid(), written, 300L);

    DataWritten received = (DataWritten) codec.decode(codec.encode("c", "c-0", 1L, sent)).event();
    table.newFastAppend().appendManifest(new EventManifest(received)).commit();

    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary())
        .containsEntry("added-data-files", "2")
        .containsEntry("added-records", "30");
    ManifestFile committed = snapshot.dataManifests(table.io()).get(0);
    assertThat(committed.path()).isEqualTo(written.path());
    assertThat(committed.partitions()).hasSize(1);
    assertThat(committed.partitions().get(0).lowerBound())
        .isEqualTo(written.partitions().get(0).lowerBound());
    assertThat(committed.partitions().get(0).upperBound())
        .isEqualTo(written.partitions().get(0).upperBound());
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      assertThat(tasks).extracting(task -> task.file().location()).hasSize(2);
    }
    assertThat(received.tableUuid()).isEqualTo(table.uuid());
  }

  @Test
  void aManifestWithASnapshotIdCannotBeSent() throws IOException {
    ManifestFile written = writeManifest(7L, dataFile("eu", 10));

    assertThatThrownBy(() -> DataWritten.of(UUID.randomUUID(), "db.events", null, written, 1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be written without a snapshot id");
  }

  private ManifestFile writeManifest(Long snapshotId, DataFile... files) throws IOException {
    String location = table.location() + "/metadata/" + UUID.randomUUID() + "-m0.avro";
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, table.spec(), table.io().newOutputFile(location), snapshotId);
    try (writer) {
      for (DataFile file : files) {
        writer.add(file);
      }
    }
    return writer.toManifestFile();
  }

  private DataFile dataFile(String region, long records) {
    return DataFiles.builder(table.spec())
        .withPath(
            table.location() + "/data/region=" + region + "/" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartitionPath("region=" + region)
        .withRecordCount(records)
        .withFileSizeInBytes(100 + records)
        .build();
  }
}
