/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes the manifests that hand a task's finished data files over to the coordinator: one per
 * partition spec, next to the table's metadata, without a snapshot id (the commit assigns it).
 *
 * <p>In upsert mode, the key files ({@link KeyFiles}) go in one delete manifest of their own, on
 * the unpartitioned spec (id 0), named {@code <prefix>-k-m.avro}: for the coordinator, a manifest
 * of content {@code DELETES} lists key files, never delete files to commit.
 *
 * <p>A data manifest is named {@code <prefix>-s<spec>-m.avro}. The coordinator takes the manifests
 * of one hand-over together by the hand-over id of their {@code DataWritten} events; a coordinator
 * of a Floe older than {@code DataWritten} version 3 does so by these names, so they stay as they
 * are.
 */
public final class Manifests {
  private Manifests() {}

  /**
   * A manifest with its files' total size.
   *
   * @param manifest the written manifest
   * @param totalFileSizeBytes the summed size of the files it lists
   */
  public record Written(ManifestFile manifest, long totalFileSizeBytes) {}

  /**
   * Writes the manifests of {@code files}.
   *
   * @param namePrefix a prefix no other hand-over can produce (not even one of another instance of
   *     the same task answering the same cycle); a manifest is never written over an existing file
   */
  public static List<Written> write(TableFiles files, String namePrefix) {
    Table table = files.table();
    Map<Integer, List<DataFile>> bySpec = new TreeMap<>();
    for (DataFile file : files.files().dataFiles()) {
      bySpec.computeIfAbsent(file.specId(), id -> new ArrayList<>()).add(file);
    }
    int formatVersion = TableUtil.formatVersion(table);
    List<Written> written = new ArrayList<>(bySpec.size());
    for (Map.Entry<Integer, List<DataFile>> entry : bySpec.entrySet()) {
      PartitionSpec spec = table.specs().get(entry.getKey());
      OutputFile out = outputFile(table, namePrefix + "-s" + entry.getKey() + "-m.avro");
      ManifestWriter<DataFile> writer = ManifestFiles.write(formatVersion, spec, out, null);
      long bytes = 0;
      try {
        try (writer) {
          for (DataFile file : entry.getValue()) {
            writer.add(file);
            bytes += file.fileSizeInBytes();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Failed to write a manifest of table " + files.tableName() + " to " + out.location(),
            e);
      }
      written.add(new Written(writer.toManifestFile(), bytes));
    }
    if (!files.files().keyFiles().isEmpty()) {
      written.add(writeKeyManifest(files, formatVersion, namePrefix + "-k-m.avro"));
    }
    return written;
  }

  private static Written writeKeyManifest(TableFiles files, int formatVersion, String name) {
    OutputFile out = outputFile(files.table(), name);
    ManifestWriter<DeleteFile> writer =
        ManifestFiles.writeDeleteManifest(formatVersion, PartitionSpec.unpartitioned(), out, null);
    long bytes = 0;
    try {
      try (writer) {
        for (DeleteFile file : files.files().keyFiles()) {
          writer.add(file);
          bytes += file.fileSizeInBytes();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write the key manifest of table "
              + files.tableName()
              + " to "
              + out.location(),
          e);
    }
    return new Written(writer.toManifestFile(), bytes);
  }

  private static OutputFile outputFile(Table table, String name) {
    FileIO io = NewFilesOnly.of(table.io());
    if (table instanceof HasTableOperations ops) {
      return io.newOutputFile(ops.operations().metadataFileLocation(name));
    }
    return io.newOutputFile(table.location() + "/metadata/" + name);
  }
}
