/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes key files: in upsert mode, the keys whose stored rows a hand-over retires, for the
 * coordinator to find those rows and delete them. A key file is a Parquet file of rows of the key
 * schema (the table schema narrowed to its identifier fields, {@code TypeUtil.select}), holding
 * Iceberg's generic values, described as an unpartitioned equality-delete file on the key columns
 * (written by Iceberg's generic equality-delete writer, which gives that description). It is a way
 * to hand keys over only: the coordinator reads it, and never commits it.
 *
 * <p>Beside it, the rows of the hand-over's own data files that later changes of the same hand-over
 * superseded go in a file of their positions: Iceberg's position-delete layout ({@code file_path},
 * {@code pos}), described as an unpartitioned position-delete file. It too is read by the
 * coordinator and never committed; it is written in Avro, so that a coordinator of a Floe that
 * reads every file of a key manifest as a Parquet key file refuses it instead of misreading it.
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
      Table table,
      Schema keySchema,
      Set<Integer> keyFieldIds,
      Iterable<Record> keys,
      int taskIndex) {
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

  /**
   * Writes the positions of superseded rows, next to the table's data files, under a name no other
   * writer can produce, never over an existing file.
   *
   * @param rows the positions of the superseded rows by data file location, each ascending
   * @param taskIndex the task's number, part of the file name
   */
  static DeleteFile writeSuperseded(Table table, Map<String, long[]> rows, int taskIndex) {
    String name = "floe-superseded-" + taskIndex + "-" + UUID.randomUUID() + ".avro";
    OutputFile out =
        NewFilesOnly.of(table.io()).newOutputFile(table.locationProvider().newDataLocation(name));
    PositionDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.AVRO)
            .build()
            .newPositionDeleteWriter(
                EncryptedFiles.plainAsEncryptedOutput(out), PartitionSpec.unpartitioned(), null);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (Map.Entry<String, long[]> file : new TreeMap<>(rows).entrySet()) {
        for (long position : file.getValue()) {
          writer.write(delete.set(file.getKey(), position));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write superseded rows file " + out.location(), e);
    }
    return writer.toDeleteFile();
  }
}
