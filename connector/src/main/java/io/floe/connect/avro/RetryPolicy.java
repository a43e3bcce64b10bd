/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.time.Duration;

/**
 * How often, and how patiently, registry requests are repeated when no URL answers: {@code retries}
 * more rounds over all URLs after the first, waiting {@code backoff}, then twice as long each time,
 * at most {@code maxBackoff}.
 */
record RetryPolicy(int retries, Duration backoff, Duration maxBackoff) {
  RetryPolicy {
    if (retries < 0 || backoff.isNegative() || maxBackoff.compareTo(backoff) < 0) {
      throw new IllegalArgumentException(
          "Retries and backoff must not be negative, and the maximum backoff not below the first");
    }
  }

  /** The wait before retry number {@code retry} (1 for the first). */
  Duration backoffBefore(int retry) {
    Duration wait = backoff;
    for (int i = 1; i < retry && wait.compareTo(maxBackoff) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
  }
}
