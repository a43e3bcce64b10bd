/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.Objects;

/** Argument checks shared by the event records; each message names the offending field. */
final class Require {

  private Require() {}

  static <T> T present(T value, String field) {
    return Objects.requireNonNull(value, () -> field + " is required");
  }

  static String nonEmpty(String value, String field) {
    present(value, field);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    return value;
  }

  static long nonNegative(long value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must not be negative, was " + value);
    }
    return value;
  }

  static Long nonNegativeOrNull(Long value, String field) {
    if (value != null) {
      nonNegative(value, field);
    }
    return value;
  }

  static long positive(long value, String field) {
    if (value <= 0) {
      throw new IllegalArgumentException(field + " must be positive, was " + value);
    }
    return value;
  }
}
