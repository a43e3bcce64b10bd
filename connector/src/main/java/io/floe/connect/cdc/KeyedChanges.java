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
import java.util.function.LongConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One table's changes of one cycle, folded per key: the last change of a key wins, so a cycle
 * leaves at most one live row image and retires at most one committed row per key, whatever the
 * number of changes.
 *
 * <p>The caller writes each upsert's image as it comes and folds in where it wrote it (a number of
 * its own, the row); the fold hands back the rows a change supersedes, written earlier in the
 * cycle, for the caller to delete with the cycle's commit.
 *
 * <p>Changes must come in offset order per source partition (the order {@code put} delivers them);
 * since a keyed topic keeps each key in one partition, that is each key's order. Keys come out in
 * the order they entered the fold: at their first change, or their first after a truncate.
 *
 * <ul>
 *   <li>An upsert sets the key's row; a delete clears it. Either way a row of the key committed in
 *       an earlier cycle must go, so the key is retired, and the key's row written earlier in the
 *       cycle is superseded.
 *   <li>A truncate drops everything folded so far (every row written in the cycle is superseded)
 *       and marks the cycle {@link #truncated()}: every row committed before the cycle goes, so
 *       keys changed after it need no retiring, and a key whose only changes after it end in a
 *       delete leaves nothing at all.
 *   <li>A skip changes nothing.
 * </ul>
 *
 * <p>Holds one small entry per key. Not thread-safe.
 *
 * @param <K> the form the caller keeps each key in besides its {@link RowKey}
 */
public final class KeyedChanges<K> {
  /** No row: a key whose last change deleted it. */
  public static final long NO_ROW = -1;

  private final Map<RowKey, FoldedKey<K>> keys = new LinkedHashMap<>();
  private final Map<TopicPartition, Long> lastOffsets = new HashMap<>();
  private boolean truncated;

  /**
   * Folds in the next change.
   *
   * @param row for an upsert, where its image was written (not {@link #NO_ROW}); ignored otherwise
   * @param converted the key in the caller's form, for an upsert or a delete
   * @param superseded is given every row written earlier in the cycle that the change supersedes
   * @throws IllegalStateException if the change's source offset is not past the last one of its
   *     source partition
   */
  public void add(Change change, long row, K converted, LongConsumer superseded) {
    checkOrder(change.record());
    switch (change.kind()) {
      case UPSERT -> {
        FoldedKey<K> folded = keys.computeIfAbsent(change.key(), this::entry);
        supersede(folded.row(row, converted), superseded);
      }
      case DELETE -> delete(change.key(), converted, superseded);
      case TRUNCATE -> {
        keys.values().forEach(folded -> supersede(folded.row(), superseded));
        keys.clear();
        truncated = true;
      }
      case SKIP -> {}
    }
  }

  private static void supersede(long row, LongConsumer superseded) {
    if (row != NO_ROW) {
      superseded.accept(row);
    }
  }

  private FoldedKey<K> entry(RowKey key) {
    return new FoldedKey<>(key, !truncated);
  }

  private void delete(RowKey key, K converted, LongConsumer superseded) {
    FoldedKey<K> folded = keys.get(key);
    if (folded == null) {
      if (!truncated) {
        FoldedKey<K> retired = new FoldedKey<>(key, true);
        retired.row(NO_ROW, converted);
        keys.put(key, retired);
      }
    } else if (folded.retire()) {
      supersede(folded.row(NO_ROW, converted), superseded);
    } else {
      supersede(folded.row(), superseded);
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
  public Collection<FoldedKey<K>> keys() {
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
