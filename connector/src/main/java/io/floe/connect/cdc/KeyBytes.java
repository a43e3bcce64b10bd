/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.Arrays;

/**
 * The small byte format a fold keeps its keys in (see {@link KeyedChanges}): a growable {@link
 * Writer} of tags, varints, longs and byte runs, and a {@link Reader} of them. Keys held as bytes
 * in a few arrays hold no references, which a collector need neither trace nor rescan when the
 * fold, grown old, takes in new keys.
 */
public final class KeyBytes {
  private KeyBytes() {}

  /** A growable byte array written from its start. */
  public static final class Writer {
    private byte[] bytes = new byte[32];
    private int size;

    /** Forgets what was written, keeping the array. */
    public void clear() {
      size = 0;
    }

    public int size() {
      return size;
    }

    /** A copy of what was written. */
    public byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }

    byte[] array() {
      return bytes;
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }

    public void put(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    /** An unsigned varint (7 bits a byte, low first). */
    public void putVarint(long value) {
      ensure(10);
      long v = value;
      while ((v & ~0x7FL) != 0) {
        bytes[size++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      bytes[size++] = (byte) v;
    }

    public void putLong(long value) {
      ensure(8);
      for (int shift = 56; shift >= 0; shift -= 8) {
        bytes[size++] = (byte) (value >>> shift);
      }
    }

    /** A length, then the bytes. */
    public void putBytes(byte[] value) {
      putBytes(value, 0, value.length);
    }

    public void putBytes(byte[] value, int offset, int length) {
      putVarint(length);
      ensure(length);
      System.arraycopy(value, offset, bytes, size, length);
      size += length;
    }

    /** A length, then the UTF-16 chars: every string, lone surrogates included, as it is. */
    public void putChars(CharSequence value) {
      int length = value.length();
      putVarint(length);
      ensure(2 * length);
      for (int i = 0; i < length; i++) {
        char c = value.charAt(i);
        bytes[size++] = (byte) (c >>> 8);
        bytes[size++] = (byte) c;
      }
    }
  }

  /** Reads what a {@link Writer} wrote, in the same order. */
  public static final class Reader {
    private final byte[] bytes;
    private int at;
    private final int end;

    public Reader(byte[] bytes) {
      this(bytes, 0, bytes.length);
    }

    public Reader(byte[] bytes, int offset, int length) {
      this.bytes = bytes;
      this.at = offset;
      this.end = offset + length;
    }

    public boolean atEnd() {
      return at >= end;
    }

    public int get() {
      check(1);
      return bytes[at++] & 0xFF;
    }

    public long getVarint() {
      long value = 0;
      for (int shift = 0; ; shift += 7) {
        int b = get();
        value |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
    }

    public long getLong() {
      check(8);
      long value = 0;
      for (int i = 0; i < 8; i++) {
        value = (value << 8) | (bytes[at++] & 0xFF);
      }
      return value;
    }

    public byte[] getBytes() {
      int length = (int) getVarint();
      check(length);
      byte[] value = Arrays.copyOfRange(bytes, at, at + length);
      at += length;
      return value;
    }

    public String getChars() {
      int length = (int) getVarint();
      check(2 * length);
      char[] chars = new char[length];
      for (int i = 0; i < length; i++) {
        chars[i] = (char) (((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF));
        at += 2;
      }
      return new String(chars);
    }

    private void check(int more) {
      if (at + more > end) {
        throw new IllegalStateException("a folded key's bytes end early");
      }
    }
  }
}
