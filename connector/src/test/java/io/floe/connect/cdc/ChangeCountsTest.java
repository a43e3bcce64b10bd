/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class ChangeCountsTest {
  private static final RowKey KEY = RowKey.of(List.of("id"), List.of(1));
  private static final SinkRecord RECORD = CdcRecords.record(1, null, null);

  @Test
  void eachKindAndSkipReasonIsCountedOnItsOwn() {
    ChangeCounts counts = new ChangeCounts();
    counts.count(Change.upsert(KEY, RECORD));
    counts.count(Change.upsert(KEY, RECORD));
    counts.count(Change.delete(KEY, RECORD));
    counts.count(Change.truncate(RECORD));
    counts.count(Change.skip(SkipReason.MESSAGE, RECORD));
    counts.count(Change.skip(SkipReason.HEARTBEAT, RECORD));
    counts.count(Change.skip(SkipReason.HEARTBEAT, RECORD));

    assertThat(counts.upserts()).isEqualTo(2);
    assertThat(counts.deletes()).isEqualTo(1);
    assertThat(counts.truncates()).isEqualTo(1);
    assertThat(counts.skipped(SkipReason.MESSAGE)).isEqualTo(1);
    assertThat(counts.skipped(SkipReason.HEARTBEAT)).isEqualTo(2);
    assertThat(counts.skipped(SkipReason.SCHEMA_CHANGE)).isZero();
    assertThat(counts.skipped()).isEqualTo(3);
  }
}
