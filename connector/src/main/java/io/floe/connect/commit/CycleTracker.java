/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.PartitionOffset;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;

/**
 * The coordinator's clock and tally of one commit cycle at a time: when the next cycle is due,
 * which source partitions have answered the current one, and whether it timed out. Pure logic on an
 * injected clock, no I/O.
 */
final class CycleTracker {
  private final Duration interval;
  private final Duration timeout;
  private final Duration earliestEarlyStart;
  private final Clock clock;
  private final Map<TopicPartition, PartitionOffset> answered = new HashMap<>();
  private long lastStartMs;
  private boolean earlyRequested;
  private UUID commitId;
  private Set<TopicPartition> expected = Set.of();
  private boolean expectedKnown;
  private long startedMs;
  private int workersAnswered;

  CycleTracker(Duration interval, Duration timeout, Clock clock) {
    this.interval = interval;
    this.timeout = timeout;
    this.clock = clock;
    this.earliestEarlyStart =
        interval.compareTo(Duration.ofSeconds(1)) < 0 ? interval : Duration.ofSeconds(1);
    this.lastStartMs = clock.millis();
  }

  boolean inCycle() {
    return commitId != null;
  }

  UUID commitId() {
    return commitId;
  }

  /** A worker holds enough pending data to want a cycle before the interval ends. */
  void requestEarly() {
    earlyRequested = true;
  }

  /** Whether a new cycle should start now. */
  boolean startDue() {
    if (inCycle()) {
      return false;
    }
    long sinceLast = clock.millis() - lastStartMs;
    return sinceLast >= interval.toMillis()
        || (earlyRequested && sinceLast >= earliestEarlyStart.toMillis());
  }

  /**
   * Starts a cycle that is complete when every partition of {@code expectedPartitions} answered.
   */
  void start(UUID id, Set<TopicPartition> expectedPartitions) {
    start(id, expectedPartitions, true);
  }

  /**
   * Starts a cycle without knowing which partitions must answer (they could not be listed): it is
   * never complete and runs to its timeout.
   */
  void startUnknown(UUID id) {
    start(id, Set.of(), false);
  }

  private void start(UUID id, Set<TopicPartition> expectedPartitions, boolean known) {
    commitId = id;
    expected = Set.copyOf(expectedPartitions);
    expectedKnown = known;
    answered.clear();
    workersAnswered = 0;
    startedMs = clock.millis();
    lastStartMs = startedMs;
    earlyRequested = false;
  }

  /** Takes a worker's answer; answers to other cycles are ignored. */
  void answered(UUID id, Collection<PartitionOffset> partitions) {
    if (!id.equals(commitId)) {
      return;
    }
    workersAnswered++;
    for (PartitionOffset partition : partitions) {
      answered.put(new TopicPartition(partition.topic(), partition.partition()), partition);
    }
  }

  /** Every expected partition answered. */
  boolean complete() {
    return inCycle() && expectedKnown && answered.keySet().containsAll(expected);
  }

  boolean timedOut() {
    return inCycle() && clock.millis() - startedMs >= timeout.toMillis();
  }

  long elapsedMs() {
    return clock.millis() - startedMs;
  }

  int answeredCount() {
    return answered.size();
  }

  /** Answers (one per worker) taken for the current cycle. */
  int workersAnswered() {
    return workersAnswered;
  }

  /** The partitions the current cycle waits for. */
  Set<TopicPartition> expected() {
    return expected;
  }

  /** Whether the current cycle knows which partitions must answer. */
  boolean expectedKnown() {
    return expectedKnown;
  }

  int expectedCount() {
    return expected.size();
  }

  /**
   * The event-time watermark of the answers taken: the smallest, over the partitions that answered
   * with a timestamp, of their largest record timestamp; empty when none has one. For a complete
   * cycle it is the cycle's watermark; for an incomplete one, a bound the watermark cannot exceed,
   * since the partitions yet to answer can only lower it.
   */
  OptionalLong answeredWatermarkMs() {
    long min = Long.MAX_VALUE;
    for (PartitionOffset partition : answered.values()) {
      if (partition.maxTimestampMs() != null) {
        min = Math.min(min, partition.maxTimestampMs());
      }
    }
    return min == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(min);
  }

  /** Ends the current cycle. */
  void finish() {
    commitId = null;
    expected = Set.of();
    answered.clear();
  }
}
