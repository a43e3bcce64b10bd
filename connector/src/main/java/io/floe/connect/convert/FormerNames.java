/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * The names that a table's columns had in its earlier schemas. Once a column is renamed (by an Avro
 * alias, say), records of the older schema versions still call it by its old name; with these they
 * write into the renamed column instead of adding the old name back as a new column. A name is only
 * ever a former name within its struct (Iceberg renames keep a column's place), and a column that
 * has the name now always wins over one that had it before.
 */
public final class FormerNames {
  /** No history: every column only has its current name. */
  public static final FormerNames NONE = new FormerNames(Map.of());

  private final Map<Integer, List<String>> byFieldId;

  private FormerNames(Map<Integer, List<String>> byFieldId) {
    this.byFieldId = byFieldId;
  }

  /**
   * The former names of the columns of {@code current}, from the table's schemas.
   *
   * @param history every schema the table has had (Iceberg keeps them in its metadata)
   * @param current the schema whose columns the names are for
   */
  public static FormerNames of(Iterable<Schema> history, Schema current) {
    Map<Integer, Types.NestedField> now = TypeUtil.indexById(current.asStruct());
    Map<Integer, List<String>> former = new HashMap<>();
    for (Schema schema : history) {
      for (Types.NestedField field : TypeUtil.indexById(schema.asStruct()).values()) {
        Types.NestedField column = now.get(field.fieldId());
        if (column != null && !column.name().equals(field.name())) {
          List<String> names = former.computeIfAbsent(field.fieldId(), id -> new ArrayList<>());
          if (!names.contains(field.name())) {
            names.add(field.name());
          }
        }
      }
    }
    return former.isEmpty() ? NONE : new FormerNames(Map.copyOf(former));
  }

  /** The former names of the column with this field id, oldest schema first; empty if none. */
  public List<String> of(int fieldId) {
    return byFieldId.getOrDefault(fieldId, List.of());
  }

  /**
   * The column of {@code struct} that was called {@code name} before, or null: none was, or a
   * column of {@code struct} has that name now.
   */
  public Types.NestedField columnFormerlyNamed(Types.StructType struct, String name) {
    if (byFieldId.isEmpty() || struct.field(name) != null) {
      return null;
    }
    for (Types.NestedField column : struct.fields()) {
      if (of(column.fieldId()).contains(name)) {
        return column;
      }
    }
    return null;
  }
}
