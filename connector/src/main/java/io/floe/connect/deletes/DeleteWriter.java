/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutPositionOnlyDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes the deletes of located rows, never equality deletes:
 *
 * <ul>
 *   <li>format v3: a deletion vector per data file, with Iceberg's {@link BaseDVFileWriter}, merged
 *       with the file's deletes at the snapshot the rows were located in; all of one write's
 *       vectors share one Puffin file, and the vectors they replace come back as rewritten;
 *   <li>format v2: position delete files with Iceberg's {@link FanoutPositionOnlyDeleteWriter}, a
 *       file per data file, merged with the data file's earlier deletes when they are file-scoped
 *       too (they come back as rewritten), so that like a deletion vector a data file keeps one
 *       delete file however often its rows are retired. A table that sets {@code
 *       write.delete.granularity=partition} gets a file per partition instead, never merged.
 *       (Iceberg's own default is {@code partition}; Floe's is {@code file}, as Spark's.)
 * </ul>
 *
 * <p>Each delete carries its data file's spec and partition, never the table's current ones. Files
 * are named by an {@link OutputFileFactory} whose operation id ends in a UUID of its own, and
 * created through {@link NewFilesOnly}: no write can replace a file.
 */
public final class DeleteWriter {
  private final Table table;

  public DeleteWriter(Table table) {
    this.table = table;
  }

  /**
   * Writes the deletes of {@code rows}.
   *
   * @param rows rows located in the table's current snapshot (or in the snapshot a commit will be
   *     validated from)
   * @param namePrefix the start of the written files' operation id, such as {@code
   *     floe-<commit-id>}; {@code -deletes-} and a random UUID follow it
   * @throws UnsupportedOperationException if the table is format v1
   */
  public WrittenDeletes write(LocatedRows rows, String namePrefix) {
    if (rows.isEmpty()) {
      return WrittenDeletes.none();
    }
    int version = TableUtil.formatVersion(table);
    if (version < 2) {
      throw new UnsupportedOperationException(
          "Table " + table.name() + " is format v1: deleting rows needs format v2 or later");
    }
    String operationId = namePrefix + "-deletes-" + UUID.randomUUID();
    DeleteWriteResult result =
        version >= 3 ? writeVectors(rows, operationId) : writePositionFiles(rows, operationId);
    Set<String> referenced = new HashSet<>();
    result.referencedDataFiles().forEach(location -> referenced.add(location.toString()));
    return new WrittenDeletes(
        result.deleteFiles(), result.rewrittenDeleteFiles(), referenced, rows.rowCount());
  }

  private DeleteWriteResult writeVectors(LocatedRows rows, String operationId) {
    BaseDVFileWriter writer =
        new BaseDVFileWriter(files(FileFormat.PUFFIN, operationId), rows::previousDeletes);
    try (writer) {
      for (LocatedRows.FileRows fileRows : rows.files()) {
        DataFile file = fileRows.file();
        PartitionSpec spec = table.specs().get(file.specId());
        for (long position : fileRows.positions()) {
          writer.delete(file.location(), position, spec, file.partition());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write deletion vectors for " + table.name(), e);
    }
    return writer.result();
  }

  private DeleteWriteResult writePositionFiles(LocatedRows rows, String operationId) {
    Map<String, String> properties = table.properties();
    FileFormat format = deleteFormat(properties);
    DeleteGranularity granularity =
        DeleteGranularity.fromString(
            properties.getOrDefault(
                TableProperties.DELETE_GRANULARITY, DeleteGranularity.FILE.toString()));
    long targetBytes =
        PropertyUtil.propertyAsLong(
            properties,
            TableProperties.DELETE_TARGET_FILE_SIZE_BYTES,
            TableProperties.DELETE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    Function<CharSequence, PositionDeleteIndex> previous =
        granularity == DeleteGranularity.FILE
            ? location -> fileScoped(rows, location)
            : location -> null;
    FanoutPositionOnlyDeleteWriter<Record> writer =
        new FanoutPositionOnlyDeleteWriter<>(
            new GenericFileWriterFactory.Builder(table).deleteFileFormat(format).build(),
            files(format, operationId),
            NewFilesOnly.of(table.io()),
            targetBytes,
            granularity,
            previous);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (LocatedRows.FileRows fileRows : rows.files()) {
        DataFile file = fileRows.file();
        PartitionSpec spec = table.specs().get(file.specId());
        for (long position : fileRows.positions()) {
          writer.write(delete.set(file.location(), position), spec, file.partition());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write position deletes for " + table.name(), e);
    }
    return writer.result();
  }

  /**
   * A data file's earlier deletes, if they are all file-scoped: only those can be merged into the
   * new file and removed; a partition-scoped file holds other data files' deletes too.
   */
  private static PositionDeleteIndex fileScoped(LocatedRows rows, CharSequence location) {
    PositionDeleteIndex previous = rows.previousDeletes(location);
    if (previous == null
        || !previous.deleteFiles().stream().allMatch(ContentFileUtil::isFileScoped)) {
      return null;
    }
    return previous;
  }

  private OutputFileFactory files(FileFormat format, String operationId) {
    return OutputFileFactory.builderFor(table, 0, 0)
        .operationId(operationId)
        .format(format)
        .ioSupplier(() -> NewFilesOnly.of(table.io()))
        .build();
  }

  private FileFormat deleteFormat(Map<String, String> properties) {
    String name =
        properties.getOrDefault(
            TableProperties.DELETE_DEFAULT_FILE_FORMAT,
            properties.getOrDefault(
                TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
    FileFormat format = FileFormat.fromString(name.trim().toUpperCase(Locale.ROOT));
    if (format != FileFormat.PARQUET && format != FileFormat.AVRO) {
      throw new UnsupportedOperationException(
          "Table "
              + table.name()
              + ": position deletes in "
              + name
              + " are not supported; Floe writes parquet or avro ("
              + TableProperties.DELETE_DEFAULT_FILE_FORMAT
              + ")");
    }
    return format;
  }
}
