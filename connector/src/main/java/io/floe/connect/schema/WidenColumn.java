/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import java.util.Objects;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;

/**
 * Widens a primitive column: int to long, float to double, or decimal(p, s) to decimal(p', s) with
 * p' &gt; p.
 *
 * @param column the column's full name
 * @param from its type in the table
 * @param to the wider type
 */
public record WidenColumn(String column, Type.PrimitiveType from, Type.PrimitiveType to)
    implements SchemaChange {
  /** Checks that {@code to} is a safe widening of {@code from}. */
  public WidenColumn {
    Objects.requireNonNull(column, "column");
    if (!Widening.isSafe(Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to"))) {
      throw new IllegalArgumentException(
          "Widening " + column + " from " + from + " to " + to + " is not a safe widening");
    }
  }

  @Override
  public String describe() {
    return "widen " + column + " from " + from + " to " + to;
  }

  @Override
  public void applyTo(UpdateSchema update) {
    update.updateColumn(column, to);
  }
}
