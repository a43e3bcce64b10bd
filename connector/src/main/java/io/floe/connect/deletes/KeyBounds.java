/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.IntBinaryOperator;
import org.apache.iceberg.ContentFile;

/**
 * Checks a data file's column bounds against the retired keys themselves: a file needs reading only
 * if some key lies within its bounds on every key column that prunes ({@link KeyColumn}). This
 * rules out the files that Iceberg's planning keeps because an {@code in} list was too long for it
 * to check, or because a composite key's columns matched different keys.
 *
 * <p>The keys are sorted by their first pruning column once; a file then costs a binary search plus
 * a walk over the keys within its bounds on that column.
 */
final class KeyBounds {
  private final RetiredKeys keys;
  private final List<KeyColumn> columns;
  private final int[] sorted;

  private KeyBounds(RetiredKeys keys, List<KeyColumn> columns, int[] sorted) {
    this.keys = keys;
    this.columns = columns;
    this.sorted = sorted;
  }

  static KeyBounds of(RetiredKeys retired) {
    List<KeyColumn> columns = KeyColumn.pruning(retired);
    int[] sorted = new int[columns.isEmpty() ? 0 : retired.size()];
    if (!columns.isEmpty()) {
      KeyColumn first = columns.get(0);
      for (int i = 0; i < sorted.length; i++) {
        sorted[i] = i;
      }
      if (retired.byteOrdered(first.leaf())) {
        long[] prefixes = new long[sorted.length];
        for (int i = 0; i < prefixes.length; i++) {
          prefixes[i] = retired.prefix(i, first.leaf());
        }
        sort(
            sorted,
            (a, b) -> {
              int byPrefix = Long.compareUnsigned(prefixes[a], prefixes[b]);
              return byPrefix != 0 ? byPrefix : retired.compare(a, b, first.leaf());
            });
      } else {
        sort(sorted, (a, b) -> first.compare(retired, a, b));
      }
    }
    return new KeyBounds(retired, columns, sorted);
  }

  /** Whether {@code file} may hold a retired key, as far as its column bounds tell. */
  boolean mayHoldKey(ContentFile<?> file) {
    return mayHoldKey(file.lowerBounds(), file.upperBounds());
  }

  /**
   * Whether rows whose key columns lie within {@code lowerBounds} and {@code upperBounds} (by field
   * id, in Iceberg's single-value serialization; a column without bounds is not bounded) may hold a
   * retired key.
   */
  boolean mayHoldKey(Map<Integer, ByteBuffer> lowerBounds, Map<Integer, ByteBuffer> upperBounds) {
    if (keys.isEmpty() || columns.isEmpty()) {
      return !keys.isEmpty();
    }
    int n = columns.size();
    Bound[] lower = new Bound[n];
    Bound[] upper = new Bound[n];
    for (int i = 0; i < n; i++) {
      lower[i] = bound(columns.get(i), lowerBounds);
      upper[i] = bound(columns.get(i), upperBounds);
    }
    for (int k = firstAtLeast(lower[0]); k < sorted.length; k++) {
      if (upper[0] != null && upper[0].compareWith(sorted[k]) > 0) {
        return false;
      }
      if (withinOtherColumns(sorted[k], lower, upper)) {
        return true;
      }
    }
    return false;
  }

  private boolean withinOtherColumns(int key, Bound[] lower, Bound[] upper) {
    for (int i = 1; i < columns.size(); i++) {
      if (lower[i] != null && lower[i].compareWith(key) < 0
          || upper[i] != null && upper[i].compareWith(key) > 0) {
        return false;
      }
    }
    return true;
  }

  /** The index in {@link #sorted} of the first key whose first column is at least {@code lower}. */
  private int firstAtLeast(Bound lower) {
    if (lower == null) {
      return 0;
    }
    int low = 0;
    int high = sorted.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (lower.compareWith(sorted[mid]) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private Bound bound(KeyColumn column, Map<Integer, ByteBuffer> bounds) {
    Object value = column.bound(bounds);
    if (value == null) {
      return null;
    }
    byte[] encoded = keys.byteOrdered(column.leaf()) ? keys.encode(column.leaf(), value) : null;
    return new Bound(column, value, encoded);
  }

  /** A file's bound on one column, compared with the keys' values of it. */
  private final class Bound {
    private final KeyColumn column;
    private final Object value;
    private final byte[] encoded;

    Bound(KeyColumn column, Object value, byte[] encoded) {
      this.column = column;
      this.value = value;
      this.encoded = encoded;
    }

    /** The sign of the key's value of the column minus this bound, in Iceberg's order. */
    int compareWith(int key) {
      return encoded != null
          ? keys.compareTo(key, column.leaf(), encoded)
          : column.comparator().compare(column.value(keys, key), value);
    }
  }

  /** Sorts {@code values} by {@code order}, stably (a merge sort: no boxing of the numbers). */
  private static void sort(int[] values, IntBinaryOperator order) {
    int[] from = values;
    int[] to = new int[values.length];
    for (int width = 1; width < values.length; width *= 2) {
      for (int low = 0; low < values.length; low += 2 * width) {
        int mid = Math.min(low + width, values.length);
        int high = Math.min(low + 2 * width, values.length);
        int i = low;
        int j = mid;
        for (int k = low; k < high; k++) {
          to[k] =
              j >= high || i < mid && order.applyAsInt(from[i], from[j]) <= 0
                  ? from[i++]
                  : from[j++];
        }
      }
      int[] swap = from;
      from = to;
      to = swap;
    }
    if (from != values) {
      System.arraycopy(from, 0, values, 0, values.length);
    }
  }
}
