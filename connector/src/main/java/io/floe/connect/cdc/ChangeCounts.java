/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many changes of each kind a table's records carried, for its metrics. Counted on the task
 * thread, read from any thread.
 */
public final class ChangeCounts {
  private final AtomicLong upserts = new AtomicLong();
  private final AtomicLong deletes = new AtomicLong();
  private final AtomicLong truncates = new AtomicLong();
  private final Map<SkipReason, AtomicLong> skipped = new EnumMap<>(SkipReason.class);

  public ChangeCounts() {
    for (SkipReason reason : SkipReason.values()) {
      skipped.put(reason, new AtomicLong());
    }
  }

  void count(Change change) {
    switch (change.kind()) {
      case UPSERT -> upserts.incrementAndGet();
      case DELETE -> deletes.incrementAndGet();
      case TRUNCATE -> truncates.incrementAndGet();
      case SKIP -> skipped.get(change.skipReason()).incrementAndGet();
    }
  }

  /** Upserts read so far. */
  public long upserts() {
    return upserts.get();
  }

  /** Deletes read so far, tombstones among them. */
  public long deletes() {
    return deletes.get();
  }

  /** Truncates read so far. */
  public long truncates() {
    return truncates.get();
  }

  /** Records skipped so far for {@code reason}. */
  public long skipped(SkipReason reason) {
    return skipped.get(reason).get();
  }

  /** Records skipped so far, for any reason. */
  public long skipped() {
    return skipped.values().stream().mapToLong(AtomicLong::get).sum();
  }
}
