/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The faults of one schedule: each kind is on or off, with a probability per chance to strike, both
 * drawn from the seed. The simulated services call {@link #before} and {@link #after} at every
 * point where the real service could fail, hang or the calling process could die; a process that
 * crashed dies again at its next call, so nothing after its crash point takes effect.
 */
final class SimFaults {
  /** Where a simulated service can fail. */
  enum Point {
    FILE_CREATE,
    FILE_CLOSE,
    FILE_CLOSED,
    CATALOG_LOAD,
    CATALOG_COMMIT,
    CATALOG_COMMITTED,
    TXN_INIT,
    TXN_BEGIN,
    TXN_SEND_OFFSETS,
    TXN_COMMIT,
    TXN_COMMITTED
  }

  /** What can go wrong. */
  enum Kind {
    CRASH,
    FILE_FAILS,
    FILE_HANGS,
    CATALOG_LOAD_FAILS,
    CATALOG_CONFLICT,
    CATALOG_COMMIT_FAILS,
    CATALOG_AMBIGUOUS,
    CATALOG_HANGS,
    TXN_ABORTS,
    TXN_AMBIGUOUS,
    TXN_FENCED,
    ADMIN_FAILS,
    SLOW_POLL,
    REDELIVERY,
    REBALANCE,
    RESTART,
    WORKER_DIES,
    TASKS_MAX_CHANGES,
    // new kinds last, so that each seed keeps the odds it drew for the kinds above
    CATALOG_RESPONSE_LOST,
    STALLED_POLL,
    /** another engine rewrites a table's manifests and expires all but its newest snapshot */
    EXTERNAL_MAINTENANCE
  }

  private final Sim sim;
  private final Map<Kind, Double> odds = new EnumMap<>(Kind.class);
  private final Map<String, Integer> injected = new TreeMap<>();
  private final Runnable onFence;
  private boolean enabled = true;
  private long stalledUntilMs = -1;
  private int longestHangMs = 40_000;

  /**
   * @param onFence fences the acting task's producer, as a newer producer of its transactional id
   *     would
   */
  SimFaults(Sim sim, Runnable onFence) {
    this.sim = sim;
    this.onFence = onFence;
    for (Kind kind : Kind.values()) {
      if (sim.chance(0.5)) {
        odds.put(kind, 0.005 + sim.random.nextDouble() * maxOdds(kind));
      }
    }
  }

  private static double maxOdds(Kind kind) {
    return switch (kind) {
      case CRASH -> 0.02;
      case REBALANCE, RESTART, WORKER_DIES, TASKS_MAX_CHANGES -> 0.03;
      default -> 0.12;
    };
  }

  /**
   * Bounds every hang of a file or catalog call by {@code ms}, so that a writer holding a file
   * through three of them holds it less than three times that.
   */
  void holdHangsUnder(long ms) {
    longestHangMs = (int) Math.max(1_001, Math.min(longestHangMs, ms));
  }

  /** Stops injecting: the schedule settles. */
  void disable() {
    enabled = false;
  }

  boolean enabled() {
    return enabled;
  }

  /** Whether a fault of this kind strikes now. */
  boolean strikes(Kind kind) {
    Double p = odds.get(kind);
    if (!enabled || p == null || !sim.chance(p)) {
      return false;
    }
    injected.merge(kind.name(), 1, Integer::sum);
    return true;
  }

  /** Whether this schedule has faults of this kind (and counts one more if so). */
  boolean allows(Kind kind) {
    if (!enabled || !odds.containsKey(kind)) {
      return false;
    }
    injected.merge(kind.name(), 1, Integer::sum);
    return true;
  }

  /** The faults injected so far, by kind. */
  Map<String, Integer> injected() {
    return injected;
  }

  Map<Kind, Double> odds() {
    return odds;
  }

  /** Before a call that may fail, hang or die; throws what the call then throws. */
  void before(Point point) {
    SimActor actor = sim.actor();
    if (actor == null) {
      return;
    }
    if (actor.crashed) {
      throw new SimCrash(actor + " is dead");
    }
    if (strikes(Kind.CRASH)) {
      crash(actor, "before " + point);
    }
    switch (point) {
      case FILE_CREATE, FILE_CLOSE -> {
        hang(Kind.FILE_HANGS, point);
        if (strikes(Kind.FILE_FAILS)) {
          throw new UncheckedIOException(
              new java.io.IOException("simulated object store failure at " + point));
        }
      }
      case CATALOG_LOAD -> {
        hang(Kind.CATALOG_HANGS, point);
        if (strikes(Kind.CATALOG_LOAD_FAILS)) {
          throw new ServiceUnavailableException("simulated catalog outage");
        }
      }
      case CATALOG_COMMIT -> {
        hang(Kind.CATALOG_HANGS, point);
        if (strikes(Kind.CATALOG_CONFLICT)) {
          throw new CommitFailedException("simulated concurrent commit");
        }
        if (strikes(Kind.CATALOG_COMMIT_FAILS)) {
          throw new ServiceUnavailableException("simulated catalog outage during commit");
        }
        if (strikes(Kind.CATALOG_AMBIGUOUS)) {
          throw new CommitStateUnknownException(
              new ServiceUnavailableException("simulated: the commit was lost on its way"));
        }
      }
      case TXN_BEGIN, TXN_SEND_OFFSETS, TXN_COMMIT -> {
        if (strikes(Kind.TXN_FENCED)) {
          sim.trace(actor + " fenced at " + point);
          onFence.run();
        }
        if (point == Point.TXN_COMMIT && strikes(Kind.TXN_ABORTS)) {
          throw new KafkaException("simulated broker failure: the transaction is aborted");
        }
        if (point == Point.TXN_COMMIT && strikes(Kind.TXN_AMBIGUOUS)) {
          throw new TimeoutException(
              "simulated: the commit timed out before it reached the broker");
        }
      }
      default -> {}
    }
  }

  /** After a call took effect; throws what the call then throws although it took effect. */
  void after(Point point) {
    SimActor actor = sim.actor();
    if (actor == null) {
      return;
    }
    if (strikes(Kind.CRASH)) {
      crash(actor, "after " + point);
    }
    if (point == Point.CATALOG_COMMITTED && strikes(Kind.CATALOG_AMBIGUOUS)) {
      throw new CommitStateUnknownException(
          new ServiceUnavailableException("simulated: the commit landed, its answer was lost"));
    }
    if (point == Point.CATALOG_COMMITTED && strikes(Kind.CATALOG_RESPONSE_LOST)) {
      // what Iceberg's REST client throws when the connection fails after the request was sent:
      // neither CommitStateUnknownException nor a CleanableFailure
      throw new RESTException(
          new SocketTimeoutException("simulated: the commit landed, its answer timed out"),
          "Error occurred while processing %s request",
          "POST");
    }
    if (point == Point.TXN_COMMITTED && strikes(Kind.TXN_AMBIGUOUS)) {
      throw new TimeoutException("simulated: the transaction committed, its answer timed out");
    }
  }

  private void hang(Kind kind, Point point) {
    if (strikes(kind)) {
      long ms = sim.between(1_000, longestHangMs);
      sim.trace(sim.actor() + " hangs " + ms + " ms at " + point);
      sim.clock.advance(ms);
    }
  }

  private void crash(SimActor actor, String where) {
    actor.crashed = true;
    String role = sim.coordinatorActing() ? "coordinator" : "worker";
    injected.merge("CRASH " + role + " " + where, 1, Integer::sum);
    String what = actor + " " + role;
    sim.trace("CRASH " + what + " " + where);
    throw new SimCrash(what + " crashed " + where);
  }

  /** These faults, as the control topic's clients take them. */
  ControlFaults forControlTopic() {
    return new ControlFaults() {
      @Override
      public void before(ControlFaults.Step step, String transactionalId) {
        SimFaults.this.before(
            switch (step) {
              case INIT -> Point.TXN_INIT;
              case BEGIN -> Point.TXN_BEGIN;
              case SEND_OFFSETS -> Point.TXN_SEND_OFFSETS;
              case COMMIT -> Point.TXN_COMMIT;
            });
      }

      @Override
      public void committed(String transactionalId) {
        after(Point.TXN_COMMITTED);
      }

      @Override
      public int pollLimit() {
        boolean coordinator = sim.coordinatorActing();
        if (enabled && coordinator && sim.clock.millis() < stalledUntilMs) {
          return 0;
        }
        if (coordinator && strikes(Kind.STALLED_POLL)) {
          // the coordinator reads part of what is there (often part of a worker's transaction),
          // then nothing for longer than a commit timeout, sometimes longer than the retry timeout
          stalledUntilMs = sim.clock.millis() + sim.between(1_000, 20_000);
          sim.trace("the control topic stalls until " + stalledUntilMs);
          return sim.between(1, 2);
        }
        return strikes(Kind.SLOW_POLL) ? sim.between(0, 2) : Integer.MAX_VALUE;
      }

      @Override
      public int redeliveries() {
        return strikes(Kind.REDELIVERY) ? sim.between(1, 3) : 0;
      }
    };
  }
}
