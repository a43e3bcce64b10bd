/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.StructLike;

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
  private final boolean noKeys;
  private final List<KeyColumn> columns;
  private final Object[][] keys;

  private KeyBounds(boolean noKeys, List<KeyColumn> columns, Object[][] keys) {
    this.noKeys = noKeys;
    this.columns = columns;
    this.keys = keys;
  }

  static KeyBounds of(RetiredKeys retired) {
    List<KeyColumn> columns = KeyColumn.pruning(retired);
    List<Object[]> keys = new ArrayList<>(retired.size());
    if (!columns.isEmpty()) {
      for (StructLike key : retired) {
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = columns.get(i).value(key);
        }
        keys.add(values);
      }
      Comparator<Object> first = columns.get(0).comparator();
      keys.sort((a, b) -> first.compare(a[0], b[0]));
    }
    return new KeyBounds(retired.isEmpty(), columns, keys.toArray(new Object[0][]));
  }

  /** Whether {@code file} may hold a retired key, as far as its column bounds tell. */
  boolean mayHoldKey(ContentFile<?> file) {
    if (noKeys || columns.isEmpty()) {
      return !noKeys;
    }
    int n = columns.size();
    Object[] lower = new Object[n];
    Object[] upper = new Object[n];
    for (int i = 0; i < n; i++) {
      lower[i] = columns.get(i).bound(file.lowerBounds());
      upper[i] = columns.get(i).bound(file.upperBounds());
    }
    Comparator<Object> first = columns.get(0).comparator();
    for (int k = firstAtLeast(lower[0], first); k < keys.length; k++) {
      if (upper[0] != null && first.compare(keys[k][0], upper[0]) > 0) {
        return false;
      }
      if (withinOtherColumns(keys[k], lower, upper)) {
        return true;
      }
    }
    return false;
  }

  private boolean withinOtherColumns(Object[] key, Object[] lower, Object[] upper) {
    for (int i = 1; i < key.length; i++) {
      Comparator<Object> order = columns.get(i).comparator();
      if (lower[i] != null && order.compare(key[i], lower[i]) < 0
          || upper[i] != null && order.compare(key[i], upper[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /** The index of the first key whose first column is at least {@code lower} (0 when null). */
  private int firstAtLeast(Object lower, Comparator<Object> order) {
    if (lower == null) {
      return 0;
    }
    int low = 0;
    int high = keys.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (order.compare(keys[mid][0], lower) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
