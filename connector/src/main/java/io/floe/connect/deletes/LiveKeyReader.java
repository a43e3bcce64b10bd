/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import io.floe.connect.files.TaskRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructProjection;

/**
 * Reads the key columns and row positions of planned data files, drops the rows that the file's
 * deletes at the snapshot remove (deletion vector, position and equality deletes, through Iceberg's
 * {@link GenericDeleteFilter}) and keeps the positions of the live rows holding a retired key.
 * Counts the rows read and the keys found, over every file it reads. Files may be read on several
 * threads at once.
 *
 * <p>The key index reads with it too: every live row's key and position ({@link #visit}); a locate
 * with the index takes the rows it holds and keeps the live ones ({@link #live}).
 */
final class LiveKeyReader {
  private final FileIO io;
  private final Schema tableSchema;
  private final Schema keySchema;
  private final RetiredKeys keys;
  private final Schema projection;
  private final TaskRows taskRows;
  private final ParquetKeyScan scan;
  private final BitSet matchedKeys = new BitSet();
  private final AtomicLong rowsRead = new AtomicLong();

  /** What a read shows of each live row: its key, a row of the key schema, and its position. */
  @FunctionalInterface
  interface RowVisitor {
    void row(StructLike key, long position);
  }

  LiveKeyReader(Table table, RetiredKeys keys) {
    this(table, keys.keySchema(), keys, null);
  }

  /**
   * A reader of the rows holding {@code keys}, skipping the row groups whose column statistics
   * {@code bounds} rules out when it reads a file's key columns straight from its column chunks.
   */
  LiveKeyReader(Table table, RetiredKeys keys, KeyBounds bounds) {
    this(table, keys.keySchema(), keys, bounds);
  }

  /** A reader of every live row's key ({@link #visit}), for keys of {@code keySchema}. */
  static LiveKeyReader allRows(Table table, Schema keySchema) {
    return new LiveKeyReader(table, keySchema, null, null);
  }

  private LiveKeyReader(Table table, Schema keySchema, RetiredKeys keys, KeyBounds bounds) {
    this.io = table.io();
    this.tableSchema = table.schema();
    this.keySchema = keySchema;
    this.keys = keys;
    List<Types.NestedField> columns = new ArrayList<>(keySchema.columns());
    columns.add(MetadataColumns.ROW_POSITION);
    this.projection = new Schema(columns);
    this.taskRows = new TaskRows(table);
    this.scan = keys == null ? null : ParquetKeyScan.of(keys, bounds);
  }

  /** The live rows of the task's file holding a retired key, or null when it has none. */
  LocatedRows.FileRows read(FileScanTask task) {
    LongStream.Builder positions = LongStream.builder();
    BitSet matched = new BitSet();
    DataFile file = task.file();
    PositionDeleteIndex[] scannedDeletes = new PositionDeleteIndex[1];
    PositionDeleteIndex deleted;
    if (scanned(task, matched, positions, scannedDeletes)) {
      deleted = scannedDeletes[0];
    } else {
      deleted =
          visit(
              task,
              false,
              (key, position) -> {
                int ordinal = keys.ordinal(key);
                if (ordinal >= 0) {
                  matched.set(ordinal);
                  positions.add(position);
                }
              });
    }
    if (matched.isEmpty()) {
      return null;
    }
    synchronized (matchedKeys) {
      matchedKeys.or(matched);
    }
    return new LocatedRows.FileRows(file, positions.build().toArray(), deleted);
  }

  /**
   * The live rows among {@code rows}, the rows of retired keys a key index holds in the task's
   * file, without reading the file: those its deletes at the snapshot name are dropped. A file with
   * equality deletes, which only a read can apply, is read as {@link #read(FileScanTask)} reads it.
   *
   * @return the live rows, or null when none is
   */
  LocatedRows.FileRows live(FileScanTask task, KeyIndex.FileRows rows) {
    GenericDeleteFilter deletes = new GenericDeleteFilter(io, task, tableSchema, projection);
    if (deletes.hasEqDeletes()) {
      return read(task);
    }
    PositionDeleteIndex deleted = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
    LongStream.Builder positions = LongStream.builder();
    BitSet matched = new BitSet();
    for (int i = 0; i < rows.size(); i++) {
      long position = rows.position(i);
      if (deleted == null || !deleted.isDeleted(position)) {
        positions.add(position);
        matched.set(rows.ordinal(i));
      }
    }
    if (matched.isEmpty()) {
      return null;
    }
    synchronized (matchedKeys) {
      matchedKeys.or(matched);
    }
    return new LocatedRows.FileRows(task.file(), positions.build().toArray(), deleted);
  }

  /**
   * Reads the file with the {@link ParquetKeyScan} when it can: its deletes loaded as the generic
   * read loads them, equality deletes (which only the generic read applies) declined.
   *
   * @param deletedOut given the file's deletes at the snapshot (null for none)
   * @return whether the file was read; when not, nothing was told
   */
  private boolean scanned(
      FileScanTask task,
      BitSet matched,
      LongStream.Builder positions,
      PositionDeleteIndex[] deletedOut) {
    if (scan == null) {
      return false;
    }
    GenericDeleteFilter deletes = new GenericDeleteFilter(io, task, tableSchema, projection);
    if (deletes.hasEqDeletes()) {
      return false;
    }
    PositionDeleteIndex deleted = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
    long read =
        scan.scan(
            io,
            task.file(),
            deleted,
            (ordinal, position) -> {
              matched.set(ordinal);
              positions.add(position);
            });
    if (read < 0) {
      return false;
    }
    rowsRead.addAndGet(read);
    deletedOut[0] = deleted;
    return true;
  }

  /**
   * Shows {@code visitor} every live row of the task's file.
   *
   * @param wholeFile whether to read every row, rather than only the parts of the file the task's
   *     residual filter may keep
   * @return the rows of the file deleted at the snapshot, or null when none are
   */
  PositionDeleteIndex visit(FileScanTask task, boolean wholeFile, RowVisitor visitor) {
    GenericDeleteFilter deletes = new GenericDeleteFilter(io, task, tableSchema, projection);
    Schema readSchema = deletes.requiredSchema();
    InternalRecordWrapper internal = new InternalRecordWrapper(readSchema.asStruct());
    StructProjection key = StructProjection.create(readSchema, keySchema);
    Accessor<StructLike> position =
        readSchema.accessorForField(MetadataColumns.ROW_POSITION.fieldId());
    long read = 0;
    try (CloseableIterable<Record> rows =
        deletes.filter(taskRows.open(task, readSchema, wholeFile, true))) {
      for (Record row : rows) {
        read++;
        visitor.row(key.wrap(internal.wrap(row)), (Long) position.get(row));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + task.file().location(), e);
    }
    rowsRead.addAndGet(read);
    return deletes.deletedRowPositions();
  }

  long rowsRead() {
    return rowsRead.get();
  }

  long keysMatched() {
    synchronized (matchedKeys) {
      return matchedKeys.cardinality();
    }
  }
}
