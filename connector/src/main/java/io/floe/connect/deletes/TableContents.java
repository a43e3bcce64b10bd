/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Every live data and delete file of a snapshot: what a truncate removes. Read from the snapshot's
 * manifests, without column statistics (a commit that removes files needs their identity only).
 *
 * @param dataFiles the live data files
 * @param deleteFiles the live delete files: deletion vectors, position and equality deletes
 * @param records the rows the data files hold, deleted ones included
 */
public record TableContents(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, long records) {
  /** The contents of a table without a snapshot. */
  static final TableContents EMPTY = new TableContents(List.of(), List.of(), 0);

  public TableContents {
    dataFiles = List.copyOf(dataFiles);
    deleteFiles = List.copyOf(deleteFiles);
  }

  /** The live files of {@code snapshot}, or none when it is null. */
  static TableContents of(Table table, Snapshot snapshot) {
    if (snapshot == null) {
      return EMPTY;
    }
    List<DataFile> data = new ArrayList<>();
    List<DeleteFile> deletes = new ArrayList<>();
    long records = 0;
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      try (ManifestReader<DataFile> reader =
          ManifestFiles.read(manifest, table.io(), table.specs())) {
        for (DataFile file : reader) {
          data.add(file.copyWithoutStats());
          records += file.recordCount();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
      }
    }
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (var reader = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : reader) {
          deletes.add(file.copyWithoutStats());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read delete manifest " + manifest.path(), e);
      }
    }
    return new TableContents(data, deletes, records);
  }
}
