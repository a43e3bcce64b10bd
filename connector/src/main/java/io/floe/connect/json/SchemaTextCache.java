/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * The schemas read, by the exact bytes of their JSON text: a message whose schema text was seen
 * before costs a comparison of bytes, not a parse. The last hit is checked first, without a lock or
 * a hash; then the least-recently-used map of {@code capacity} entries. Thread-safe.
 */
final class SchemaTextCache {
  /** Reads a schema from its text, on a miss. */
  interface Loader {
    Schema load(byte[] json, int from, int to);
  }

  private final Map<Key, Schema> entries;
  private volatile Entry last;

  /** A schema and its text. */
  record Entry(byte[] text, Schema schema) {
    int length() {
      return text.length;
    }
  }

  SchemaTextCache(int capacity) {
    this.entries = new LruMap<>(capacity);
  }

  /**
   * The last schema read, if {@code json} holds its text at {@code from}, else null. No parse, no
   * lock: a comparison of bytes.
   */
  Entry lastAt(byte[] json, int from) {
    Entry hit = last;
    if (hit == null) {
      return null;
    }
    int to = from + hit.text.length;
    return to <= json.length && Arrays.equals(hit.text, 0, hit.text.length, json, from, to)
        ? hit
        : null;
  }

  /** The schema whose text is {@code json[from, to)}, read by {@code loader} when not cached. */
  Schema get(byte[] json, int from, int to, Loader loader) {
    Entry hit = last;
    if (hit != null && Arrays.equals(hit.text, 0, hit.text.length, json, from, to)) {
      return hit.schema;
    }
    Key probe = new Key(json, from, to);
    Schema schema;
    synchronized (entries) {
      schema = entries.get(probe);
    }
    byte[] text = Arrays.copyOfRange(json, from, to);
    if (schema == null) {
      schema = loader.load(text, 0, text.length);
      synchronized (entries) {
        entries.put(new Key(text, 0, text.length), schema);
      }
    }
    last = new Entry(text, schema);
    return schema;
  }

  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** A range of bytes, equal to another with the same bytes. */
  private static final class Key {
    private final byte[] bytes;
    private final int from;
    private final int to;
    private final int hash;

    Key(byte[] bytes, int from, int to) {
      this.bytes = bytes;
      this.from = from;
      this.to = to;
      int h = 1;
      for (int i = from; i < to; i++) {
        h = 31 * h + bytes[i];
      }
      this.hash = h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && k.hash == hash
          && Arrays.equals(bytes, from, to, k.bytes, k.from, k.to);
    }
  }
}
