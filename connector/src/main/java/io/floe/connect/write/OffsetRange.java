/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

/**
 * The records of one source partition that a batch of files holds.
 *
 * @param minOffset the lowest source offset written
 * @param maxOffset the highest source offset written
 * @param records how many records were written
 * @param maxTimestampMs the highest record timestamp seen, or {@link #NO_TIMESTAMP} if no record
 *     had one (the event-time watermark is built from it)
 */
public record OffsetRange(long minOffset, long maxOffset, long records, long maxTimestampMs) {
  /** A record without a timestamp, as Kafka marks it. */
  public static final long NO_TIMESTAMP = -1L;

  public OffsetRange {
    if (records < 1 || minOffset > maxOffset) {
      throw new IllegalArgumentException(
          String.format(
              "Not a range of written records: offsets %d..%d, %d records",
              minOffset, maxOffset, records));
    }
  }

  /** The offset to resume from once these records are committed. */
  public long nextOffset() {
    return maxOffset + 1;
  }

  public boolean hasTimestamp() {
    return maxTimestampMs != NO_TIMESTAMP;
  }
}
