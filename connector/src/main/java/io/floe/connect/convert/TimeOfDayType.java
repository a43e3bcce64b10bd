/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

/**
 * The Iceberg type that time-of-day fields (Connect {@code Time}, Debezium {@code Time}/{@code
 * MicroTime}/{@code NanoTime}, Avro {@code time-millis}/{@code time-micros}) get when Floe creates
 * their column. Values always follow the column's actual type, whatever this says.
 */
public enum TimeOfDayType {
  /**
   * Iceberg {@code time}: microseconds since midnight, typed as a time of day. Apache Spark refuses
   * a table that has such a column.
   */
  TIME,
  /**
   * Iceberg {@code long} holding microseconds since midnight, which every engine reads: the
   * default.
   */
  LONG_MICROS
}
