/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.Comparator;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The source offset ranges a commit covers, for its log line: per partition, {@code topic-partition
 * [from, to)} from the next offset the table's previous commit recorded to the one this commit
 * records; {@code [?, to)} when the previous commit did not cover the partition.
 */
final class SourceRanges {
  private SourceRanges() {}

  static String describe(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
    if (to.isEmpty()) {
      return "none";
    }
    Map<TopicPartition, Long> sorted =
        new TreeMap<>(
            Comparator.comparing(TopicPartition::topic).thenComparing(TopicPartition::partition));
    sorted.putAll(to);
    StringJoiner ranges = new StringJoiner(", ");
    sorted.forEach(
        (partition, next) -> {
          Long start = from.get(partition);
          ranges.add(
              partition + " [" + (start == null ? "?" : start.toString()) + ", " + next + ")");
        });
    return ranges.toString();
  }
}
