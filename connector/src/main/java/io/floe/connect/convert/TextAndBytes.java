/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * String, uuid, binary and fixed columns. Strings and byte arrays are passed on without copying;
 * UUID strings must be in the canonical 8-4-4-4-12 hex form.
 */
final class TextAndBytes {
  private static final int UUID_LENGTH = 36;
  private static final int UUID_BYTES = 16;

  private TextAndBytes() {}

  static ValueConverter toStringValue(Site site) {
    return value -> {
      if (value instanceof String) {
        return value;
      }
      if (value instanceof CharSequence chars) {
        return chars.toString();
      }
      throw site.fail(value, "not a string");
    };
  }

  static ValueConverter toUuid(Site site) {
    return value -> {
      if (value instanceof UUID) {
        return value;
      }
      if (value instanceof String s) {
        if (!isCanonicalUuid(s)) {
          throw site.fail(value, "not a UUID in the canonical 8-4-4-4-12 hex form");
        }
        return UUID.fromString(s);
      }
      if (value instanceof byte[] || value instanceof ByteBuffer) {
        ByteBuffer buffer = asBuffer(value);
        if (buffer.remaining() != UUID_BYTES) {
          throw site.fail(value, "a binary UUID needs exactly 16 bytes");
        }
        return new UUID(buffer.getLong(buffer.position()), buffer.getLong(buffer.position() + 8));
      }
      throw site.fail(value, "not a UUID");
    };
  }

  static ValueConverter toBinary(Site site) {
    return value -> {
      if (value instanceof byte[] || value instanceof ByteBuffer) {
        return asBuffer(value);
      }
      throw site.fail(value, "not bytes");
    };
  }

  static ValueConverter toFixed(int length, Site site) {
    return value -> {
      if (value instanceof byte[] bytes) {
        if (bytes.length != length) {
          throw site.fail(value, "length " + bytes.length + " differs from the column's length");
        }
        return bytes;
      }
      if (value instanceof ByteBuffer buffer) {
        if (buffer.remaining() != length) {
          throw site.fail(
              value, "length " + buffer.remaining() + " differs from the column's length");
        }
        byte[] copy = new byte[length];
        buffer.duplicate().get(copy);
        return copy;
      }
      throw site.fail(value, "not bytes");
    };
  }

  /** A view of the bytes that leaves the caller's buffer position alone. */
  private static ByteBuffer asBuffer(Object value) {
    return value instanceof byte[] bytes
        ? ByteBuffer.wrap(bytes)
        : ((ByteBuffer) value).duplicate();
  }

  private static boolean isCanonicalUuid(String s) {
    if (s.length() != UUID_LENGTH) {
      return false;
    }
    for (int i = 0; i < UUID_LENGTH; i++) {
      char c = s.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : !isHexDigit(c)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isHexDigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
