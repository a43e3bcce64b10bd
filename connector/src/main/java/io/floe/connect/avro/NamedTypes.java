/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.Schema;

/**
 * The named types (records, enums, fixed) of one Avro schema being built, which Avro allows to be
 * defined once each, and valid Avro names. Not thread-safe.
 */
final class NamedTypes {
  private final Map<String, Schema> defined = new HashMap<>();

  /**
   * Defines a named type once: a second definition equal to the first is the first; a different one
   * under the same name gets the name with a numeric suffix ({@code _2}, {@code _3}, ...).
   *
   * @param create makes the type for a full name
   */
  Schema define(String fullName, Function<String, Schema> create) {
    Schema schema = create.apply(fullName);
    for (int suffix = 2; ; suffix++) {
      Schema existing = defined.get(schema.getFullName());
      if (existing == null) {
        defined.put(schema.getFullName(), schema);
        return schema;
      }
      if (existing.equals(schema)) {
        return existing;
      }
      schema = create.apply(fullName + "_" + suffix);
    }
  }

  /**
   * A valid Avro full name: each dotted part of letters, digits and {@code _}, not a digit first.
   */
  static String validName(String name) {
    String[] parts = name.split("\\.", -1);
    StringBuilder valid = new StringBuilder(name.length() + 2);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        valid.append('.');
      }
      String part = parts[i].replaceAll("[^A-Za-z0-9_]", "_");
      if (part.isEmpty() || Character.isDigit(part.charAt(0))) {
        part = "_" + part;
      }
      valid.append(part);
    }
    return valid.toString();
  }

  static String simpleName(String fullName) {
    return fullName.substring(fullName.lastIndexOf('.') + 1);
  }

  static String namespace(String fullName) {
    int dot = fullName.lastIndexOf('.');
    return dot < 0 ? null : fullName.substring(0, dot);
  }
}
