/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.cdc.Change.Kind;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class ChangeTest {
  private static final RowKey KEY = RowKey.of(List.of("id"), List.of(1));
  private static final SinkRecord RECORD = CdcRecords.record(1, null, null);

  @Test
  void eachKindHasWhatItNeeds() {
    assertThat(Change.upsert(KEY, RECORD).kind()).isEqualTo(Kind.UPSERT);
    assertThat(Change.delete(KEY, RECORD).key()).isEqualTo(KEY);
    assertThat(Change.truncate(RECORD).key()).isNull();
    assertThat(Change.skip(SkipReason.HEARTBEAT, RECORD).skipReason())
        .isEqualTo(SkipReason.HEARTBEAT);
  }

  @Test
  void aKeyedChangeNeedsAKeyAndOnlyASkipHasAReason() {
    assertThatThrownBy(() -> Change.upsert(null, RECORD))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Change(Kind.TRUNCATE, KEY, RECORD, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Change(Kind.DELETE, KEY, RECORD, SkipReason.MESSAGE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Change.skip(null, RECORD))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Change.truncate(null)).isInstanceOf(NullPointerException.class);
  }
}
