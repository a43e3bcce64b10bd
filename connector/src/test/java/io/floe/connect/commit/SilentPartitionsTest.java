/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SilentPartitionsTest {
  private static final TopicPartition P0 = new TopicPartition("orders", 0);
  private static final TopicPartition P1 = new TopicPartition("orders", 1);
  private static final Set<TopicPartition> BOTH = Set.of(P0, P1);

  @Test
  void aPartitionIsSilentAfterTheSetNumberOfCyclesWithoutAnAnswer() {
    SilentPartitions silence = new SilentPartitions(3, 0);
    silence.heard(List.of(P0));
    assertThat(silence.cycleEnded(BOTH, 1)).isEmpty();
    silence.heard(List.of(P0));
    assertThat(silence.cycleEnded(BOTH, 2)).isEmpty();
    silence.heard(List.of(P0));
    assertThat(silence.cycleEnded(BOTH, 3)).containsExactly(P1);
  }

  @Test
  void anAnswerStartsTheCountAgain() {
    SilentPartitions silence = new SilentPartitions(2, 0);
    silence.cycleEnded(BOTH, 1);
    silence.heard(List.of(P0, P1));
    silence.cycleEnded(BOTH, 2);
    assertThat(silence.cycleEnded(BOTH, 3)).isEmpty();
    assertThat(silence.cycleEnded(BOTH, 4)).containsExactly(P0, P1);
  }

  @Test
  void cyclesShorterThanTheShortestSilenceDoNotCount() {
    SilentPartitions silence = new SilentPartitions(2, 1_000);
    silence.cycleEnded(Set.of(P1), 0);
    assertThat(silence.cycleEnded(Set.of(P1), 999)).isEmpty();
    assertThat(silence.cycleEnded(Set.of(P1), 1_000)).containsExactly(P1);
  }

  @Test
  void aPartitionNoLongerExpectedIsForgotten() {
    SilentPartitions silence = new SilentPartitions(2, 0);
    silence.cycleEnded(BOTH, 1);
    silence.cycleEnded(Set.of(P0), 2);
    assertThat(silence.cycleEnded(BOTH, 3)).containsExactly(P0);
  }

  @Test
  void zeroCyclesTurnsTheCheckOff() {
    SilentPartitions silence = new SilentPartitions(0, 0);
    for (int cycle = 0; cycle < 100; cycle++) {
      assertThat(silence.cycleEnded(BOTH, cycle)).isEmpty();
    }
  }
}
