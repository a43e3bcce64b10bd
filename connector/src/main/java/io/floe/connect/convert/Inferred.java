/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The type of one schemaless value, before it becomes an Iceberg type. {@code NULL} is a value
 * whose type is unknown; it merges with anything, and a field that stays unknown gets no column.
 * Struct fields are kept sorted by name, so the result does not depend on map order.
 */
final class Inferred {
  enum Kind {
    NULL,
    LONG,
    DOUBLE,
    DECIMAL,
    BOOLEAN,
    STRING,
    BINARY,
    LIST,
    STRUCT
  }

  static final Inferred UNKNOWN = new Inferred(Kind.NULL, "null", 0, 0, null, null);

  private final Kind kind;
  private final String javaClass;
  private final int scale;
  private final int integerDigits;
  private final Inferred element;
  private final TreeMap<String, Inferred> fields;

  private Inferred(
      Kind kind,
      String javaClass,
      int scale,
      int integerDigits,
      Inferred element,
      TreeMap<String, Inferred> fields) {
    this.kind = kind;
    this.javaClass = javaClass;
    this.scale = scale;
    this.integerDigits = integerDigits;
    this.element = element;
    this.fields = fields;
  }

  private static Inferred leaf(Kind kind, Object value) {
    return new Inferred(kind, value.getClass().getTypeName(), 0, 0, null, null);
  }

  /** Infers the type of {@code value}; {@code path} names it in errors. */
  static Inferred of(Object value, String path, int depth) {
    if (value == null) {
      return UNKNOWN;
    }
    if (depth > ConnectSchemas.MAX_DEPTH) {
      throw new ConversionException(
          path,
          "at most " + ConnectSchemas.MAX_DEPTH + " levels of nesting",
          value.getClass().getTypeName(),
          "too deep");
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return leaf(Kind.LONG, value);
    }
    if (value instanceof Double || value instanceof Float) {
      return leaf(Kind.DOUBLE, value);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal(decimal, value, path);
    }
    if (value instanceof BigInteger integer) {
      return decimal(new BigDecimal(integer), value, path);
    }
    if (value instanceof Boolean) {
      return leaf(Kind.BOOLEAN, value);
    }
    if (value instanceof CharSequence) {
      return leaf(Kind.STRING, value);
    }
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return leaf(Kind.BINARY, value);
    }
    if (value instanceof List<?> list) {
      Inferred merged = UNKNOWN;
      String elementPath = Paths.element(path);
      for (Object item : list) {
        merged = merge(merged, of(item, elementPath, depth + 1), elementPath);
      }
      return new Inferred(Kind.LIST, value.getClass().getTypeName(), 0, 0, merged, null);
    }
    if (value instanceof Map<?, ?> map) {
      TreeMap<String, Inferred> fields = new TreeMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String name)) {
          Object key = entry.getKey();
          throw new ConversionException(
              path,
              "struct (a map with string keys)",
              key == null ? "null key" : "key of " + key.getClass().getTypeName(),
              "schemaless maps become structs, whose field names are strings");
        }
        fields.put(name, of(entry.getValue(), Paths.field(path, name), depth + 1));
      }
      return new Inferred(Kind.STRUCT, value.getClass().getTypeName(), 0, 0, null, fields);
    }
    throw new ConversionException(
        path,
        "a JSON-like value (number, boolean, string, bytes, list, map)",
        value.getClass().getTypeName(),
        "cannot infer a column type from this class");
  }

  private static Inferred decimal(BigDecimal decimal, Object value, String path) {
    int scale = Math.max(decimal.scale(), 0);
    long integerDigits =
        decimal.signum() == 0 ? 1 : Math.max((long) decimal.precision() - decimal.scale(), 1);
    return checkedDecimal(value.getClass().getTypeName(), scale, integerDigits, path);
  }

  private static Inferred checkedDecimal(
      String javaClass, int scale, long integerDigits, String path) {
    if (scale + integerDigits > Decimals.MAX_PRECISION) {
      throw new ConversionException(
          path,
          "decimal(38, scale)",
          javaClass,
          "needs more than 38 digits (integer digits plus the largest scale seen)");
    }
    return new Inferred(Kind.DECIMAL, javaClass, scale, (int) integerDigits, null, null);
  }

  /** The common type of two values at {@code path}; different kinds are a conflict. */
  static Inferred merge(Inferred a, Inferred b, String path) {
    if (a.kind == Kind.NULL) {
      return b;
    }
    if (b.kind == Kind.NULL) {
      return a;
    }
    if (a.kind != b.kind) {
      throw new ConversionException(
          path,
          a.describe() + " (as an earlier value)",
          b.describe() + " (" + b.javaClass + ")",
          "values of one field or list must share a type");
    }
    return switch (a.kind) {
      case DECIMAL ->
          checkedDecimal(
              a.javaClass,
              Math.max(a.scale, b.scale),
              Math.max(a.integerDigits, b.integerDigits),
              path);
      case LIST ->
          new Inferred(
              Kind.LIST, a.javaClass, 0, 0, merge(a.element, b.element, Paths.element(path)), null);
      case STRUCT -> mergeStructs(a, b, path);
      default -> a;
    };
  }

  private static Inferred mergeStructs(Inferred a, Inferred b, String path) {
    TreeMap<String, Inferred> fields = new TreeMap<>(a.fields);
    for (Map.Entry<String, Inferred> entry : b.fields.entrySet()) {
      String name = entry.getKey();
      Inferred mine = fields.get(name);
      fields.put(
          name,
          mine == null ? entry.getValue() : merge(mine, entry.getValue(), Paths.field(path, name)));
    }
    return new Inferred(Kind.STRUCT, a.javaClass, 0, 0, null, fields);
  }

  /**
   * The Iceberg type, every field optional, or null if nothing is known: a null, an empty or
   * all-null list, a map whose values are all unknown.
   */
  Type toIceberg(AtomicInteger ids) {
    return switch (kind) {
      case NULL -> null;
      case LONG -> Types.LongType.get();
      case DOUBLE -> Types.DoubleType.get();
      case DECIMAL -> Types.DecimalType.of(Decimals.MAX_PRECISION, scale);
      case BOOLEAN -> Types.BooleanType.get();
      case STRING -> Types.StringType.get();
      case BINARY -> Types.BinaryType.get();
      case LIST -> {
        Type elementType = element.toIceberg(ids);
        yield elementType == null
            ? null
            : Types.ListType.ofOptional(ids.incrementAndGet(), elementType);
      }
      case STRUCT -> struct(ids);
    };
  }

  private Types.StructType struct(AtomicInteger ids) {
    List<Types.NestedField> columns = new ArrayList<>(fields.size());
    for (Map.Entry<String, Inferred> entry : fields.entrySet()) {
      Type type = entry.getValue().toIceberg(ids);
      if (type != null) {
        columns.add(Types.NestedField.optional(ids.incrementAndGet(), entry.getKey(), type));
      }
    }
    return columns.isEmpty() ? null : Types.StructType.of(columns);
  }

  private String describe() {
    return switch (kind) {
      case DECIMAL -> "decimal";
      case STRUCT -> "struct (a map)";
      default -> kind.name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
