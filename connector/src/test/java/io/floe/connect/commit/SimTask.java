/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One instance of a sink task as the simulated Connect runtime drives it: the real {@link Worker}
 * and, while the instance owns the election partition, the real {@link Coordinator}, wired as
 * {@code Committer} wires them; the task's consumer (its positions, its group generation); and what
 * Connect does with them: {@code put} batches, seeks to the rewinds the worker returns, {@code
 * open} and {@code close} on rebalances, {@code stop}.
 *
 * <p>A LIVE instance is a group member driven as Connect drives it. A ZOMBIE's process is cut off:
 * nobody closes it, it is expelled from the group at the next rebalance, but its threads may go on.
 * A CRASHED one does nothing more. A STOPPED one was closed (stopped or failed).
 */
final class SimTask {
  static final TopicPartition ELECTION = new TopicPartition(SimSource.TOPIC, 0);
  static final Comparator<TopicPartition> ORDER =
      Comparator.comparing(TopicPartition::topic).thenComparing(TopicPartition::partition);

  enum State {
    LIVE,
    ZOMBIE,
    CRASHED,
    STOPPED
  }

  /** The Connect group's side of a partition's start: its committed offset, once readable. */
  interface Offsets {
    /**
     * Whether the group's committed offset of the partition can be read now (no transaction holds
     * an offset of it).
     */
    boolean stable(TopicPartition partition);

    /** The group's committed offset of the partition (its first offset if none). */
    long committed(TopicPartition partition);
  }

  final SimActor actor;
  private final Sim sim;
  private final Offsets offsets;
  private final Set<TopicPartition> unresolved = new TreeSet<>(ORDER);
  private final Worker worker;
  private final Supplier<Coordinator> coordinators;
  private final Set<TopicPartition> assigned = new TreeSet<>(ORDER);
  private final Map<TopicPartition, Long> positions = new HashMap<>();

  private Coordinator coordinator;
  // a control thread stops once its turn failed, as the real loops do
  private boolean workerAlive = true;
  private boolean coordinatorAlive;
  private State state = State.LIVE;
  private int generation;

  /**
   * @param worker makes the instance's worker, given its consumer's group metadata
   * @param coordinators makes a coordinator when the instance wins the election
   */
  SimTask(
      Sim sim,
      SimActor actor,
      java.util.function.Function<Supplier<ConsumerGroupMetadata>, Worker> worker,
      Supplier<Coordinator> coordinators,
      Offsets offsets,
      int generation) {
    this.sim = sim;
    this.offsets = offsets;
    this.actor = actor;
    this.coordinators = coordinators;
    this.generation = generation;
    this.worker = sim.asWorker(actor, () -> worker.apply(this::groupMetadata));
  }

  private ConsumerGroupMetadata groupMetadata() {
    return new ConsumerGroupMetadata(
        SimConnect.GROUP, generation, "member-" + actor, Optional.empty());
  }

  State state() {
    return state;
  }

  boolean is(State wanted) {
    return state == wanted;
  }

  /** Whether its threads still run: live, or a zombie nobody stopped. */
  boolean running() {
    return state == State.LIVE || state == State.ZOMBIE;
  }

  boolean hasCoordinator() {
    return coordinator != null;
  }

  Set<TopicPartition> assigned() {
    return assigned;
  }

  void generation(int newGeneration) {
    generation = newGeneration;
  }

  /** Opens the worker's control clients, fencing the older instances of the task. */
  void start() {
    asWorker("start", () -> worker.openClients());
  }

