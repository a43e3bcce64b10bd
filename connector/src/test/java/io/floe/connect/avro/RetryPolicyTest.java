/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void doublesTheBackoffUpToItsMaximum() {
    RetryPolicy policy = new RetryPolicy(5, Duration.ofMillis(500), Duration.ofSeconds(3));
    assertThat(policy.backoffBefore(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(policy.backoffBefore(2)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoffBefore(3)).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.backoffBefore(4)).isEqualTo(Duration.ofSeconds(3));
    assertThat(policy.backoffBefore(60)).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void refusesAMaximumBelowTheFirstBackoff() {
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
