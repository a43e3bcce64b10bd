/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A dotted path into a record value ({@code customer.id}), through Connect structs and the maps of
 * schemaless values; split once.
 */
final class FieldPath {
  /** What {@link #in} returns when the path does not exist, as opposed to holding null. */
  static final Object MISSING = new Object();

  private final String path;
  private final List<String> names;

  private FieldPath(String path, List<String> names) {
    this.path = path;
    this.names = names;
  }

  /**
   * The path.
   *
   * @throws IllegalArgumentException if it is blank or has an empty segment
   */
  static FieldPath of(String path) {
    if (path.isBlank()) {
      throw new IllegalArgumentException("a field path must not be empty");
    }
    List<String> names = List.of(path.split("\\.", -1));
    if (names.contains("")) {
      throw new IllegalArgumentException("field path '" + path + "' has an empty segment");
    }
    return new FieldPath(path, names);
  }

  List<String> names() {
    return names;
  }

  /**
   * The value at this path in {@code value}: null if it or a struct on the way is null, {@link
   * #MISSING} if a struct or map on the way has no such field, or something that is neither is in
   * the way.
   */
  Object in(Object value) {
    Object current = value;
    for (String name : names) {
      if (current == null) {
        return null;
      }
      current = child(current, name);
      if (current == MISSING) {
        return MISSING;
      }
    }
    return current;
  }

  /** Field {@code name} of a struct or key {@code name} of a map, else {@link #MISSING}. */
  static Object child(Object container, String name) {
    if (container instanceof Struct struct) {
      Field field = struct.schema().field(name);
      return field == null ? MISSING : struct.getWithoutDefault(name);
    }
    if (container instanceof Map<?, ?> map) {
      return map.containsKey(name) ? map.get(name) : MISSING;
    }
    return MISSING;
  }

  @Override
  public String toString() {
    return path;
  }
}
