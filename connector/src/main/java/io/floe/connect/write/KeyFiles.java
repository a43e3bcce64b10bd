/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes key files: in upsert mode, the keys whose stored rows a hand-over retires, for the
 * coordinator to find those rows and delete them. A key file is a Parquet file of rows of the key
 * schema (the table schema narrowed to its identifier fields, {@code TypeUtil.select}), holding
 * Iceberg's generic values, described as an unpartitioned equality-delete file on the key columns
 * (written by Iceberg's generic equality-delete writer, which gives that description). It is a way
 * to hand keys over only: the coordinator reads it, and never commits it.
 */
final class KeyFiles {
  private KeyFiles() {}

  /**
   * Writes one key file of {@code keys} next to the table's data files, under a name no other
   * writer can produce, never over an existing file.
   *
   * @param keySchema the schema of the keys, selected from the table schema's identifier fields
   * @param keyFieldIds the identifier fields' ids
   * @param taskIndex the task's number, part of the file name
   */
  static DeleteFile write(
      Table table, Schema keySchema, Set<Integer> keyFieldIds, List<Record> keys, int taskIndex) {
    String name = "floe-keys-" + taskIndex + "-" + UUID.randomUUID() + ".parquet";
    OutputFile out =
        NewFilesOnly.of(table.io()).newOutputFile(table.locationProvider().newDataLocation(name));
    int[] equalityIds = keyFieldIds.stream().sorted().mapToInt(Integer::intValue).toArray();
    EqualityDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(equalityIds)
            .equalityDeleteRowSchema(keySchema)
            .build()
            .newEqualityDeleteWriter(
                EncryptedFiles.plainAsEncryptedOutput(out), PartitionSpec.unpartitioned(), null);
    try (writer) {
      writer.write(keys);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write key file " + out.location(), e);
    }
    return writer.toDeleteFile();
  }
}
