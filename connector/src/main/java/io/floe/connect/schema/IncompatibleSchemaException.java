/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import io.floe.connect.convert.Paths;
import org.apache.iceberg.types.Type;
import org.apache.kafka.connect.errors.DataException;

/**
 * A record's schema that the table cannot be evolved to take: a field's type is neither the
 * column's, nor one the column already holds (an int into a long column, say), nor a safe widening
 * of it. The record is a bad record. The message names the table, the column and both types, and
 * never holds record values.
 */
public final class IncompatibleSchemaException extends DataException {
  private static final long serialVersionUID = 1L;

  private final String table;
  private final String column;
  private final Type tableType;
  private final Type recordType;

  IncompatibleSchemaException(
      String table, String column, Type tableType, Type recordType, String reason) {
    super(message(table, column, tableType, recordType, reason));
    this.table = table;
    this.column = column;
    this.tableType = tableType;
    this.recordType = recordType;
  }

  private static String message(
      String table, String column, Type tableType, Type recordType, String reason) {
    return "Table "
        + table
        + " cannot take the record's schema: column \""
        + column
        + "\" is "
        + Paths.describe(tableType)
        + " in the table, the record has "
        + (recordType == null ? "no such field" : Paths.describe(recordType))
        + (reason == null ? "" : " (" + reason + ")")
        + ". Floe evolves a column only by adding fields, int to long, float to double,"
        + " decimal(p, s) to a larger precision with the same scale, and required to optional."
        + " Write the field under a new name (an Avro alias keeps the old column), or change the"
        + " table by hand; until then such records go to the bad-record policy.";
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  /** The column's full name in the table, e.g. {@code a.b} or {@code tags.element}. */
  public String column() {
    return column;
  }

  /** The column's type in the table. */
  public Type tableType() {
    return tableType;
  }

  /** The type the record's schema maps to; null if the record has no such field. */
  public Type recordType() {
    return recordType;
  }
}
