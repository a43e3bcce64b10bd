/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import io.floe.connect.convert.Paths;
import java.util.Objects;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;

/**
 * Adds an optional column. A new struct is one column of the whole struct type, with its own fields
 * as the record declares them.
 *
 * @param parent the full name of the struct that gets the column (for a struct in a list or map,
 *     {@code x.element} or {@code x.value}), or null for a top-level column
 * @param name the new column's name
 * @param type its type; the ids in it do not matter, {@code UpdateSchema} assigns new ones
 * @param doc the column doc, or null
 */
public record AddColumn(String parent, String name, Type type, String doc) implements SchemaChange {
  /** Checks that name and type are given. */
  public AddColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** The new column's full name. */
  public String column() {
    return Paths.column(parent, name);
  }

  @Override
  public String describe() {
    return "add optional column " + column() + " " + type;
  }

  @Override
  public void applyTo(UpdateSchema update) {
    if (parent == null) {
      update.addColumn(name, type, doc);
    } else {
      update.addColumn(parent, name, type, doc);
    }
  }
}
