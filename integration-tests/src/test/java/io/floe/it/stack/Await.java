/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * Waiting for something the stack does asynchronously: a probe is asked again every {@value
 * #POLL_MILLIS} ms until its answer is the awaited one, and a time out fails with what was awaited
 * and the last answer seen. A probe that throws fails the wait at once.
 */
public final class Await {
  private static final long POLL_MILLIS = 250;

  private Await() {}

  /** Asks for the current state; may throw. */
  @FunctionalInterface
  public interface Probe<T> {
    T get() throws Exception;
  }

  /** Asks whether the awaited thing happened; may throw. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /**
   * Polls {@code probe} until its answer satisfies {@code done}, and returns that answer.
   *
   * @param what what is awaited, for the failure message, e.g. "rows in db.events to reach 10"
   */
  public static <T> T until(
      String what, Duration timeout, Probe<? extends T> probe, Predicate<? super T> done) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      T last;
      try {
        last = probe.get();
      } catch (RuntimeException e) {
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + what, e);
      } catch (Exception e) {
        throw new IllegalStateException("Cannot check " + what, e);
      }
      if (done.test(last)) {
        return last;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "Timed out after " + timeout + " waiting for " + what + "; last seen: " + last);
      }
      Ports.sleep(Duration.ofMillis(POLL_MILLIS));
    }
  }

  /** Polls {@code condition} until it holds. */
  public static void until(String what, Duration timeout, Condition condition) {
    until(what, timeout, condition::holds, Boolean::booleanValue);
  }

  /**
   * Waits until a growing count reaches {@code expected} and returns the count then: {@code
   * expected}, or more if it overshot (which the caller asserts against).
   */
  public static long untilAtLeast(String what, Duration timeout, Probe<Long> count, long expected) {
    return until(what + " to reach " + expected, timeout, count, n -> n >= expected);
  }
}
