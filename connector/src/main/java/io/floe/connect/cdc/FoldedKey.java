/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

/**
 * What a cycle's changes leave of one key: whether the key's row in the table, if any, must be
 * retired, and where the cycle wrote the key's final row image, if the last change was an upsert. A
 * view of one entry of a {@link KeyedChanges}, reading it from the fold when asked.
 *
 * @param <K> the form the caller keeps the key in besides its {@link RowKey} (a converted row, say)
 */
public final class FoldedKey<K> {
  private final KeyedChanges<K> fold;
  private final int entry;

  FoldedKey(KeyedChanges<K> fold, int entry) {
    this.fold = fold;
    this.entry = entry;
  }

  /** The key, read from the fold. */
  public RowKey key() {
    return fold.key(entry);
  }

  /** The key in the caller's form, as its last change gave it, read from the fold. */
  public K converted() {
    return fold.converted(entry);
  }

  /**
   * Whether a row of this key committed before the cycle must be removed: true for every key the
   * cycle changes, unless the cycle truncated the table before the key's first change.
   */
  public boolean retire() {
    return fold.retire(entry);
  }

  /**
   * Where the cycle wrote the key's final image (a number the caller gave with the upsert), or
   * {@link KeyedChanges#NO_ROW} if the last change deleted the key.
   */
  public long row() {
    return fold.row(entry);
  }

  @Override
  public String toString() {
    long row = row();
    return key() + (retire() ? " retire" : "") + (row != KeyedChanges.NO_ROW ? " row " + row : "");
  }
}
