/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

/**
 * Converts one non-null Connect value to its Iceberg generic representation. Instances are built
 * once per plan and hold no per-record state.
 */
@FunctionalInterface
interface ValueConverter {
  /**
   * Converts {@code value}, which is never null.
   *
   * @throws ConversionException if the value does not fit the target type
   */
  Object convert(Object value);
}
