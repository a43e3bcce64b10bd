/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/** The safe widenings of primitive columns: int to long, float to double, decimal precision up. */
final class Widening {
  private Widening() {}

  /** Whether a column of type {@code from} may become {@code to} without rewriting data. */
  static boolean isSafe(Type.PrimitiveType from, Type.PrimitiveType to) {
    return switch (from.typeId()) {
      case INTEGER -> to.typeId() == Type.TypeID.LONG;
      case FLOAT -> to.typeId() == Type.TypeID.DOUBLE;
      case DECIMAL -> {
        if (to.typeId() != Type.TypeID.DECIMAL) {
          yield false;
        }
        Types.DecimalType a = (Types.DecimalType) from;
        Types.DecimalType b = (Types.DecimalType) to;
        yield a.scale() == b.scale() && b.precision() > a.precision();
      }
      default -> false;
    };
  }

  /** Whether a column of type {@code column} already holds every value of type {@code values}. */
  static boolean holds(Type.PrimitiveType column, Type.PrimitiveType values) {
    return column.equals(values) || isSafe(values, column);
  }
}
