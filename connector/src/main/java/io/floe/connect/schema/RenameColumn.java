/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import java.util.Objects;
import org.apache.iceberg.UpdateSchema;

/**
 * Renames a column; its field id, and so its data and history, stay.
 *
 * @param column the column's full (current) name
 * @param newName its new name, within the same parent
 */
public record RenameColumn(String column, String newName) implements SchemaChange {
  /** Checks that both names are given. */
  public RenameColumn {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(newName, "newName");
  }

  @Override
  public String describe() {
    int dot = column.lastIndexOf('.');
    String renamed = dot < 0 ? newName : column.substring(0, dot + 1) + newName;
    return "rename " + column + " to " + renamed;
  }

  @Override
  public void applyTo(UpdateSchema update) {
    update.renameColumn(column, newName);
  }
}
