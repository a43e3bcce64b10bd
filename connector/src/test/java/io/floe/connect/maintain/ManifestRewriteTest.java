/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rewriting a table's many small manifests into few, carrying the connector's marks. */
class ManifestRewriteTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Marks STAMP = (update, table, start) -> update.set("floe.commit-id", "c1");

  private Table table;

  @BeforeEach
  void createTable() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
    for (int i = 0; i < 5; i++) {
      table
          .newFastAppend()
          .appendFile(
              DataFiles.builder(table.spec())
                  .withPath(table.location() + "/data/" + i + ".parquet")
                  .withFormat(FileFormat.PARQUET)
                  .withRecordCount(10)
                  .withFileSizeInBytes(100)
                  .build())
          .commit();
    }
  }

  private Set<String> files() {
    Set<String> files = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  @Test
  void manyManifestsBecomeOneWithTheSameFilesAndTheMarksCarried() {
    Set<String> before = files();

    ManifestRewrite.Result result =
        ManifestRewrite.rewriteIfMany(table, 3, STAMP, ThreadPools.getWorkerPool());

    assertThat(result).isEqualTo(new ManifestRewrite.Result(5, 1));
    assertThat(result.rewrote()).isTrue();
    assertThat(table.currentSnapshot().dataManifests(table.io())).hasSize(1);
    assertThat(table.currentSnapshot().summary()).containsEntry("floe.commit-id", "c1");
    assertThat(files()).isEqualTo(before).hasSize(5);
  }

  @Test
  void manifestsUpToTheThresholdAreLeftAlone() {
    long snapshot = table.currentSnapshot().snapshotId();

    ManifestRewrite.Result result =
        ManifestRewrite.rewriteIfMany(table, 5, STAMP, ThreadPools.getWorkerPool());

    assertThat(result.rewrote()).isFalse();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }
}
