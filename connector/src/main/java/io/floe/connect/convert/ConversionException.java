/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.kafka.connect.errors.DataException;

/**
 * A value or schema that cannot be converted to the table's type.
 *
 * <p>The message names the field path (for example {@code customer.addresses[].zip}), the expected
 * table type and the offending Connect type or Java class, but never the value: values can be
 * secrets or personal data. For the same reason no cause is attached, since the messages of JDK
 * parse exceptions quote their input. The caller adds topic, partition and offset.
 *
 * <p>Path notation: {@code a.b} is field {@code b} of struct {@code a}, {@code a[]} an element of
 * list {@code a}, {@code a{key}} and {@code a{value}} a key and a value of map {@code a}; {@code
 * (root)} is the record value itself.
 */
public final class ConversionException extends DataException {
  private static final long serialVersionUID = 1L;

  /** The path shown for the record value itself. */
  public static final String ROOT = "(root)";

  private final String path;
  private final String expectedType;
  private final String actualType;

  /**
   * Creates the exception.
   *
   * @param path the field path, {@link #ROOT} or empty for the record value itself
   * @param expectedType the table type (or what the conversion expected)
   * @param actualType the Connect type and/or Java class that was found
   * @param reason why they do not fit, without the value
   */
  public ConversionException(String path, String expectedType, String actualType, String reason) {
    super(message(path, expectedType, actualType, reason));
    this.path = path == null || path.isEmpty() ? ROOT : path;
    this.expectedType = expectedType;
    this.actualType = actualType;
  }

  private static String message(String path, String expected, String actual, String reason) {
    String shown = path == null || path.isEmpty() ? ROOT : path;
    return "Cannot convert field '"
        + shown
        + "': expected "
        + expected
        + ", got "
        + actual
        + ": "
        + reason;
  }

  /** The field path, e.g. {@code customer.addresses[].zip}. */
  public String path() {
    return path;
  }

  /** The expected table type, e.g. {@code decimal(10, 2)}. */
  public String expectedType() {
    return expectedType;
  }

  /** The Connect type and/or Java class found. */
  public String actualType() {
    return actualType;
  }
}
