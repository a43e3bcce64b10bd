/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * One key column as pruning sees it: its name, where its value sits in a key, and how its values
 * order.
 *
 * <p>Only columns whose order is the order of the file statistics prune files: integers, dates,
 * times, microsecond timestamps, strings, binary, fixed and decimals. The others never narrow a
 * scan: floating point (NaN has no place in an {@code in} list), booleans (nothing to gain), UUIDs
 * (Java orders them as signed numbers, file statistics as unsigned bytes) and nanosecond timestamps
 * (a {@code Long} literal's unit is not theirs).
 *
 * @param fieldId the column's field id
 * @param name the column's full name, dotted when nested
 * @param type the column's type
 * @param leaf the column's position among a key's values ({@link RetiredKeys#leafOf})
 * @param comparator Iceberg's order of the column's values
 */
record KeyColumn(
    int fieldId, String name, Type.PrimitiveType type, int leaf, Comparator<Object> comparator) {

  private static final Set<Type.TypeID> ORDERED =
      EnumSet.of(
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.DATE,
          Type.TypeID.TIME,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.STRING,
          Type.TypeID.BINARY,
          Type.TypeID.FIXED,
          Type.TypeID.DECIMAL);

  /** The key columns of {@code keys} whose statistics prune files, in field-id order. */
  static List<KeyColumn> pruning(RetiredKeys keys) {
    List<KeyColumn> columns = new ArrayList<>();
    for (int id : keys.keyFieldIds()) {
      Type.PrimitiveType type = keys.keySchema().findType(id).asPrimitiveType();
      if (ORDERED.contains(type.typeId())) {
        columns.add(
            new KeyColumn(
                id,
                keys.keySchema().findColumnName(id),
                type,
                keys.leafOf(id),
                Comparators.forType(type)));
      }
    }
    return columns;
  }

  /** The column's value in the key numbered {@code ordinal}. */
  Object value(RetiredKeys keys, int ordinal) {
    return keys.value(ordinal, leaf);
  }

  /**
   * Compares the column's values in two keys in Iceberg's order: by their bytes where those order
   * alike ({@link RetiredKeys#byteOrdered}), else by the values read back.
   */
  int compare(RetiredKeys keys, int ordinal, int other) {
    return keys.byteOrdered(leaf)
        ? keys.compare(ordinal, other, leaf)
        : comparator.compare(value(keys, ordinal), value(keys, other));
  }

  /** The column's bound in {@code bounds} (a data file's lower or upper bounds), or null. */
  Object bound(Map<Integer, ByteBuffer> bounds) {
    ByteBuffer bound = bounds == null ? null : bounds.get(fieldId);
    return bound == null ? null : Conversions.fromByteBuffer(type, bound);
  }
}
