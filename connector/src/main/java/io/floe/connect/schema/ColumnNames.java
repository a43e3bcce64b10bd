/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.DataException;

/**
 * The names a record may give new columns. Any name Iceberg can store is kept as it is (dots,
 * spaces, non-ASCII letters, leading digits: columns are resolved by field id), except two kinds
 * that engines cannot read back unambiguously:
 *
 * <ul>
 *   <li>a top-level name of one of Iceberg's metadata columns ({@code _file}, {@code _pos}, {@code
 *       _partition}, {@code _spec_id}, {@code _deleted}, {@code _row_id}, ...), in any case:
 *       queries would see the metadata column instead;
 *   <li>two fields of one struct whose names differ only in case ({@code ID} and {@code id}):
 *       case-insensitive engines (Spark's default, Trino, Hive) cannot tell them apart.
 * </ul>
 *
 * Such a record is a bad record; the table is left unchanged. Names already in a table are not
 * checked again, so a table made elsewhere keeps working.
 */
public final class ColumnNames {
  private ColumnNames() {}

  /**
   * Checks the columns {@code after} adds to or renames in {@code before}.
   *
   * @param table the table's name, for the message
   * @param before the table's schema now, or null for a table about to be created
   * @param after the schema the table would get
   * @throws DataException naming the column(s) at fault
   */
  public static void checkNew(String table, Schema before, Schema after) {
    for (Types.NestedField field : after.columns()) {
      if (isNew(before, field) && isMetadataColumnName(field.name())) {
        throw new DataException(
            "Table "
                + table
                + " cannot take the record's schema: \""
                + field.name()
                + "\" is the name of an Iceberg metadata column, which queries would read instead"
                + " of the data. Rename the field (for example with Connect's ReplaceField"
                + " transform); until then such records go to the bad-record policy.");
      }
    }
    checkCase(table, before, after.asStruct(), "");
  }

  private static void checkCase(String table, Schema before, Type type, String path) {
    switch (type.typeId()) {
      case STRUCT -> {
        Map<String, Types.NestedField> byLowerCase = new HashMap<>();
        for (Types.NestedField field : type.asStructType().fields()) {
          Types.NestedField other =
              byLowerCase.putIfAbsent(field.name().toLowerCase(Locale.ROOT), field);
          if (other != null && (isNew(before, field) || isNew(before, other))) {
            throw new DataException(
                "Table "
                    + table
                    + " cannot take the record's schema: fields \""
                    + path
                    + other.name()
                    + "\" and \""
                    + path
                    + field.name()
                    + "\" differ only in case, and engines that ignore case cannot tell such"
                    + " columns apart. Rename one of them (for example with Connect's"
                    + " ReplaceField transform); until then such records go to the bad-record"
                    + " policy.");
          }
          checkCase(table, before, field.type(), path + field.name() + ".");
        }
      }
      case LIST -> checkCase(table, before, type.asListType().elementType(), trim(path) + "[].");
      case MAP -> {
        checkCase(table, before, type.asMapType().keyType(), trim(path) + "{key}.");
        checkCase(table, before, type.asMapType().valueType(), trim(path) + "{value}.");
      }
      default -> {}
    }
  }

  private static String trim(String path) {
    return path.isEmpty() ? path : path.substring(0, path.length() - 1);
  }

  private static boolean isNew(Schema before, Types.NestedField field) {
    if (before == null) {
      return true;
    }
    Types.NestedField existing = before.findField(field.fieldId());
    return existing == null || !existing.name().equals(field.name());
  }

  private static boolean isMetadataColumnName(String name) {
    return MetadataColumns.isMetadataColumn(name)
        || MetadataColumns.isMetadataColumn(name.toLowerCase(Locale.ROOT));
  }
}
