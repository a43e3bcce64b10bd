/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.route;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A dotted path into a record value ({@code source.table}), through Connect structs and maps
 * (schemaless values). The path is split once; extraction walks it without copying.
 */
public final class RouteField {
  private final String path;
  private final String[] segments;

  private RouteField(String path, String[] segments) {
    this.path = path;
    this.segments = segments;
  }

  public static RouteField of(String path) {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("a route field path must not be empty");
    }
    String[] segments = path.split("\\.", -1);
    for (String segment : segments) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("route field '" + path + "' has an empty segment");
      }
    }
    return new RouteField(path, segments);
  }

  public String path() {
    return path;
  }

  List<String> segments() {
    return List.of(segments);
  }

  /**
   * The value at the path, as a string; empty when the path is missing or its value is null.
   *
   * @throws IllegalArgumentException when the path reaches something that is not a struct or map
   *     before its end, or ends on a struct, map or list (no table name can be taken from those)
   */
  public Optional<String> extract(Object value) {
    Object current = value;
    for (String segment : segments) {
      if (current == null) {
        return Optional.empty();
      }
      if (current instanceof Struct struct) {
        Field field = struct.schema().field(segment);
        if (field == null) {
          return Optional.empty();
        }
        current = struct.get(field);
      } else if (current instanceof Map<?, ?> map) {
        current = map.get(segment);
      } else {
        throw new IllegalArgumentException(
            "route field '" + path + "' goes through a " + kind(current) + " at '" + segment + "'");
      }
    }
    if (current == null) {
      return Optional.empty();
    }
    if (current instanceof Struct || current instanceof Map || current instanceof List) {
      throw new IllegalArgumentException(
          "route field '" + path + "' holds a " + kind(current) + ", not a scalar");
    }
    return Optional.of(current.toString());
  }

  private static String kind(Object value) {
    if (value instanceof Struct) {
      return "struct";
    }
    if (value instanceof Map) {
      return "map";
    }
    if (value instanceof List) {
      return "list";
    }
    return value.getClass().getSimpleName();
  }

  @Override
  public String toString() {
    return path;
  }
}
