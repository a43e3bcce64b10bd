/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.util.DateTimeUtil;
import org.junit.jupiter.api.Test;

class EpochDateTimesTest {
  @Test
  void microsAndNanosGiveTheDateTimesIcebergsDateTimeUtilGives() {
    Random random = new Random(1206);
    List<Long> amounts = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
    for (int i = 0; i < 20_000; i++) {
      amounts.add(random.nextLong());
      amounts.add(random.nextLong() >> random.nextInt(64));
    }
    for (long amount : amounts) {
      OffsetDateTime fromMicros =
          OffsetDateTime.of(
              Temporals.localFromEpoch(
                  Math.floorDiv(amount, 1_000_000L), Math.floorMod(amount, 1_000_000L) * 1000),
              ZoneOffset.UTC);
      assertThat(fromMicros).isEqualTo(DateTimeUtil.timestamptzFromMicros(amount));
      assertThat(fromMicros.toLocalDateTime()).isEqualTo(DateTimeUtil.timestampFromMicros(amount));
      OffsetDateTime fromNanos =
          OffsetDateTime.of(
              Temporals.localFromEpoch(
                  Math.floorDiv(amount, 1_000_000_000L), Math.floorMod(amount, 1_000_000_000L)),
              ZoneOffset.UTC);
      assertThat(fromNanos).isEqualTo(DateTimeUtil.timestamptzFromNanos(amount));
      assertThat(fromNanos.toLocalDateTime()).isEqualTo(DateTimeUtil.timestampFromNanos(amount));
    }
  }
}
