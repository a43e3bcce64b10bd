/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The deterministic scheduler's shared state for one schedule: the seeded random source every
 * choice comes from, the injected clock, who is acting right now (one thread runs everything, so
 * the simulated services learn their caller from here) and a bounded trace of what happened.
 */
final class Sim {
  private static final int TRACE_LINES = 400;

  final long seed;
  final Random random;
  final MutableClock clock = new MutableClock(1_767_225_600_000L);
  private final Deque<String> trace = new ArrayDeque<>();
  private final boolean echo;
  private SimActor actor;
  private boolean coordinatorActing;
  private int step;

  Sim(long seed, boolean echo) {
    this.seed = seed;
    this.random = new Random(scramble(seed));
    this.echo = echo;
  }

  /**
   * Spreads neighbouring seeds apart (SplitMix64's finaliser): {@link Random}'s first draws from
   * small consecutive seeds are almost equal.
   */
  private static long scramble(long seed) {
    long z = seed + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The task instance whose code runs now, null while the harness itself acts. */
  SimActor actor() {
    return actor;
  }

  /** Whether the code running now is a coordinator's (else a worker's or the task's). */
  boolean coordinatorActing() {
    return coordinatorActing;
  }

  /** Runs {@code action} as the worker or task thread of {@code who}. */
  <T> T asWorker(SimActor who, Supplier<T> action) {
    return as(who, false, action);
  }

  /** Runs {@code action} as the coordinator thread in {@code who}. */
  <T> T asCoordinator(SimActor who, Supplier<T> action) {
    return as(who, true, action);
  }

  private <T> T as(SimActor who, boolean coordinator, Supplier<T> action) {
    SimActor before = actor;
    boolean wasCoordinator = coordinatorActing;
    actor = who;
    coordinatorActing = coordinator;
    try {
      return action.get();
    } finally {
      actor = before;
      coordinatorActing = wasCoordinator;
    }
  }

  int nextStep() {
    return ++step;
  }

  /** The current step's number. */
  int stepNumber() {
    return step;
  }

  boolean chance(double probability) {
    return random.nextDouble() < probability;
  }

  int between(int from, int to) {
    return from + random.nextInt(to - from + 1);
  }

  <T> T pick(java.util.List<T> items) {
    return items.get(random.nextInt(items.size()));
  }

  /** Records a line of the trace, printed when the schedule fails. */
  void trace(String line) {
    String stamped = "[" + step + " t=" + (clock.millis() % 10_000_000) + "] " + line;
    if (echo) {
      System.out.println(stamped);
    }
    trace.addLast(stamped);
    if (trace.size() > TRACE_LINES) {
      trace.removeFirst();
    }
  }

  String trace() {
    return String.join("\n", trace);
  }
}
