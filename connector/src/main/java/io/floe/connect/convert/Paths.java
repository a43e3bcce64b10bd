/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.iceberg.types.Type;
import org.apache.kafka.connect.data.Schema;

/** Field paths as shown in messages, Iceberg column names, and short type descriptions. */
public final class Paths {
  private Paths() {}

  static String field(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }

  static String element(String parent) {
    return parent + "[]";
  }

  static String mapKey(String parent) {
    return parent + "{key}";
  }

  static String mapValue(String parent) {
    return parent + "{value}";
  }

  /**
   * An Iceberg column name below {@code parent} (null for the top level), as {@code
   * Schema.findField} and {@code UpdateSchema} accept it.
   */
  public static String column(String parent, String name) {
    return parent == null ? name : parent + "." + name;
  }

  /** The type without nested detail, so messages stay short. */
  public static String describe(Type type) {
    if (type.isPrimitiveType()) {
      return type.toString();
    }
    return type.typeId().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The Connect type, with its logical name if any. */
  static String describe(Schema schema) {
    String optional = schema.isOptional() ? "optional " : "";
    String name = schema.name() == null ? "" : " " + schema.name();
    return "Connect " + optional + schema.type() + name;
  }
}
