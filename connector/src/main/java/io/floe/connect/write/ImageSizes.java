/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.StructLike;

/**
 * Estimates the heap a converted row holds on a 64-bit JVM with compressed references, so that the
 * images an upsert table folds in memory until a hand-over count towards {@code
 * iceberg.control.commit.buffer-bytes} like the data files of an appending table. Rough by design:
 * it walks the values once, counting object headers, boxed numbers, strings as Latin-1, byte
 * arrays, nested rows, lists and maps.
 */
final class ImageSizes {
  private static final int HEADER = 16;
  private static final int REFERENCE = 4;
  private static final int BOXED = 16;
  private static final int STRING = 40;
  private static final int BUFFER = 64;
  private static final int COLLECTION = 40;
  private static final int MAP_ENTRY = 32;

  private ImageSizes() {}

  /** The estimated heap of {@code row} and everything it holds. */
  static long of(StructLike row) {
    if (row == null) {
      return 0;
    }
    long bytes = HEADER + (long) REFERENCE * row.size() + HEADER;
    for (int i = 0; i < row.size(); i++) {
      bytes += value(row.get(i, Object.class));
    }
    return bytes;
  }

  private static long value(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof CharSequence text) {
      return STRING + text.length();
    }
    if (value instanceof ByteBuffer buffer) {
      return BUFFER + buffer.remaining();
    }
    if (value instanceof byte[] bytes) {
      return HEADER + bytes.length;
    }
    if (value instanceof StructLike struct) {
      return of(struct);
    }
    if (value instanceof Collection<?> items) {
      long bytes = COLLECTION + (long) REFERENCE * items.size();
      for (Object item : items) {
        bytes += value(item);
      }
      return bytes;
    }
    if (value instanceof Map<?, ?> map) {
      long bytes = COLLECTION + (long) MAP_ENTRY * map.size();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        bytes += value(entry.getKey()) + value(entry.getValue());
      }
      return bytes;
    }
    if (value instanceof java.math.BigDecimal) {
      return 2L * BOXED + HEADER;
    }
    return BOXED;
  }
}
