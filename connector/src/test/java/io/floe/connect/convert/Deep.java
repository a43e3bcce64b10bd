/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Deeply nested records: level {@code i} has an int {@code v = i} and, above the last level, a
 * struct {@code child}.
 */
final class Deep {
  private Deep() {}

  /** A schema nested {@code levels} deep; the top level is the record. */
  static Schema schema(int levels) {
    Schema child = null;
    for (int level = levels; level >= 1; level--) {
      SchemaBuilder builder = SchemaBuilder.struct().field("v", Schema.INT32_SCHEMA);
      if (child != null) {
        builder.field("child", child);
      }
      if (level > 1) {
        builder.optional();
      }
      child = builder.build();
    }
    return child;
  }

  /** A value of {@link #schema}, built from the innermost level out. */
  static Struct value(Schema schema) {
    java.util.List<Schema> levels = new java.util.ArrayList<>();
    for (Schema s = schema; s != null; ) {
      levels.add(s);
      s = s.field("child") == null ? null : s.field("child").schema();
    }
    Struct inner = null;
    for (int i = levels.size() - 1; i >= 0; i--) {
      Struct struct = new Struct(levels.get(i)).put("v", i + 1);
      if (inner != null) {
        struct.put("child", inner);
      }
      inner = struct;
    }
    return inner;
  }

  /** A schemaless value {@code levels} deep. */
  static Map<String, Object> map(int levels) {
    Map<String, Object> inner = null;
    for (int level = levels; level >= 1; level--) {
      Map<String, Object> map = new HashMap<>();
      map.put("v", (long) level);
      if (inner != null) {
        map.put("child", inner);
      }
      inner = map;
    }
    return inner;
  }
}
