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
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestContent;
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

  /** Between a deletion vector's file and its offset in it, in {@link #listed}. */
  static final String DV_AT = "#dv@";

  /**
   * A file a manifest lists.
   *
   * @param file its location; a deletion vector's is followed by {@link #DV_AT} and its offset, as
   *     deletion vectors share their Puffin file
   * @param fileSequenceNumber the sequence number of the snapshot that added it
   */
  record Listed(String file, Long fileSequenceNumber) {
    /** The location of the file that holds it. */
    String location() {
      int dv = file.indexOf(DV_AT);
      return dv < 0 ? file : file.substring(0, dv);
    }
  }

  /** The locations of the data files {@code manifest} lists, in its order. */
  static List<String> dataFiles(Table table, ManifestFile manifest) {
    return listed(table, manifest).stream().map(Listed::file).toList();
  }

  /** The data files, or delete files of a delete manifest, {@code manifest} lists, in its order. */
  static List<Listed> listed(Table table, ManifestFile manifest) {
    List<Listed> listed = new ArrayList<>();
    if (manifest.content() == ManifestContent.DELETES) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        reader.forEach(
            file ->
                listed.add(
                    new Listed(
                        file.contentOffset() == null
                            ? file.location()
                            : file.location() + DV_AT + file.contentOffset(),
                        file.fileSequenceNumber())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return listed;
    }
    try (ManifestReader<DataFile> reader =
        ManifestFiles.read(manifest, table.io(), table.specs())) {
      reader.forEach(file -> listed.add(new Listed(file.location(), file.fileSequenceNumber())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return listed;
  }
}
