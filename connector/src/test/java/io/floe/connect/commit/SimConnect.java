/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.maintain.MaintenanceSettings;
import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.WriterPoolOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The Connect cluster of one connector: its tasks (by index, each with its current instance), the
 * consumer group (generation, membership, committed offsets, which only the workers' transactions
 * move) and what the runtime does to tasks: start, stop, restart, rebalance (eager or cooperative),
 * change {@code tasks.max}, and lose a worker process without closing its tasks.
 */
final class SimConnect {
  static final String CONNECTOR = "sim";
  static final String GROUP = "connect-" + CONNECTOR;

  /** The control producers' transaction.timeout.ms, as Floe sets it. */
  static final long TRANSACTION_TIMEOUT_MS = 60_000;

  private final Sim sim;
  private final SimSource source;
  private final InMemoryControlTopic control;
  private final SimCatalog catalog;
  private final FloeSinkConfig config;
  private final ControlSettings settings;
  private final WriterPoolOptions writerOptions;
  private final Map<Integer, SimTask> current = new TreeMap<>();
  private final List<SimTask> instances = new ArrayList<>();
  private final Map<Integer, Integer> started = new HashMap<>();
  private final SimTask.Offsets offsets;
  private final SimFaults faults;
  private int tasksMax;
  private int generation;

  SimConnect(
      Sim sim,
      SimSource source,
      InMemoryControlTopic control,
      SimCatalog catalog,
      List<String> tables,
      Map<String, String> tableConfig,
      ControlSettings settings,
      WriterPoolOptions writerOptions,
      int tasksMax,
      SimFaults faults) {
    this.sim = sim;
    this.faults = faults;
    this.source = source;
    this.control = control;
    this.catalog = catalog;
    this.settings = settings;
    this.writerOptions = writerOptions;
    this.tasksMax = tasksMax;
    this.offsets =
        new SimTask.Offsets() {
          @Override
          public boolean stable(TopicPartition partition) {
            return control.offsetStable(partition);
          }

          @Override
          public long committed(TopicPartition partition) {
            return SimConnect.this.committed().getOrDefault(partition, 0L);
          }
        };
    control.transactionTimeout(sim.clock::millis, TRANSACTION_TIMEOUT_MS);
    Map<String, String> props = new HashMap<>(tableConfig);
    props.put("name", CONNECTOR);
    props.put("iceberg.tables", String.join(",", tables));
    props.put("iceberg.catalog.type", "hadoop");
    this.config = new FloeSinkConfig(props);
  }

  static ControlSettings settings(int taskIndex, ControlSettings of) {
    return new ControlSettings(
        of.connectorName(),
        taskIndex,
        of.transactionalIdPrefix(),
        of.commitInterval(),
        of.commitTimeout(),
        of.retryTimeout(),
        of.bufferBytes(),
        of.secrets(),
        of.tables(),
        of.maxSilentCycles(),
        of.keyIndex(),
        of.maintenance(),
        of.branches(),
        of.contracts());
  }

  static ControlSettings settings(
      Duration interval,
      Duration timeout,
      Duration retryTimeout,
      long bufferBytes,
      KeyIndexSettings keyIndex,
      MaintenanceSettings maintenance,
      CommitBranch branch) {
    return new ControlSettings(
        CONNECTOR,
        0,
        "",
        interval,
        timeout,
        retryTimeout,
        bufferBytes,
        Secrets.of(Map.of()),
        List.of(),
        CommitKeys.COMMIT_MAX_SILENT_CYCLES_DEFAULT,
        keyIndex,
        maintenance,
        table -> branch,
        table -> Optional.empty());
  }

  ControlSettings settings() {
    return settings;
  }

  int tasksMax() {
    return tasksMax;
  }

  /** Every instance of every task the schedule started. */
  List<SimTask> instances() {
    return instances;
  }

  /** The instances whose threads still run, zombies included. */
  List<SimTask> running() {
    return instances.stream().filter(SimTask::running).toList();
  }

  List<SimTask> live() {
    return instances.stream().filter(t -> t.is(SimTask.State.LIVE)).toList();
  }

  /** The offsets the Connect group committed (through the workers' transactions). */
  Map<TopicPartition, Long> committed() {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    control.committedOffsets(GROUP).forEach((p, o) -> offsets.put(p, o.offset()));
    return offsets;
  }

