/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.iceberg.util.StructProjection;

/**
 * Reads the key columns and row positions of planned data files, drops the rows that the file's
 * deletes at the snapshot remove (deletion vector, position and equality deletes, through Iceberg's
 * {@link GenericDeleteFilter}) and keeps the positions of the live rows holding a retired key.
 * Counts the rows read and the keys found, over every file it reads. Files may be read on several
 * threads at once.
 */
final class LiveKeyReader {
  private final FileIO io;
  private final Schema tableSchema;
  private final RetiredKeys keys;
  private final Schema projection;
  private final NameMapping nameMapping;
  private final BitSet matchedKeys = new BitSet();
  private final AtomicLong rowsRead = new AtomicLong();

  LiveKeyReader(Table table, RetiredKeys keys) {
    this.io = table.io();
    this.tableSchema = table.schema();
    this.keys = keys;
    List<Types.NestedField> columns = new ArrayList<>(keys.keySchema().columns());
    columns.add(MetadataColumns.ROW_POSITION);
    this.projection = new Schema(columns);
    String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    this.nameMapping = mapping == null ? null : NameMappingParser.fromJson(mapping);
  }

  /** The live rows of the task's file holding a retired key, or null when it has none. */
  LocatedRows.FileRows read(FileScanTask task) {
    GenericDeleteFilter deletes = new GenericDeleteFilter(io, task, tableSchema, projection);
    Schema readSchema = deletes.requiredSchema();
    InternalRecordWrapper internal = new InternalRecordWrapper(readSchema.asStruct());
    StructProjection key = StructProjection.create(readSchema, keys.keySchema());
    Accessor<StructLike> position =
        readSchema.accessorForField(MetadataColumns.ROW_POSITION.fieldId());
    LongStream.Builder positions = LongStream.builder();
    BitSet matched = new BitSet();
    long read = 0;
    try (CloseableIterable<Record> rows = deletes.filter(open(task, readSchema))) {
      for (Record row : rows) {
        read++;
        int ordinal = keys.ordinal(key.wrap(internal.wrap(row)));
        if (ordinal >= 0) {
          matched.set(ordinal);
          positions.add((Long) position.get(row));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + task.file().location(), e);
    }
    rowsRead.addAndGet(read);
    if (matched.isEmpty()) {
      return null;
    }
    synchronized (matchedKeys) {
      matchedKeys.or(matched);
    }
    return new LocatedRows.FileRows(
        task.file(), positions.build().toArray(), deletes.deletedRowPositions());
  }

  private CloseableIterable<Record> open(FileScanTask task, Schema readSchema) {
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    ReadBuilder<Record, ?> builder =
        FormatModelRegistry.readBuilder(
            task.file().format(), Record.class, io.newInputFile(task.file()));
    builder = builder.project(readSchema).idToConstant(constants).reuseContainers();
    builder = builder.split(task.start(), task.length()).filter(task.residual());
    if (nameMapping != null) {
      builder = builder.withNameMapping(nameMapping);
    }
    return builder.build();
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
