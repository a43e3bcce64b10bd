/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Produces {@link OrderEvents} at a steady rate on a thread of its own, with ids from a first id
 * on, round-robin over the topic's partitions, until stopped: the live traffic under which the
 * exactly-once tests freeze, kill and rebalance workers.
 */
public final class SteadyProducer implements AutoCloseable {
  private static final long TICK_MS = 20;

  private final OrderEvents events;
  private final String topic;
  private final int partitions;
  private final int perTick;
  private final AtomicLong next;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile RuntimeException failure;

  /**
   * Starts producing.
   *
   * @param perSecond records per second, sent in batches every 20 ms
   */
  public static SteadyProducer start(
      OrderEvents events, String topic, int partitions, long firstId, int perSecond) {
    SteadyProducer producer =
        new SteadyProducer(
            events, topic, partitions, firstId, Math.max(1, (int) (perSecond * TICK_MS / 1000)));
    producer.thread.start();
    return producer;
  }

  private SteadyProducer(
      OrderEvents events, String topic, int partitions, long firstId, int perTick) {
    this.events = events;
    this.topic = topic;
    this.partitions = partitions;
    this.perTick = perTick;
    this.next = new AtomicLong(firstId);
    this.thread = new Thread(this::run, "steady-producer-" + topic);
    this.thread.setDaemon(true);
  }

  private void run() {
    long nextTick = System.currentTimeMillis();
    try {
      while (running) {
        long from = next.get();
        events.send(topic, partitions, from, from + perTick);
        next.set(from + perTick);
        nextTick += TICK_MS;
        long wait = nextTick - System.currentTimeMillis();
        if (wait > 0) {
          Thread.sleep(wait);
        } else {
          nextTick = System.currentTimeMillis();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** The id after the last one sent and acknowledged so far. */
  public long sent() {
    return next.get();
  }

  /**
   * Stops producing and returns the id after the last one sent; every record up to it is
   * acknowledged. Throws if sending failed.
   */
  public long stop() throws InterruptedException {
    running = false;
    thread.join();
    if (failure != null) {
      throw new IllegalStateException("The steady producer to " + topic + " failed", failure);
    }
    return next.get();
  }

  /** Stops producing, if {@link #stop} was not called; ignores a failure. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
