/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Infers Iceberg schemas from schemaless values, as JsonConverter produces them with {@code
 * schemas.enable=false}. Deterministic: equal values give equal schemas, whatever the order of
 * their map entries.
 *
 * <ul>
 *   <li>{@code Map} with string keys → struct, fields sorted by name; {@code List} → list of the
 *       elements' common type;
 *   <li>{@code Long}/{@code Integer}/{@code Short}/{@code Byte} → long; {@code Double}/{@code
 *       Float} → double; {@code BigDecimal} → decimal(38, its scale), {@code BigInteger} →
 *       decimal(38, 0); {@code Boolean} → boolean; {@code String} → string; {@code byte[]}/{@code
 *       ByteBuffer} → binary;
 *   <li>a null, an empty or all-null list, or a map without typed values says nothing about its
 *       type and gets no column: schema evolution adds it once a typed value arrives;
 *   <li>values of different types in one list (long and double included) are a conflict, never
 *       widened;
 *   <li>every column is optional.
 * </ul>
 */
public final class SchemaInference {
  private SchemaInference() {}

  /**
   * The table schema for a schemaless record value, with fresh ids.
   *
   * @throws ConversionException if the value is not a map, holds conflicting or unsupported types,
   *     or has no field with a typed value
   */
  public static org.apache.iceberg.Schema inferSchema(Object value) {
    if (!(value instanceof Map<?, ?>)) {
      throw new ConversionException(
          ConversionException.ROOT,
          "struct (a map)",
          value == null ? "null" : value.getClass().getTypeName(),
          "a schemaless record value must be a map to become a table row");
    }
    Type type = Inferred.of(value, "", 0).toIceberg(new AtomicInteger());
    if (type == null) {
      throw new ConversionException(
          ConversionException.ROOT,
          "struct with at least one typed field",
          value.getClass().getTypeName(),
          "every field is null, an empty list or an empty map");
    }
    AtomicInteger ids = new AtomicInteger();
    Types.StructType struct = type.asStructType();
    return TypeUtil.assignFreshIds(
        new org.apache.iceberg.Schema(struct.fields()), ids::incrementAndGet);
  }

  /**
   * The column type for one schemaless value, with ids counted from 1, or null if the value carries
   * no type (null, empty list, ...).
   */
  public static Type inferType(Object value) {
    Type type = Inferred.of(value, "", 0).toIceberg(new AtomicInteger());
    if (type == null) {
      return null;
    }
    AtomicInteger ids = new AtomicInteger();
    return TypeUtil.assignFreshIds(type, ids::incrementAndGet);
  }
}