  /** Starts tasks 0 to tasks.max - 1 where none runs, then rebalances. */
  void startMissingTasks(boolean eager) {
    boolean startedOne = false;
    for (int index = 0; index < tasksMax; index++) {
      SimTask task = current.get(index);
      if (task == null || !task.is(SimTask.State.LIVE)) {
        startTask(index);
        startedOne = true;
      }
    }
    if (startedOne || !orphans().isEmpty()) {
      rebalance(eager);
    }
  }

  private void startTask(int index) {
    int instance = started.merge(index, 1, Integer::sum);
    SimActor actor = new SimActor(index, instance);
    for (SimTask older : instances) {
      if (older.actor.taskIndex == index) {
        older.actor.replaced = true;
      }
    }
    SimTask task =
        new SimTask(
            sim, actor, group -> worker(index, group), this::coordinator, offsets, generation);
    instances.add(task);
    current.put(index, task);
    sim.trace("start " + actor);
    task.start();
  }

  private Worker worker(int index, Supplier<ConsumerGroupMetadata> group) {
    ControlSettings taskSettings = settings(index, settings);
    SinkWriter writer =
        SinkWriter.forTask(config, catalog, new NoBadRecords(), writerOptions, index, sim.clock);
    TaskMetrics metrics =
        new TaskMetrics(
            MetricsRegistry.forTask(CONNECTOR, null),
            index,
            writerOptions.memoryBudgetBytes(),
            () -> 0,
            () -> 0);
    return new Worker(
        taskSettings, writer, () -> {}, control, control.topic(), group, sim.clock, metrics);
  }

  private Coordinator coordinator() {
    Set<TopicPartition> all = new TreeSet<>(SimTask.ORDER);
    all.addAll(source.partitions());
    return new Coordinator(
        settings,
        GROUP,
        catalog,
        control,
        control.topic(),
        () -> {
          if (faults.strikes(SimFaults.Kind.ADMIN_FAILS)) {
            throw new org.apache.kafka.connect.errors.ConnectException(
                "simulated: the Kafka admin request timed out");
          }
          return all;
        },
        sim.clock,
        new CoordinatorMetrics(MetricsRegistry.forTask(CONNECTOR, null), sim.clock),
        new CallerRunsExecutor());
  }

  /** Partitions no live instance owns. */
  private List<TopicPartition> orphans() {
    Set<TopicPartition> owned = new TreeSet<>(SimTask.ORDER);
    live().forEach(t -> owned.addAll(t.assigned()));
    return source.partitions().stream().filter(p -> !owned.contains(p)).toList();
  }

  /**
   * A rebalance: members that are not live are expelled (a zombie's generation is stale from now
   * on); eager revokes every partition first, cooperative moves some; the generation moves on, and
   * every partition without a live owner goes to a random live member, which reads it from the
   * group's committed offset.
   */
  void rebalance(boolean eager) {
    List<SimTask> members = live();
    sim.trace((eager ? "eager" : "cooperative") + " rebalance of " + members.size() + " members");
    for (SimTask member : members) {
      List<TopicPartition> revoked = new ArrayList<>();
      for (TopicPartition partition : member.assigned()) {
        if (eager || sim.chance(0.3)) {
          revoked.add(partition);
        }
      }
      member.revoke(revoked);
    }
    generation++;
    control.generation(GROUP, generation);
    members = live();
    members.forEach(m -> m.generation(generation));
    if (members.isEmpty()) {
      return;
    }
    Map<SimTask, List<TopicPartition>> assignment = new HashMap<>();
    for (TopicPartition partition : orphans()) {
      assignment.computeIfAbsent(sim.pick(members), m -> new ArrayList<>()).add(partition);
    }
    for (SimTask member : members) {
      member.open(assignment.getOrDefault(member, List.of()));
    }
  }

  /** Connect restarts a task: stops the instance, starts a new one, rebalances. */
  void restart(SimTask task) {
    sim.trace("restart " + task.actor);
    task.stop();
    startMissingTasks(sim.chance(0.5));
  }

  /** The connector's tasks.max changes: Connect stops every task and starts the new set. */
  void changeTasksMax(int newMax) {
    sim.trace("tasks.max " + tasksMax + " -> " + newMax);
    for (SimTask task : live()) {
      task.stop();
    }
    current.clear();
    tasksMax = newMax;
    startMissingTasks(true);
  }
}
