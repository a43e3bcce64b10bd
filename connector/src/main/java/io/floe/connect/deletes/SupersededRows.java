/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.LongStream;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructProjection;

/**
 * The rows of a commit's own new data files that a later part of the same commit retires: when one
 * commit takes several hand-overs of a source partition (a late answer joining the next cycle), an
 * image of an earlier hand-over is replaced or deleted by a later one, and must go in the same
 * commit as it comes in.
 */
public final class SupersededRows {
  private SupersededRows() {}

  /**
   * Reads the key columns and row positions of {@code files}, which are not in the table yet.
   *
   * @param keys the commit's keys
   * @param retiredLater whether the key numbered so in {@code keys} is retired by a later part of
   *     the commit than the one {@code files} belong to
   * @return for each file holding such a key, the positions of those rows
   */
  public static List<LocatedRows.FileRows> locate(
      Table table, List<DataFile> files, RetiredKeys keys, IntPredicate retiredLater) {
    if (keys.isEmpty() || files.isEmpty()) {
      return List.of();
    }
    List<Types.NestedField> columns = new ArrayList<>(keys.keySchema().columns());
    columns.add(MetadataColumns.ROW_POSITION);
    Schema projection = new Schema(columns);
    Accessor<StructLike> position =
        projection.accessorForField(MetadataColumns.ROW_POSITION.fieldId());
    List<LocatedRows.FileRows> located = new ArrayList<>();
    for (DataFile file : files) {
      InternalRecordWrapper internal = new InternalRecordWrapper(projection.asStruct());
      StructProjection key = StructProjection.create(projection, keys.keySchema());
      LongStream.Builder positions = LongStream.builder();
      boolean any = false;
      try (CloseableIterable<Record> rows =
          FormatModelRegistry.readBuilder(
                  file.format(), Record.class, table.io().newInputFile(file))
              .project(projection)
              .reuseContainers()
              .build()) {
        for (Record row : rows) {
          int ordinal = keys.ordinal(key.wrap(internal.wrap(row)));
          if (ordinal >= 0 && retiredLater.test(ordinal)) {
            positions.add((Long) position.get(row));
            any = true;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("could not read " + file.location(), e);
      }
      if (any) {
        located.add(new LocatedRows.FileRows(file, positions.build().toArray(), null));
      }
    }
    return located;
  }
}
