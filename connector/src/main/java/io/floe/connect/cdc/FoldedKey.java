/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

/**
 * What a cycle's changes leave of one key: whether the key's row in the table, if any, must be
 * retired, and where the cycle wrote the key's final row image, if the last change was an upsert.
 * Read-only outside {@link KeyedChanges}, which updates it as changes come.
 *
 * @param <K> the form the caller keeps the key in besides its {@link RowKey} (a converted row, say)
 */
public final class FoldedKey<K> {
  private final RowKey key;
  private final boolean retire;
  private K converted;
  private long row = KeyedChanges.NO_ROW;

  FoldedKey(RowKey key, boolean retire) {
    this.key = key;
    this.retire = retire;
  }

  public RowKey key() {
    return key;
  }

  /** The key in the caller's form, as its last change gave it. */
  public K converted() {
    return converted;
  }

  /**
   * Whether a row of this key committed before the cycle must be removed: true for every key the
   * cycle changes, unless the cycle truncated the table before the key's first change.
   */
  public boolean retire() {
    return retire;
  }

  /**
   * Where the cycle wrote the key's final image (a number the caller gave with the upsert), or
   * {@link KeyedChanges#NO_ROW} if the last change deleted the key.
   */
  public long row() {
    return row;
  }

  /** Sets the key's row and returns the one it had. */
  long row(long newRow, K newConverted) {
    long old = row;
    row = newRow;
    converted = newConverted;
    return old;
  }

  @Override
  public String toString() {
    return key + (retire ? " retire" : "") + (row != KeyedChanges.NO_ROW ? " row " + row : "");
  }
}
