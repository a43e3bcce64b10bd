/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.DataWritten;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** Manifests as workers send them, for the commit tests, and the data files they list. */
final class TestManifests {
  private TestManifests() {}

  /**
   * A manifest as a worker sends it.
   *
   * @param event the worker's event
   * @param dataFiles the data files it lists
   */
  record Manifest(DataWritten event, Set<String> dataFiles) {}

  /** A new manifest of {@code table} listing one data file of {@code records} records. */
  static Manifest manifest(Table table, String tableName, UUID commitId, long records) {
    String location = table.location() + "/metadata/" + UUID.randomUUID() + "-m.avro";
    String dataFile = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, table.spec(), table.io().newOutputFile(location), null);
    try (writer) {
      writer.add(
          DataFiles.builder(table.spec())
              .withPath(dataFile)
              .withFormat(FileFormat.PARQUET)
              .withRecordCount(records)
              .withFileSizeInBytes(100 + records)
              .build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ManifestFile manifest = writer.toManifestFile();
    return new Manifest(
        DataWritten.of(commitId, tableName, table.uuid(), manifest, 100 + records),
        Set.of(dataFile));
  }

  /** The data files listed by the manifests a snapshot added. */
  static Set<String> addedDataFiles(Table table, Snapshot snapshot) {
    Set<String> paths = new HashSet<>();
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      if (manifest.snapshotId() != null && manifest.snapshotId() == snapshot.snapshotId()) {
        paths.addAll(dataFiles(table, manifest));
      }
    }
    return paths;
  }

  /** The locations of the data files {@code manifest} lists, in its order. */
  static List<String> dataFiles(Table table, ManifestFile manifest) {
    List<String> paths = new ArrayList<>();
    try (ManifestReader<DataFile> reader =
        ManifestFiles.read(manifest, table.io(), table.specs())) {
      reader.forEach(file -> paths.add(file.location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths;
  }
}
