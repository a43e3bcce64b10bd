/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import java.util.Arrays;
import java.util.LinkedHashMap;
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

  private record Entry(byte[] text, Schema schema) {}

  SchemaTextCache(int capacity) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Schema> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * The last schema read, if {@code json} holds its text at {@code from}: then that text's length,
   * else -1. No parse, no lock: a comparison of bytes.
   */
  int lastAt(byte[] json, int from) {
    Entry hit = last;
    if (hit == null) {
      return -1;
    }
    int length = hit.text.length;
    return from + length <= json.length
            && Arrays.equals(hit.text, 0, length, json, from, from + length)
        ? length
        : -1;
  }

  /** The last schema read; see {@link #lastAt}. */
  Schema last() {
    return last.schema;
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
