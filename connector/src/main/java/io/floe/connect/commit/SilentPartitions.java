/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * The coordinator's tally of source partitions that no worker answers for. A worker answers every
 * cycle for each partition it is assigned, idle or not; a partition nobody answers for is not
 * committed at all (its task died, hangs, or cannot hand over). A partition is silent once it was
 * expected in {@code maxCycles} consecutive cycles without a word, cycles that span at least {@code
 * minSilenceMs}, so that a rebalance or a passing outage of that length is waited out. An answer to
 * any cycle, late ones included, counts. Pure logic, no I/O.
 */
final class SilentPartitions {
  private final int maxCycles;
  private final long minSilenceMs;
  private final Map<TopicPartition, Silence> silences = new HashMap<>();
  private final Set<TopicPartition> heard = new HashSet<>();

  /**
   * @param maxCycles consecutive cycles without an answer that make a partition silent; 0 never
   * @param minSilenceMs the shortest silence that counts, whatever the number of cycles
   */
  SilentPartitions(int maxCycles, long minSilenceMs) {
    this.maxCycles = maxCycles;
    this.minSilenceMs = minSilenceMs;
  }

  /** A worker answered for these partitions (in any cycle). */
  void heard(Collection<TopicPartition> partitions) {
    heard.addAll(partitions);
  }

  /**
   * A cycle that expected {@code expected} ended at {@code nowMs}.
   *
   * @return the partitions silent now, sorted; empty when none is
   */
  Set<TopicPartition> cycleEnded(Set<TopicPartition> expected, long nowMs) {
    silences.keySet().retainAll(expected);
    Set<TopicPartition> silent =
        new TreeSet<>(
            Comparator.comparing(TopicPartition::topic).thenComparing(TopicPartition::partition));
    for (TopicPartition partition : expected) {
      if (heard.contains(partition)) {
        silences.remove(partition);
        continue;
      }
      Silence silence = silences.computeIfAbsent(partition, p -> new Silence(nowMs));
      silence.cycles++;
      if (maxCycles > 0 && silence.cycles >= maxCycles && nowMs - silence.sinceMs >= minSilenceMs) {
        silent.add(partition);
      }
    }
    heard.clear();
    return silent;
  }

  private static final class Silence {
    private final long sinceMs;
    private int cycles;

    Silence(long sinceMs) {
      this.sinceMs = sinceMs;
    }
  }
}
