/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.Optional;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What a cycle's changes leave of one key: whether the key's row in the table, if any, must be
 * retired, and the row image to write if the last change was an upsert. Read-only outside {@link
 * KeyedChanges}, which updates it as changes come.
 */
public final class FoldedKey {
  private final RowKey key;
  private final boolean retire;
  private SinkRecord image;

  FoldedKey(RowKey key, boolean retire) {
    this.key = key;
    this.retire = retire;
  }

  public RowKey key() {
    return key;
  }

  /**
   * Whether a row of this key committed before the cycle must be removed: true for every key the
   * cycle changes, unless the cycle truncated the table before the key's first change.
   */
  public boolean retire() {
    return retire;
  }

  /** The record whose value is the key's final row image, if the last change was an upsert. */
  public Optional<SinkRecord> image() {
    return Optional.ofNullable(image);
  }

  void image(SinkRecord image) {
    this.image = image;
  }

  @Override
  public String toString() {
    return key + (retire ? " retire" : "") + (image != null ? " write" : "");
  }
}
