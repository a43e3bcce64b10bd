/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * The row filter that every row holding a retired key passes: per key column, the column's values
 * among the keys ({@code in}) and their range. For a one-column key this is exact; for a composite
 * key it over-approximates (a row may pass with each column's value taken from another key), which
 * only costs reading a file in vain, never missing a row.
 *
 * <p>Planning a scan with it lets Iceberg prune files by partition (identity, bucket, truncate and
 * time transforms of a key column) and by column bounds. Iceberg checks an {@code in} list against
 * bounds only up to 200 values, so the range is added for longer lists; {@link KeyBounds} then
 * checks each planned file against the keys themselves. Past {@link #MAX_IN_VALUES} distinct values
 * a column is filtered by its range alone: a long list prunes no more partitions (a bucket
 * transform has few values to hit) and costs much, as Iceberg writes the filter into each scan's
 * report and binds it for every file it reads.
 */
final class KeyFilter {
  /** The most values of a column listed in an {@code in} filter. */
  static final int MAX_IN_VALUES = 1_000;

  private KeyFilter() {}

  /** The filter for {@code keys}: false when there are none, true when no key column prunes. */
  static Expression of(RetiredKeys keys) {
    if (keys.isEmpty()) {
      return Expressions.alwaysFalse();
    }
    Expression filter = Expressions.alwaysTrue();
    for (KeyColumn column : KeyColumn.pruning(keys)) {
      filter = Expressions.and(filter, column(column, keys));
    }
    return filter;
  }

  private static Expression column(KeyColumn column, RetiredKeys keys) {
    TreeSet<Object> values = new TreeSet<>(column.comparator());
    int least = 0;
    int most = 0;
    for (int key = 0; key < keys.size(); key++) {
      if (column.compare(keys, key, least) < 0) {
        least = key;
      }
      if (column.compare(keys, key, most) > 0) {
        most = key;
      }
      if (values.size() <= MAX_IN_VALUES) {
        values.add(column.value(keys, key));
      }
    }
    String name = column.name();
    Expression range =
        Expressions.and(
            Expressions.greaterThanOrEqual(name, column.value(keys, least)),
            Expressions.lessThanOrEqual(name, column.value(keys, most)));
    if (values.size() > MAX_IN_VALUES) {
      return range;
    }
    Expression in = Expressions.in(name, List.copyOf(values));
    return values.size() == 1 ? in : Expressions.and(in, range);
  }
}
