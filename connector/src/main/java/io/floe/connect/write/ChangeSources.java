/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * In upsert mode, the source partitions whose changes a hand-over of a table holds, and the offset
 * of the last truncate read from each partition that had one. The coordinator needs both to apply a
 * truncate: it removes what was committed before, and what earlier hand-overs of the same
 * partitions hold.
 *
 * @param partitions every source partition whose changes (skips included) were folded
 * @param truncatedAt for each of them that had a truncate, the offset of its last one
 */
public record ChangeSources(Set<TopicPartition> partitions, Map<TopicPartition, Long> truncatedAt) {
  /** Those of a table that appends, or of a hand-over without changes. */
  public static final ChangeSources NONE = new ChangeSources(Set.of(), Map.of());

  public ChangeSources {
    partitions = Set.copyOf(partitions);
    truncatedAt = Map.copyOf(truncatedAt);
    if (!partitions.containsAll(truncatedAt.keySet())) {
      throw new IllegalArgumentException(
          "truncated partitions " + truncatedAt.keySet() + " are not all in " + partitions);
    }
  }

  /** Whether a truncate was read. */
  public boolean truncated() {
    return !truncatedAt.isEmpty();
  }
}
