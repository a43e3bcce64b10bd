/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Takes the change markers out of a flattened record's row image: the op field (at any depth, such
 * as {@code _cdc.op}) and {@code __deleted}. They say what happened to the row, not what it holds,
 * so they never reach the table; the other fields Debezium adds ({@code __source_ts_ms}, {@code
 * __lsn}, ...) stay.
 *
 * <p>The trimmed schema of each record schema is built once and cached by identity: Connect's
 * converters reuse one schema object per schema version, so the write path's converter cache, also
 * keyed by identity, keeps hitting. The trimmed schema keeps the name, version, doc and parameters
 * of the original, but not the default value of a trimmed struct.
 */
final class MarkerFields {
  private static final int MAX_SCHEMAS = 256;

  /**
   * A struct's values, to copy them into a struct of the trimmed schema without Connect's
   * validation of each (a quarter of upsert mode's own CPU on a flattened stream); null where the
   * runtime does not give access to them, and then every value is put through {@link Struct#put}.
   */
  private static final VarHandle VALUES = structValues();

  private final Node root = new Node();
  private final Map<Schema, Schema> trimmed = new IdentityHashMap<>();

  MarkerFields(List<FieldPath> markers) {
    for (FieldPath marker : markers) {
      Node node = root;
      for (String name : marker.names()) {
        node = node.children.computeIfAbsent(name, n -> new Node());
      }
      node.drop = true;
    }
  }

  /**
   * The image without the markers: a new struct (of a trimmed schema) or map, or {@code value}
   * itself if it has no marker or is neither a struct nor a map.
   */
  Object trim(Object value) {
    if (value instanceof Struct struct) {
      Schema schema = trimmed.get(struct.schema());
      if (schema == null) {
        if (trimmed.size() >= MAX_SCHEMAS) {
          trimmed.clear();
        }
        schema = without(struct.schema(), root);
        trimmed.put(struct.schema(), schema);
      }
      return schema == struct.schema() ? struct : copy(struct, schema, root);
    }
    if (value instanceof Map<?, ?> map) {
      return copy(map, root);
    }
    return value;
  }

  private static Schema without(Schema schema, Node node) {
    if (schema.type() != Schema.Type.STRUCT) {
      return schema;
    }
    Map<String, Schema> kept = new LinkedHashMap<>();
    for (Field field : schema.fields()) {
      Node child = node.children.get(field.name());
      if (child == null) {
        kept.put(field.name(), field.schema());
      } else if (!child.drop) {
        kept.put(field.name(), without(field.schema(), child));
      }
    }
    boolean same = kept.size() == schema.fields().size();
    for (Field field : schema.fields()) {
      same &= kept.get(field.name()) == field.schema();
    }
    if (same) {
      return schema;
    }
    SchemaBuilder builder =
        SchemaBuilder.struct().name(schema.name()).version(schema.version()).doc(schema.doc());
    if (schema.parameters() != null) {
      builder.parameters(schema.parameters());
    }
    if (schema.isOptional()) {
      builder.optional();
    }
    kept.forEach(builder::field);
    return builder.build();
  }

  /** Whether values are copied without a check again (see {@link #copy}). */
  static boolean copiesWithoutChecks() {
    return VALUES != null;
  }

  private static VarHandle structValues() {
    try {
      return MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
          .findVarHandle(Struct.class, "values", Object[].class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /**
   * A struct of the trimmed {@code schema} holding {@code from}'s values. Each kept field's schema
   * is the original field's own schema object, or the trimmed schema of a struct copied here, and a
   * struct holds only values its schema took ({@link Struct#put} checks each), so a value needs no
   * check again, but for a null in a required field, which a struct may hold before it is
   * validated: that one goes through {@link Struct#put}, which refuses it as before.
   */
  private static Struct copy(Struct from, Schema schema, Node node) {
    Struct to = new Struct(schema);
    Object[] values = VALUES == null ? null : (Object[]) VALUES.get(to);
    for (Field field : schema.fields()) {
      Object value = from.getWithoutDefault(field.name());
      Node child = node.children.get(field.name());
      if (child != null && value instanceof Struct inner && inner.schema() != field.schema()) {
        value = copy(inner, field.schema(), child);
      }
      if (values == null || value == null && !field.schema().isOptional()) {
        to.put(field, value);
      } else {
        values[field.index()] = value;
      }
    }
    return to;
  }

  private static Map<?, ?> copy(Map<?, ?> from, Node node) {
    if (node.children.keySet().stream().noneMatch(from::containsKey)) {
      return from;
    }
    Map<Object, Object> to = new LinkedHashMap<>();
    from.forEach(
        (name, value) -> {
          Node child = node.children.get(name);
          if (child == null) {
            to.put(name, value);
          } else if (!child.drop) {
            to.put(name, value instanceof Map<?, ?> inner ? copy(inner, child) : value);
          }
        });
    return to;
  }

  /** A level of the marker paths: the names below it, and whether the field itself goes. */
  private static final class Node {
    private final Map<String, Node> children = new HashMap<>();
    private boolean drop;
  }
}
