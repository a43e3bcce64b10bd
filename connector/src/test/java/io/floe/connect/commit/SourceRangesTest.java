/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SourceRangesTest {
  @Test
  void eachPartitionRunsFromThePreviousCommitToThisOneInOrder() {
    Map<TopicPartition, Long> previous =
        Map.of(new TopicPartition("orders", 0), 100L, new TopicPartition("orders", 1), 40L);
    Map<TopicPartition, Long> now =
        Map.of(
            new TopicPartition("orders", 1),
            90L,
            new TopicPartition("orders", 0),
            250L,
            new TopicPartition("audit", 0),
            7L);
    assertThat(SourceRanges.describe(previous, now))
        .isEqualTo("audit-0 [?, 7), orders-0 [100, 250), orders-1 [40, 90)");
  }

  @Test
  void aCycleWithoutSourceOffsetsSaysSo() {
    assertThat(SourceRanges.describe(Map.of(), Map.of())).isEqualTo("none");
  }
}
