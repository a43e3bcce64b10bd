/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One table's changes of one cycle, folded per key: the last change of a key wins, so a cycle
 * writes at most one row image and retires at most one row per key, whatever the number of changes.
 *
 * <p>Changes must come in offset order per source partition (the order {@code put} delivers them);
 * since a keyed topic keeps each key in one partition, that is each key's order. Keys come out in
 * the order they entered the fold: at their first change, or their first after a truncate.
 *
 * <ul>
 *   <li>An upsert sets the key's image; a delete clears it. Either way a row of the key committed
 *       in an earlier cycle must go, so the key is retired.
 *   <li>A truncate drops everything folded so far and marks the cycle {@link #truncated()}: every
 *       row committed before the cycle goes, so keys changed after it need no retiring, and a key
 *       whose only changes after it end in a delete leaves nothing at all.
 *   <li>A skip changes nothing.
 * </ul>
 *
 * <p>Holds one small entry per key and the record of its last upsert, whose value is the row image
 * only (the envelope around it is not kept). Not thread-safe.
 */
public final class KeyedChanges {
  private final Map<RowKey, FoldedKey> keys = new LinkedHashMap<>();
  private final Map<TopicPartition, Long> lastOffsets = new HashMap<>();
  private boolean truncated;

  /**
   * Folds in the next change.
   *
   * @throws IllegalStateException if the change's source offset is not past the last one of its
   *     source partition
   */
  public void add(Change change) {
    checkOrder(change.record());
    switch (change.kind()) {
      case UPSERT -> keys.computeIfAbsent(change.key(), this::entry).image(change.record());
      case DELETE -> delete(change.key());
      case TRUNCATE -> {
        keys.clear();
        truncated = true;
      }
      case SKIP -> {}
    }
  }

  private FoldedKey entry(RowKey key) {
    return new FoldedKey(key, !truncated);
  }

  private void delete(RowKey key) {
    FoldedKey folded = keys.get(key);
    if (folded == null) {
      if (!truncated) {
        keys.put(key, new FoldedKey(key, true));
      }
    } else if (folded.retire()) {
      folded.image(null);
    } else {
      keys.remove(key);
    }
  }

  private void checkOrder(SinkRecord record) {
    TopicPartition origin =
        new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    long offset = record.originalKafkaOffset();
    Long last = lastOffsets.put(origin, offset);
    if (last != null && offset <= last) {
      lastOffsets.put(origin, last);
      throw new IllegalStateException(
          String.format(
              "Changes of %s must come in offset order: offset %d after %d", origin, offset, last));
    }
  }

  /**
   * Whether the cycle truncated the table: every row committed before the cycle must go, before the
   * {@link #keys()} are applied.
   */
  public boolean truncated() {
    return truncated;
  }

  /** Each changed key's outcome, in the order of the keys' first changes; a read-only view. */
  public Collection<FoldedKey> keys() {
    return Collections.unmodifiableCollection(keys.values());
  }

  /** How many keys the cycle changed. */
  public int size() {
    return keys.size();
  }

  /** Whether the cycle changed nothing. */
  public boolean isEmpty() {
    return keys.isEmpty() && !truncated;
  }
}
