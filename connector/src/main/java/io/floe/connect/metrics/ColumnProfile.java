/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The distribution profile of one column of a table with a contract, kept by the coordinator from
 * the column metrics of each commit's data files: MBean {@code
 * io.floe:type=column-profile,connector=<c>,table=<t>,column=<column>}. Updated on the coordinator
 * thread, read from any.
 */
final class ColumnProfile implements AutoCloseable {
  static final String TYPE = "column-profile";

  private volatile long lastRows = TableMetrics.UNKNOWN;
  private volatile long lastNulls = TableMetrics.UNKNOWN;
  private volatile long lastNans = TableMetrics.UNKNOWN;
  private volatile long rows;
  private volatile long nulls;
  private final MetricsRegistry.Registration registration;

  ColumnProfile(MetricsRegistry registry, String table, String column) {
    GaugeSet gauges =
        new GaugeSet()
            .add("last-commit-rows", "Rows the last commit appended, -1 before it", () -> lastRows)
            .add(
                "last-commit-nulls",
                "Nulls of the column in the rows the last commit appended, -1 if unknown",
                () -> lastNulls)
            .add(
                "last-commit-null-fraction-ppm",
                "Nulls per million rows the last commit appended, -1 if unknown",
                this::nullFractionPpm)
            .add(
                "last-commit-nans",
                "NaNs of the column in the rows the last commit appended, -1 if unknown or no"
                    + " floats",
                () -> lastNans)
            .add("rows-profiled", "Rows appended since the coordinator started", () -> rows)
            .add(
                "nulls-profiled",
                "Nulls of the column appended since the coordinator started (commits whose files"
                    + " counted them)",
                () -> nulls);
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("table", table);
    keys.put("column", column);
    this.registration =
        registry.register(
            TYPE, keys, keys, "Profile of column " + column + " of table " + table, gauges);
  }

  synchronized void profiled(long rows, ColumnCounts counts) {
    lastRows = rows;
    lastNulls = counts.nulls();
    lastNans = counts.nans();
    this.rows += rows;
    if (counts.nulls() >= 0) {
      nulls += counts.nulls();
    }
  }

  private long nullFractionPpm() {
    long r = lastRows;
    long n = lastNulls;
    return r <= 0 || n < 0 ? TableMetrics.UNKNOWN : Math.round(n * 1e6 / r);
  }

  @Override
  public void close() {
    registration.close();
  }
}
