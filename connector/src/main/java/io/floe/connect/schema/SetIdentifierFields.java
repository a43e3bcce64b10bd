/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import io.floe.connect.catalog.IdentifierColumns;
import java.util.HashSet;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;

/**
 * Sets the table's identifier fields (Iceberg schema metadata naming the columns that identify a
 * row) to the given columns, replacing the previous ones.
 *
 * @param columns the columns' full names
 */
public record SetIdentifierFields(List<String> columns) implements SchemaChange {
  /** Copies the columns. */
  public SetIdentifierFields {
    columns = List.copyOf(columns);
  }

  /**
   * What a table needs so that its identifier fields are {@code columns}: nothing when they already
   * are, or when no column is given (the table's own stay); otherwise this change.
   *
   * @param table the table's name, for messages
   * @param schema the table's current schema
   * @param columns the configured identifier columns ({@code iceberg.table.<table>.id-columns})
   * @throws org.apache.kafka.connect.errors.ConnectException if a column cannot be an identifier
   *     field of {@code schema}: it is missing, optional, not primitive, floating point, or in a
   *     list, map or optional struct
   */
  public static List<SchemaChange> toMatch(String table, Schema schema, List<String> columns) {
    if (columns.isEmpty() || schema.identifierFieldNames().equals(new HashSet<>(columns))) {
      return List.of();
    }
    IdentifierColumns.check(table, schema, columns);
    return List.of(new SetIdentifierFields(columns));
  }

  @Override
  public String describe() {
    return "set the identifier fields to " + String.join(", ", columns);
  }

  @Override
  public void applyTo(UpdateSchema update) {
    update.setIdentifierFields(columns);
  }
}
