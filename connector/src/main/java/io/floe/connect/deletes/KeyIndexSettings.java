/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.function.Predicate;

/**
 * Which upsert tables the coordinator keeps a key index for, and how much memory each may take.
 *
 * @param enabledFor whether a table, by its configured name, has an index
 * @param maxBytes the most bytes one table's index may take; an index that would need more is
 *     dropped and its table located by the pruned scan
 * @param budgetSetting the setting that raises {@code maxBytes}, named when an index is dropped
 */
public record KeyIndexSettings(Predicate<String> enabledFor, long maxBytes, String budgetSetting) {

  public KeyIndexSettings {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("a key index needs a budget above 0, not " + maxBytes);
    }
  }

  /** No table has an index. */
  public static KeyIndexSettings off() {
    return new KeyIndexSettings(table -> false, Long.MAX_VALUE, "");
  }
}
