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
  void aRunOfFailuresIsSpentOnlyWhenItLastsLongerThanTheTimeout() {
    assertThat(budget.failing()).isFalse();
    assertThat(budget.failed()).isFalse();
    assertThat(budget.since()).isEqualTo(Instant.ofEpochMilli(10_000));
    clock.advance(1_000);
    assertThat(budget.failed()).as("exactly the timeout is not longer than it").isFalse();
    assertThat(budget.spent()).isFalse();
    clock.advance(1);
    assertThat(budget.spent()).isTrue();
    assertThat(budget.failed()).isTrue();
    assertThat(budget.elapsedMs()).isEqualTo(1_001);
  }

  @Test
  void backoffDoublesUpToItsCapAndASuccessStartsAfresh() {
    budget.failed();
    assertThat(budget.nextBackoffMs()).isEqualTo(100);
    assertThat(budget.nextBackoffMs()).isEqualTo(200);
    assertThat(budget.nextBackoffMs()).isEqualTo(350);
    assertThat(budget.nextBackoffMs()).isEqualTo(350);

    budget.succeeded();
    assertThat(budget.failing()).isFalse();
    assertThat(budget.spent()).isFalse();
    assertThat(budget.nextBackoffMs()).isEqualTo(100);
    clock.advance(5_000);
    assertThat(budget.failed()).as("a new run starts at its first failure").isFalse();
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
}