  /**
   * Partitions were assigned. Each is read from the group's committed offset, once that can be
   * read: a {@code read_committed} consumer waits while a transaction holds an offset of it.
   */
  void open(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty() || state != State.LIVE) {
      return;
    }
    assigned.addAll(partitions);
    unresolved.addAll(partitions);
    resolvePositions();
    sim.trace(actor + " open " + partitions + " at " + positions);
    asWorker("open", () -> worker.open(partitions));
    if (state == State.LIVE && partitions.contains(ELECTION) && coordinator == null) {
      coordinator = sim.asCoordinator(actor, coordinators::get);
      sim.trace(actor + " runs the coordinator");
      coordinatorAlive = Boolean.TRUE.equals(guarded("open", true, () -> coordinator.open()));
    }
  }

  /**
   * Partitions were revoked: the worker closes them. As in Connect, the revocation happens inside a
   * poll, and the records that poll fetched for the partitions kept are delivered next, by the
   * following {@link #put}; the worker asks for no seek here (one asked for in {@code close} would
   * only be applied after those records were delivered).
   */
  void revoke(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty() || state != State.LIVE) {
      return;
    }
    List<TopicPartition> revoked = List.copyOf(partitions);
    sim.trace(actor + " close " + revoked);
    asWorker(
        "close",
        () -> {
          worker.close(revoked);
          return true;
        });
    assigned.removeAll(revoked);
    unresolved.removeAll(revoked);
    revoked.forEach(positions::remove);

    if (revoked.contains(ELECTION)) {
      stopCoordinator();
    }
  }

  /** A poll and a {@code put} of what it returned: up to {@code most} records per partition. */
  void put(SimSource source, int most) {
    if (!running()) {
      return;
    }
    resolvePositions();
    if (sim.clock.millis() < worker.resumeAtMs() && sim.random.nextInt(4) != 0) {
      // the task paused its partitions after a failed write: Connect's polls bring nothing (now
      // and then a batch fetched before the pause still arrives, and the worker drops it)
      most = 0;
    }
    List<TopicPartition> order = new ArrayList<>(positions.keySet());
    java.util.Collections.shuffle(order, sim.random);
    List<SinkRecord> batch = new ArrayList<>();
    Map<TopicPartition, Long> next = new HashMap<>(positions);
    for (TopicPartition partition : order) {
      long from = positions.get(partition);
      long to = Math.min(source.end(partition), from + sim.between(0, most));
      for (long offset = from; offset < to; offset++) {
        batch.add(source.record(partition, offset));
      }
      next.put(partition, to);
    }
    Map<TopicPartition, Long> rewind =
        asWorker(
            "put",
            () -> {
              if (coordinator != null) {
                coordinator.checkHealthy();
              }
              return worker.put(batch);
            });
    if (rewind == null) {
      return;
    }
    positions.putAll(next);
    if (!batch.isEmpty() || !rewind.isEmpty()) {
      sim.trace(
          actor + " put " + batch.size() + " records, now at " + positions + " rewind " + rewind);
    }
    seek(rewind);
  }

  private void resolvePositions() {
    for (TopicPartition partition : List.copyOf(unresolved)) {
      if (offsets.stable(partition)) {
        unresolved.remove(partition);
        positions.put(partition, offsets.committed(partition));
      }
    }
  }

  private void seek(Map<TopicPartition, Long> rewind) {
    if (rewind == null) {
      return;
    }
    rewind.forEach(
        (partition, offset) -> {
          if (assigned.contains(partition) && !unresolved.contains(partition)) {
            positions.put(partition, offset);
          }
        });
  }

  /** A turn of the worker's control thread. */
  void workerTurn() {
    if (running() && workerAlive) {
      workerAlive = Boolean.TRUE.equals(asWorker("worker turn", () -> worker.turn()));
    }
  }

  /** A turn of the coordinator's thread, if the instance runs one. */
  void coordinatorTurn() {
    if (running() && coordinator != null && coordinatorAlive) {
      coordinatorAlive =
          Boolean.TRUE.equals(guarded("coordinator turn", true, () -> coordinator.turn()));
    }
  }

  /** Connect stops the task: it closes its partitions, then the task stops. */
  void stop() {
    if (state != State.LIVE) {
      return;
    }
    revoke(new ArrayList<>(assigned));
    if (state == State.LIVE) {
      stopCoordinator();
      asWorker("stop", () -> worker.close());
    }
    state = State.STOPPED;
    sim.trace(actor + " stopped");
  }

  /** The process is cut off: nothing is closed, the threads may go on. */
  void becomeZombie() {
    if (state == State.LIVE) {
      state = State.ZOMBIE;
      sim.trace(actor + " is cut off (zombie)");
    }
  }

  /** The process is gone for good. */
  void die() {
    if (running()) {
      state = State.CRASHED;
      actor.crashed = true;
      sim.trace(actor + " dies");
    }
  }

  /** Releases what the instance holds, after the schedule: no simulated effect is left to see. */
  void release() {
    if (state == State.STOPPED) {
      return;
    }
    state = State.STOPPED;
    if (coordinator != null) {
      coordinator.close();
    }
    worker.close();
  }

  private void stopCoordinator() {
    if (coordinator != null) {
      Coordinator stopping = coordinator;
      coordinator = null;
      asCoordinator("stop coordinator", () -> stopping.close());
      sim.trace(actor + " stopped its coordinator");
    }
  }

  private void asWorker(String what, Runnable action) {
    guarded(what, false, done(action));
  }

  private void asCoordinator(String what, Runnable action) {
    guarded(what, true, done(action));
  }

  private <T> T asWorker(String what, Supplier<T> action) {
    return guarded(what, false, action);
  }

  private static Supplier<Boolean> done(Runnable action) {
    return () -> {
      action.run();
      return Boolean.TRUE;
    };
  }

  /**
   * Runs a call of the task's code. A crash leaves the instance dead; a failure thrown to Connect
   * fails the task, which Connect then stops (closing what it can).
   */
  private <T> T guarded(String what, boolean asCoordinator, Supplier<T> action) {
    try {
      T result = asCoordinator ? sim.asCoordinator(actor, action) : sim.asWorker(actor, action);
      if (actor.crashed) {
        state = State.CRASHED;
        return null;
      }
      return result;
    } catch (SimCrash crash) {
      state = State.CRASHED;
      return null;
    } catch (RuntimeException e) {
      if (actor.crashed) {
        state = State.CRASHED;
        return null;
      }
      sim.trace(actor + " FAILED in " + what + ": " + e);
      if (state == State.LIVE || state == State.ZOMBIE) {
        // a cut-off instance's thread ends on a failure too: Connect calls a failed task no more
        state = State.STOPPED;
        stopCoordinator();
        asWorker(
            "close after failure",
            () -> {
              worker.close(new ArrayList<>(assigned));
              return true;
            });
        asWorker("stop after failure", () -> worker.close());
      }
      return null;
    }
  }
}
