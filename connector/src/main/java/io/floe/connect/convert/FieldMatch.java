/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.Map;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * How a record field and a table column are matched: by exact name, and with {@link
 * ConvertOptions#caseInsensitive()} (the Apache Iceberg sink's {@code
 * iceberg.tables.schema-case-insensitive}) ignoring case when no exact match exists. An exact match
 * always wins, so a table or record holding names that differ only in case keeps each pair apart.
 */
public final class FieldMatch {
  private FieldMatch() {}

  /** The column of {@code struct} that the record field {@code name} goes into, or null. */
  public static Types.NestedField column(
      Types.StructType struct, String name, ConvertOptions options) {
    Types.NestedField exact = struct.field(name);
    if (exact != null || !options.caseInsensitive()) {
      return exact;
    }
    for (Types.NestedField column : struct.fields()) {
      if (column.name().equalsIgnoreCase(name)) {
        return column;
      }
    }
    return null;
  }

  /** The field of the record schema {@code source} that goes into the column {@code name}. */
  static Field field(Schema source, String name, ConvertOptions options) {
    Field exact = source.field(name);
    if (exact != null || !options.caseInsensitive()) {
      return exact;
    }
    for (Field field : source.fields()) {
      if (field.name().equalsIgnoreCase(name)) {
        return field;
      }
    }
    return null;
  }

  /** The value of a schemaless record's map for the column {@code name}, or null. */
  static Object value(Map<?, ?> map, String name, boolean caseInsensitive) {
    Object exact = map.get(name);
    if (exact != null || !caseInsensitive) {
      return exact;
    }
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (entry.getKey() instanceof String key
          && key.equalsIgnoreCase(name)
          && entry.getValue() != null) {
        return entry.getValue();
      }
    }
    return null;
  }
}
