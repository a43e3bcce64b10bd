/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import java.util.Objects;
import org.apache.iceberg.UpdateSchema;

/**
 * Makes a required column optional (also a list element, {@code x.element}, or a map value, {@code
 * x.value}).
 *
 * @param column the column's full name
 */
public record MakeOptional(String column) implements SchemaChange {
  /** Checks that the column is given. */
  public MakeOptional {
    Objects.requireNonNull(column, "column");
  }

  @Override
  public String describe() {
    return "make " + column + " optional";
  }

  @Override
  public void applyTo(UpdateSchema update) {
    update.makeColumnOptional(column);
  }
}
