/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {
  private final MutableClock clock = new MutableClock(10_000);
  private final RetryBudget budget = new RetryBudget(Duration.ofMillis(1_000), 100, 350, clock);

  @Test
  void aRunOfFailuresIsGivenUpOnlyWhenItLastsLongerThanTheTimeout() {
    assertThat(budget.elapsedMs()).as("no run yet").isZero();
    assertThat(budget.failed(clock.millis())).isFalse();
    assertThat(budget.since()).isEqualTo(Instant.ofEpochMilli(10_000));
    clock.advance(1_000);
    assertThat(budget.failed(clock.millis()))
        .as("exactly the timeout is not longer than it")
        .isFalse();
    clock.advance(1);
    assertThat(budget.failed(clock.millis())).isTrue();
    assertThat(budget.elapsedMs()).isEqualTo(1_001);
    assertThat(budget.longerThanTimeout())
        .isEqualTo("longer than iceberg.control.commit.retry-timeout-ms=1000");
  }

  @Test
  void backoffDoublesUpToItsCapAndASuccessStartsAfresh() {
    budget.failed(clock.millis());
    assertThat(budget.nextBackoffMs()).isEqualTo(100);
    assertThat(budget.nextBackoffMs()).isEqualTo(200);
    assertThat(budget.nextBackoffMs()).isEqualTo(350);
    assertThat(budget.nextBackoffMs()).isEqualTo(350);

    budget.succeeded();
    assertThat(budget.elapsedMs()).as("the run is over").isZero();
    assertThat(budget.nextBackoffMs()).isEqualTo(100);
    clock.advance(5_000);
    assertThat(budget.failed(clock.millis())).as("a new run starts at its first failure").isFalse();
  }

  @Test
  void aRunBeginsWhenItsFirstFailedAttemptBegan() {
    long attempt = clock.millis();
    clock.advance(60_000); // an attempt that hung until its client timed out
    assertThat(budget.failed(attempt))
        .as("a minute without success is past the timeout of one second")
        .isTrue();
    assertThat(budget.since()).isEqualTo(Instant.ofEpochMilli(attempt));

    budget.succeeded();
    long later = clock.millis();
    clock.advance(500);
    assertThat(budget.failed(later)).isFalse();
    clock.advance(600);
    assertThat(budget.failed(clock.millis())).as("the run began with its first attempt").isTrue();
  }

  @Test
  void aRunWithoutPausesOnlyCountsItsLength() {
    RetryBudget waiting = new RetryBudget(Duration.ofMillis(1_000), clock);
    assertThat(waiting.failed(clock.millis() - 1_001)).isTrue();
    assertThat(waiting.nextBackoffMs()).isZero();
  }
}
