/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Control events stay small, so the control topic never hits the broker's message size. */
class EventSizeTest {
  private final EventCodec codec = new EventCodec();

  @Test
  void aDataWrittenWithALongS3PathStaysUnderFourHundredTwentyBytes() {
    // as a worker sends it, with its hand-over id (17 bytes since version 3)
    DataWritten event = SampleEvents.dataWritten().withHandOverId(SampleEvents.HAND_OVER_ID);

    byte[] bytes =
        codec.encode(SampleEvents.GROUP, SampleEvents.TASK, SampleEvents.CREATED_AT_MS, event);

    assertThat(event.manifestLocation()).hasSizeGreaterThan(200);
    assertThat(bytes.length).isLessThan(420);
    assertThat(bytes.length - event.manifestLocation().length())
        .as("everything but the path")
        .isLessThan(220);
  }

  @Test
  void aDataCompleteOfAThousandPartitionsStaysUnderThirtyKilobytes() {
    List<PartitionOffset> offsets = new ArrayList<>();
    for (int partition = 0; partition < 1_000; partition++) {
      offsets.add(
          new PartitionOffset("page-views", partition, 9_876_543_210L, SampleEvents.CREATED_AT_MS));
    }

    byte[] bytes =
        codec.encode(
            SampleEvents.GROUP,
            SampleEvents.TASK,
            SampleEvents.CREATED_AT_MS,
            new DataComplete(SampleEvents.COMMIT_ID, offsets));

    assertThat(bytes.length).isLessThan(1_000 * ("page-views".length() + 1 + 18) + 200);
  }
}
