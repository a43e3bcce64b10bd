/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.TableConfig;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The identifier fields of a table from {@code iceberg.table.<table>.id-columns}: Iceberg schema
 * metadata naming the columns that identify a row. Iceberg allows only required primitive columns
 * that are not float or double, at the top level or in required structs (not in lists or maps); a
 * column that breaks a rule is a configuration error that names the key to fix.
 */
public final class IdentifierColumns {
  private IdentifierColumns() {}

  /**
   * The schema of a table to be created, with its identifier fields set to {@code columns}.
   *
   * @throws ConnectException if a column cannot be an identifier field in {@code schema}
   */
  public static Schema on(String table, Schema schema, List<String> columns) {
    if (columns.isEmpty()) {
      return schema;
    }
    Set<Integer> ids = new LinkedHashSet<>();
    for (String column : columns) {
      ids.add(check(table, schema, columns, column).fieldId());
    }
    return new Schema(schema.columns(), ids);
  }

  /**
   * Checks that every one of {@code columns} can be an identifier field of {@code schema}.
   *
   * @throws ConnectException naming the first column that cannot, and why
   */
  public static void check(String table, Schema schema, List<String> columns) {
    for (String column : columns) {
      check(table, schema, columns, column);
    }
  }

  private static Types.NestedField check(
      String table, Schema schema, List<String> columns, String column) {
    Types.NestedField field = schema.findField(column);
    if (field == null) {
      throw invalid(table, columns, column, "there is no such column");
    }
    Type type = field.type();
    if (!type.isPrimitiveType()) {
      throw invalid(
          table,
          columns,
          column,
          "it is a " + type.typeId().name().toLowerCase() + ", not a primitive column");
    }
    if (type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE) {
      throw invalid(
          table,
          columns,
          column,
          "it is " + type + ", and floating-point columns" + " cannot identify rows");
    }
    if (field.isOptional()) {
      throw invalid(
          table,
          columns,
          column,
          "it is optional; identifier columns must be required"
              + " (in Avro: a field whose type is not a union with null)");
    }
    Map<Integer, Integer> parents = TypeUtil.indexParents(schema.asStruct());
    for (Integer parentId = parents.get(field.fieldId());
        parentId != null;
        parentId = parents.get(parentId)) {
      Types.NestedField parent = schema.findField(parentId);
      if (!parent.type().isStructType()) {
        throw invalid(
            table,
            columns,
            column,
            "it is inside the "
                + parent.type().typeId().name().toLowerCase()
                + " "
                + schema.findColumnName(parentId)
                + "; identifier columns can only be nested in structs");
      }
      if (parent.isOptional()) {
        throw invalid(
            table,
            columns,
            column,
            "it is inside the optional struct "
                + schema.findColumnName(parentId)
                + "; every struct around it must be required");
      }
    }
    return field;
  }

  private static ConnectException invalid(
      String table, List<String> columns, String column, String reason) {
    return new ConnectException(
        "Table "
            + table
            + " cannot have the identifier columns "
            + String.join(", ", columns)
            + " of "
            + TableConfig.key(table, TableConfig.ID_COLUMNS)
            + ": column \""
            + column
            + "\" cannot be one: "
            + reason
            + ". Fix the setting or the record schema.");
  }
}
