/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

/**
 * How far a source partition got since the last hand-over, advanced in place for each record (a
 * {@link SourcePosition} once handed over).
 */
final class SourceTracker {
  private final long firstOffset;
  private long nextOffset;
  private long maxTimestampMs;

  SourceTracker(long offset, long timestampMs) {
    this.firstOffset = offset;
    this.nextOffset = offset + 1;
    this.maxTimestampMs = timestampMs;
  }

  void advanceTo(long offset, long timestampMs) {
    nextOffset = Math.max(nextOffset, offset + 1);
    maxTimestampMs = Math.max(maxTimestampMs, timestampMs);
  }

  long firstOffset() {
    return firstOffset;
  }

  SourcePosition position() {
    return new SourcePosition(firstOffset, nextOffset, maxTimestampMs);
  }
}
