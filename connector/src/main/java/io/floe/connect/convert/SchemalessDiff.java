/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Lists the keys of a schemaless value that the table lacks, at any depth (nested maps, list
 * elements, map values), with their inferred types. Absent keys seen in several list elements are
 * merged into one entry. Keys whose values are all null (or empty) are not listed: they carry no
 * type yet. The result is sorted by path.
 */
final class SchemalessDiff {
  private record Pending(String parent, String name, Inferred type) {}

  private final TreeMap<String, Pending> pending = new TreeMap<>();

  private final ConvertOptions options;

  private SchemalessDiff(ConvertOptions options) {
    this.options = options;
  }

  static List<AbsentField> of(Map<?, ?> value, Types.StructType table, ConvertOptions options) {
    SchemalessDiff diff = new SchemalessDiff(options);
    diff.struct(value, table, null, "", 0);
    List<AbsentField> found = new ArrayList<>(diff.pending.size());
    for (Map.Entry<String, Pending> entry : diff.pending.entrySet()) {
      Pending p = entry.getValue();
      Type type = p.type().toIceberg(new AtomicInteger());
      if (type != null) {
        AtomicInteger ids = new AtomicInteger();
        found.add(
            new AbsentField(
                entry.getKey(),
                p.parent(),
                p.name(),
                TypeUtil.assignFreshIds(type, ids::incrementAndGet),
                null));
      }
    }
    return List.copyOf(found);
  }

  private void struct(Map<?, ?> value, Types.StructType table, String column, String path, int d) {
    for (Map.Entry<?, ?> entry : value.entrySet()) {
      if (!(entry.getKey() instanceof String name)) {
        continue; // not a field name; conversion ignores it, inference would reject it
      }
      String fieldPath = Paths.field(path, name);
      Types.NestedField field = FieldMatch.column(table, name, options);
      if (field == null) {
        Inferred type = Inferred.of(entry.getValue(), fieldPath, d + 1);
        Pending seen = pending.get(fieldPath);
        Inferred merged = seen == null ? type : Inferred.merge(seen.type(), type, fieldPath);
        pending.put(fieldPath, new Pending(column, name, merged));
      } else {
        nested(
            entry.getValue(), field.type(), Paths.column(column, field.name()), fieldPath, d + 1);
      }
    }
  }

  private void nested(Object value, Type table, String column, String path, int depth) {
    if (value instanceof Map<?, ?> map && table.isStructType()) {
      struct(map, table.asStructType(), column, path, depth);
    } else if (value instanceof List<?> list && table.isListType()) {
      Type element = table.asListType().elementType();
      for (Object item : list) {
        nested(item, element, column + ".element", Paths.element(path), depth + 1);
      }
    } else if (value instanceof Map<?, ?> map && table.isMapType()) {
      Type valueType = table.asMapType().valueType();
      for (Object item : map.values()) {
        nested(item, valueType, column + ".value", Paths.mapValue(path), depth + 1);
      }
    }
  }
}
