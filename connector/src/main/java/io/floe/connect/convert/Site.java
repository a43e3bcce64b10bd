/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.iceberg.types.Type;

/**
 * Where a converter sits: the field path, the target type and (for schema-driven plans) the Connect
 * type of the source. Built at compile time so that failing per record costs nothing until it
 * happens.
 *
 * @param path the field path
 * @param expected the target type, as shown in messages
 * @param source the Connect type, or null when values come without a schema
 */
record Site(String path, String expected, String source) {

  static Site of(String path, Type target, String source) {
    return new Site(path, Paths.describe(target), source);
  }

  /** A failure for {@code value}, naming its class but never showing it. */
  ConversionException fail(Object value, String reason) {
    String javaClass = value == null ? "null" : value.getClass().getTypeName();
    String actual = source == null ? javaClass : source + " (" + javaClass + ")";
    return new ConversionException(path, expected, actual, reason);
  }

  /** A converter that rejects every value with {@code reason}. */
  ValueConverter rejecting(String reason) {
    return value -> {
      throw fail(value, reason);
    };
  }
}
