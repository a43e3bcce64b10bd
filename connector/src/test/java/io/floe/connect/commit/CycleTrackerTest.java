/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.control.PartitionOffset;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The coordinator's cycle timing and tally, on a hand-moved clock. */
class CycleTrackerTest {
  private static final TopicPartition P0 = new TopicPartition("t", 0);
  private static final TopicPartition P1 = new TopicPartition("t", 1);

  private final MutableClock clock = new MutableClock(1_000_000);
  private final CycleTracker tracker =
      new CycleTracker(Duration.ofSeconds(60), Duration.ofSeconds(30), clock);

  @Test
  void aCycleIsDueOnlyOnceTheIntervalHasPassed() {
    assertThat(tracker.startDue()).isFalse();
    clock.advance(59_999);
    assertThat(tracker.startDue()).isFalse();
    clock.advance(1);
    assertThat(tracker.startDue()).isTrue();
  }

  @Test
  void anEarlyRequestStartsACycleBeforeTheInterval() {
    clock.advance(500);
    tracker.requestEarly();
    assertThat(tracker.startDue()).as("not within a second of the last start").isFalse();
    clock.advance(500);
    assertThat(tracker.startDue()).isTrue();
  }

  @Test
  void noCycleIsDueWhileOneRuns() {
    clock.advance(60_000);
    tracker.start(UUID.randomUUID(), Set.of(P0));
    clock.advance(120_000);
    assertThat(tracker.startDue()).isFalse();
  }

  @Test
  void aCycleIsCompleteWhenEveryPartitionAnsweredIncludingIdleOnes() {
    UUID id = UUID.randomUUID();
    tracker.start(id, Set.of(P0, P1));
    tracker.answered(id, List.of(new PartitionOffset("t", 0, 10L, 5_000L)));
    assertThat(tracker.complete()).isFalse();
    tracker.answered(id, List.of(new PartitionOffset("t", 1, null, null)));
    assertThat(tracker.complete()).isTrue();
  }

  @Test
  void answersToAnotherCycleAreIgnored() {
    UUID id = UUID.randomUUID();
    tracker.start(id, Set.of(P0));
    tracker.answered(UUID.randomUUID(), List.of(new PartitionOffset("t", 0, 10L, null)));
    assertThat(tracker.complete()).isFalse();
    assertThat(tracker.answeredCount()).isZero();
  }

  @Test
  void aCycleTimesOutAfterTheTimeout() {
    tracker.start(UUID.randomUUID(), Set.of(P0));
    clock.advance(29_999);
    assertThat(tracker.timedOut()).isFalse();
    clock.advance(1);
    assertThat(tracker.timedOut()).isTrue();
  }

  @Test
  void theWatermarkIsTheSmallestMaxTimestampAndOnlyForACompleteCycle() {
    UUID id = UUID.randomUUID();
    tracker.start(id, Set.of(P0, P1));
    tracker.answered(id, List.of(new PartitionOffset("t", 0, 10L, 7_000L)));
    assertThat(tracker.answeredWatermarkMs())
        .as("a bound while a partition has not answered: it can only lower the watermark")
        .hasValue(7_000L);
    assertThat(cycle(tracker, true).validThroughMs()).isEmpty();
    tracker.answered(id, List.of(new PartitionOffset("t", 1, 3L, 4_000L)));
    assertThat(tracker.answeredWatermarkMs()).hasValue(4_000L);
    assertThat(cycle(tracker, false).validThroughMs()).hasValue(4_000L);
  }

  @Test
  void partitionsThatAnsweredWithoutATimestampDoNotBoundTheWatermark() {
    UUID id = UUID.randomUUID();
    tracker.start(id, Set.of(P0, P1));
    tracker.answered(id, List.of(new PartitionOffset("t", 0, 10L, null)));
    assertThat(tracker.answeredWatermarkMs()).isEmpty();
    tracker.answered(id, List.of(new PartitionOffset("t", 1, 3L, 4_000L)));
    assertThat(tracker.answeredWatermarkMs()).hasValue(4_000L);
  }

  private static TableCommitter.Cycle cycle(CycleTracker tracker, boolean partial) {
    return new TableCommitter.Cycle(
        tracker.commitId(), Map.of(), Map.of(), Map.of(), tracker.answeredWatermarkMs(), partial);
  }

  @Test
  void theNextCycleIsTimedFromTheStartOfTheLastOne() {
    clock.advance(60_000);
    tracker.start(UUID.randomUUID(), Set.of());
    assertThat(tracker.complete()).as("no partitions: complete at once").isTrue();
    clock.advance(10_000);
    tracker.finish();
    clock.advance(49_999);
    assertThat(tracker.startDue()).isFalse();
    clock.advance(1);
    assertThat(tracker.startDue()).isTrue();
  }

  @Test
  void aCycleWithoutKnownPartitionsIsNeverCompleteAndRunsToItsTimeout() {
    MutableClock clock = new MutableClock(0);
    CycleTracker tracker = new CycleTracker(Duration.ofSeconds(10), Duration.ofSeconds(5), clock);
    UUID id = UUID.randomUUID();
    tracker.startUnknown(id);
    tracker.answered(id, List.of(new PartitionOffset("t", 0, 1L, null)));
    assertThat(tracker.complete()).isFalse();
    assertThat(tracker.expectedKnown()).isFalse();
    clock.advance(5_000);
    assertThat(tracker.timedOut()).isTrue();
  }
}
