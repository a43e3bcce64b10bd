/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A run of retriable failures: when it began, the pause before the next try (doubling up to a cap),
 * and whether it has lasted longer than the retry timeout. A success ends the run.
 */
final class RetryBudget {
  private final long timeoutMs;
  private final long firstBackoffMs;
  private final long maxBackoffMs;
  private final Clock clock;
  private long sinceMs = -1;
  private long backoffMs;

  RetryBudget(Duration timeout, long firstBackoffMs, long maxBackoffMs, Clock clock) {
    this.timeoutMs = timeout.toMillis();
    this.firstBackoffMs = firstBackoffMs;
    this.maxBackoffMs = maxBackoffMs;
    this.clock = clock;
    this.backoffMs = firstBackoffMs;
  }

  /**
   * Records a failure now.
   *
   * @return whether failures have lasted longer than the retry timeout: time to give up
   */
  boolean failed() {
    return failed(clock.millis());
  }

  /**
   * Records the failure of an attempt that began at {@code attemptStartedMs}: a run that begins
   * with it began then, since nothing has worked from that moment on. An attempt that hangs until a
   * client times out (a catalog that waits for its unreachable object store, say) thus counts
   * towards the retry timeout while it hangs.
   *
   * @return whether failures have lasted longer than the retry timeout: time to give up
   */
  boolean failed(long attemptStartedMs) {
    long now = clock.millis();
    if (sinceMs < 0) {
      sinceMs = Math.min(now, attemptStartedMs);
    }
    return now - sinceMs > timeoutMs;
  }

  /** Whether the run has lasted longer than the retry timeout, without recording a failure. */
  boolean spent() {
    return sinceMs >= 0 && clock.millis() - sinceMs > timeoutMs;
  }

  boolean failing() {
    return sinceMs >= 0;
  }

  /** When the run began. */
  Instant since() {
    return Instant.ofEpochMilli(sinceMs);
  }

  /** How long the run has lasted. */
  long elapsedMs() {
    return sinceMs < 0 ? 0 : clock.millis() - sinceMs;
  }

  /** The pause before the next try: doubles with each call, up to the cap. */
  long nextBackoffMs() {
    long next = backoffMs;
    backoffMs = Math.min(maxBackoffMs, backoffMs * 2);
    return next;
  }

  /** A success: the run is over. */
  void succeeded() {
    sinceMs = -1;
    backoffMs = firstBackoffMs;
  }
}
