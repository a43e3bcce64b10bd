/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.config.CommitKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A run of retriable failures: when it began, the pause before the next try (doubling up to a cap),
 * and whether it has lasted longer than the retry timeout. A success ends the run.
 *
 * <p>One rule says when a run began, for every party and every kind of attempt: when its first
 * failed attempt began. An attempt that hangs until a client times out (a catalog that waits for
 * its unreachable object store, a Kafka transaction whose commit times out) counts towards the
 * retry timeout while it hangs.
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

  /** A run without pauses: only how long it lasts counts (waiting for an answer, say). */
  RetryBudget(Duration timeout, Clock clock) {
    this(timeout, 0, 0, clock);
  }

  /**
   * Records the failure of an attempt that began at {@code attemptStartedMs}: a run that begins
   * with it began then, since nothing has worked from that moment on.
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

  /** When the run began. */
  Instant since() {
    return Instant.ofEpochMilli(sinceMs);
  }

  /** How long the run has lasted; 0 without one. */
  long elapsedMs() {
    return sinceMs < 0 ? 0 : clock.millis() - sinceMs;
  }

  /** How messages name the timeout a run outlasted: the setting and its value. */
  String longerThanTimeout() {
    return "longer than " + CommitKeys.COMMIT_RETRY_TIMEOUT_MS + "=" + timeoutMs;
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
