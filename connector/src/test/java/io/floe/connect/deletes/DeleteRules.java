/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static io.floe.connect.deletes.DeleteTables.exists;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeWrapper;

/** The rules every table of the delete tests keeps, checked on its delete files. */
final class DeleteRules {
  private DeleteRules() {}

  /** The delete files of the table's current snapshot. */
  static List<DeleteFile> liveDeletes(Table table) {
    table.refresh();
    return liveDeletes(table, table.currentSnapshot());
  }

  private static List<DeleteFile> liveDeletes(Table table, Snapshot snapshot) {
    List<DeleteFile> deletes = new ArrayList<>();
    if (snapshot == null) {
      return deletes;
    }
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        reader.forEach(file -> deletes.add(file.copy()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return deletes;
  }

  /**
   * Checks the rules every table of these tests keeps: no equality deletes ever; in v3 only
   * deletion vectors, at most one per data file; in v2 no vectors; every delete in its data file's
   * spec and partition; no delete file written by a failed attempt left behind.
   *
   * @return the live delete files
   */
  static List<DeleteFile> checkDeletes(Table table) {
    List<DeleteFile> deletes = liveDeletes(table);
    assertThat(deletes)
        .extracting(DeleteFile::content)
        .doesNotContain(FileContent.EQUALITY_DELETES);
    boolean vectors = TableUtil.formatVersion(table) >= 3;
    if (vectors) {
      assertThat(deletes)
          .allSatisfy(file -> assertThat(file.format()).isEqualTo(FileFormat.PUFFIN));
      assertThat(deletes)
          .extracting(DeleteFile::referencedDataFile)
          .doesNotContainNull()
          .doesNotHaveDuplicates();
    } else {
      assertThat(deletes).extracting(DeleteFile::format).doesNotContain(FileFormat.PUFFIN);
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        checkMatchesDataFile(table, task, vectors);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    checkNoOrphans(table);
    return deletes;
  }

  private static void checkMatchesDataFile(Table table, FileScanTask task, boolean vectors) {
    DataFile file = task.file();
    Types.StructType partitionType = table.specs().get(file.specId()).partitionType();
    StructLikeWrapper partition = StructLikeWrapper.forType(partitionType).set(file.partition());
    for (DeleteFile delete : task.deletes()) {
      assertThat(delete.specId()).as("spec of %s", delete.location()).isEqualTo(file.specId());
      assertThat(StructLikeWrapper.forType(partitionType).set(delete.partition()))
          .as("partition of %s", delete.location())
          .isEqualTo(partition);
      if (ContentFileUtil.isFileScoped(delete)) {
        assertThat(ContentFileUtil.referencedDataFileLocation(delete)).isEqualTo(file.location());
      }
    }
    if (vectors) {
      assertThat(task.deletes()).as("deletes of %s", file.location()).hasSizeLessThanOrEqualTo(1);
    }
  }

  /** Checks that no uncommitted delete file is left; only while the table has all its history. */
  private static void checkNoOrphans(Table table) {
    Set<String> committed = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.parentId() != null && table.snapshot(snapshot.parentId()) == null) {
        return; // snapshots expired: what they committed cannot be told from what they did not
      }
      liveDeletes(table, snapshot).forEach(file -> committed.add(file.location()));
    }
    for (String path : RecordingFileIO.created(table.location(), "-deletes-")) {
      if (!committed.contains(path)) {
        assertThat(exists(table, path)).as("uncommitted %s is deleted", path).isFalse();
      }
    }
  }
}
