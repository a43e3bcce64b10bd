/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

/** The offsets and latest timestamp written for one source partition since the last hand-over. */
final class OffsetTracker {
  private long minOffset = Long.MAX_VALUE;
  private long maxOffset = Long.MIN_VALUE;
  private long records;
  private long maxTimestampMs = OffsetRange.NO_TIMESTAMP;

  void recorded(long offset, long timestampMs) {
    minOffset = Math.min(minOffset, offset);
    maxOffset = Math.max(maxOffset, offset);
    records++;
    maxTimestampMs = Math.max(maxTimestampMs, timestampMs);
  }

  long records() {
    return records;
  }

  OffsetRange range() {
    return new OffsetRange(minOffset, maxOffset, records, maxTimestampMs);
  }
}
