/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A least-recently-used cache that loads each missing key once: threads missing the same key at the
 * same time wait for the first one's load instead of repeating it. A failed load caches nothing, so
 * the next caller tries again. Thread-safe.
 */
final class BoundedCache<K, V> {
  private final Map<K, V> entries;
  private final Map<K, Object> loading = new ConcurrentHashMap<>();

  BoundedCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("A cache holds at least one entry, not " + capacity);
    }
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The cached value, or the loader's (which must not return null), then cached. */
  V get(K key, Function<? super K, ? extends V> loader) {
    V value = cached(key);
    if (value != null) {
      return value;
    }
    Object lock = loading.computeIfAbsent(key, k -> new Object());
    try {
      synchronized (lock) {
        value = cached(key);
        if (value == null) {
          value = loader.apply(key);
          if (value == null) {
            throw new IllegalStateException("A cache loader returned null for " + key);
          }
          synchronized (this) {
            entries.put(key, value);
          }
        }
        return value;
      }
    } finally {
      loading.remove(key, lock);
    }
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized void clear() {
    entries.clear();
  }

  private synchronized V cached(K key) {
    return entries.get(key);
  }
}
