/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of a control loop (a worker's or the coordinator's): a first step, then turns until a
 * step fails or the loop is stopped. The thread owns the Kafka clients it polls with and releases
 * them when it ends. Stopping waits {@link #STOP_TIMEOUT} at most, so that a task stops within
 * Connect's graceful shutdown timeout (5 s by default) even while a call to Kafka or the catalog
 * has not returned; such a thread is left to end on its own, and releases its clients then.
 */
final class ControlLoop {
  private static final Logger LOG = LoggerFactory.getLogger(ControlLoop.class);

  /** How long {@link #stop} waits for the thread. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(2);

  private final BooleanSupplier first;
  private final BooleanSupplier turn;
  private final Runnable release;
  private final Thread thread;
  private final AtomicBoolean released = new AtomicBoolean();
  private volatile boolean running = true;

  /**
   * @param name the thread's name
   * @param first the first step; false when it failed
   * @param turn one turn; false when it failed
   * @param release closes the clients the loop uses, once
   */
  ControlLoop(String name, BooleanSupplier first, BooleanSupplier turn, Runnable release) {
    this.first = first;
    this.turn = turn;
    this.release = release;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** False once {@link #stop} was called. */
  boolean running() {
    return running;
  }

  private void run() {
    try {
      boolean alive = first.getAsBoolean();
      while (alive && running) {
        alive = turn.getAsBoolean();
      }
    } finally {
      release();
    }
  }

  /**
   * Stops the loop and waits for its thread, {@link #STOP_TIMEOUT} at most.
   *
   * @param wakeUp interrupts a blocking poll of the loop's consumer
   * @return whether the thread ended (or never ran)
   */
  boolean stop(Runnable wakeUp) {
    running = false;
    wakeUp.run();
    if (thread.isAlive()) {
      try {
        thread.join(STOP_TIMEOUT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        LOG.warn(
            "{} did not stop within {} ms (a call to Kafka or the catalog has not returned); it"
                + " ends on its own and closes its clients then",
            thread.getName(),
            STOP_TIMEOUT.toMillis());
        return false;
      }
    }
    release(); // never started (turns driven by hand), or ended: its clients are closed once
    return true;
  }

  private void release() {
    if (released.compareAndSet(false, true)) {
      release.run();
    }
  }
}
