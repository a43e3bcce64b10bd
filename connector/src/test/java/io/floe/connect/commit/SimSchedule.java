/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.commit.SimFaults.Kind;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.maintain.Compaction;
import io.floe.connect.maintain.MaintenanceSettings;
import io.floe.connect.maintain.OrphanFiles;
import io.floe.connect.maintain.SnapshotExpiry;
import io.floe.connect.write.WriterPoolOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;

/**
 * One schedule of the simulation, all of it drawn from its seed: the shape (source partitions,
 * tables, tasks, settings), the faults, then a run of random steps (produce, poll and put, turns of
 * the workers' and coordinators' threads, the clock, rebalances, restarts, lost processes), then a
 * settling phase without faults until every record is committed, then the oracle.
 */
final class SimSchedule {
  private static final int SETTLE_ROUNDS = 400;
  private static final java.util.concurrent.atomic.AtomicLong RUNS =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * What a schedule found.
   *
   * @param seed the schedule's seed
   * @param violations the broken rules, empty when it passed
   * @param trace the end of its trace
   * @param injected the faults it injected, by kind
   */
  record Outcome(
      long seed,
      List<SimOracle.Violation> violations,
      String trace,
      Map<String, Integer> injected) {}

  private final Sim sim;
  private final SimFaults faults;
  private final InMemoryControlTopic control = new InMemoryControlTopic();
  private final SimFileIO io;
  private final SimCatalog catalog;
  private final SimSource source;
  private final List<String> tables = new ArrayList<>();
  private final SimConnect connect;
  private final int steps;

  /** The branch the connector commits to; main in most schedules. */
  private final CommitBranch branch;

  /**
   * In a schedule that commits to another branch, when another writer appends to main; drawn apart
   * from the schedule's other draws (see {@link #commitBranch}).
   */
  private final java.util.SplittableRandom mainWriter;

  private int foreignRows;

  /**
   * In a schedule of appending tables, now and then: the offset past which the first table's
   * contract refuses records (its rule {@code maximum} of field {@code offset}), which go to its
   * quarantine table ({@link #QUARANTINE}) and to no table; -1 for none. Drawn apart from the
   * schedule's other draws, so the seeds of earlier findings keep their schedules.
   */
  private final long quarantineAbove;

  /** The quarantine table of the first table's contract rejects. */
  static final String QUARANTINE = "db.t0__rejected";

  private static final Schema TABLE =
      new Schema(
          Types.NestedField.optional(1, "topic", Types.StringType.get()),
          Types.NestedField.optional(2, "partition", Types.IntegerType.get()),
          Types.NestedField.optional(3, "offset", Types.LongType.get()));

  /** A table mirroring a changing source: keyed by {@code key}, its identifier field. */
  private static final Schema KEYED_TABLE =
      new Schema(
          List.of(
              Types.NestedField.optional(1, "topic", Types.StringType.get()),
              Types.NestedField.optional(2, "partition", Types.IntegerType.get()),
              Types.NestedField.optional(3, "offset", Types.LongType.get()),
              Types.NestedField.required(4, "key", Types.LongType.get())),
          Set.of(4));

  /**
   * Whether the seed's schedule reads a change stream into tables in upsert mode: a third of the
   * seeds (those divisible by 3), so the seeds of earlier findings keep their schedules.
   */
  static boolean upsertSchedule(long seed) {
    return seed % 3 == 0;
  }

  SimSchedule(long seed, boolean echo) {
    sim = new Sim(seed, echo);
    faults = new SimFaults(sim, this::fenceActor);
    MaintenanceSettings maintenance = maintenance(new java.util.SplittableRandom(sim.seed));
    mainWriter = new java.util.SplittableRandom(Long.rotateLeft(sim.seed, 29) ^ 0x5DEECE66DL);
    branch = commitBranch(mainWriter);
    if (maintenance.orphans() != null) {
      // orphan deletion rests on its least age exceeding the longest time a live writer holds a
      // file before a commit names it, as a real connector's days exceed any stall
      faults.holdHangsUnder(maintenance.orphans().minAgeMs() / 3);
    }
    io = new SimFileIO(sim, faults);
    catalog = new SimCatalog("mem://sim-" + seed + "-" + RUNS.incrementAndGet(), io, faults);
    boolean upsert = upsertSchedule(seed);
    java.util.SplittableRandom contracts =
        new java.util.SplittableRandom(Long.rotateLeft(sim.seed, 17) ^ 0x2545F4914F6CDD1DL);
    quarantineAbove = !upsert && contracts.nextInt(3) == 0 ? contracts.nextInt(0, 40) : -1;
    int partitionCount = sim.between(1, 4);
    int keysPerPartition = upsert ? sim.between(2, 8) : 0;
    // truncates: exact on a topic of one partition, with several checked more leniently (see
    // SimOracle.checkMirror)
    boolean truncates = upsert && sim.chance(0.5);
    source =
        upsert
            ? SimSource.changes(partitionCount, keysPerPartition, truncates)
            : new SimSource(partitionCount);
    int tableCount = sim.chance(0.7) ? 1 : 2;
    String format = sim.chance(0.9) ? "avro" : "parquet";
    String formatVersion = upsert && sim.chance(0.5) ? "3" : "2";
    // without id-columns the key is the record key's fields
    boolean idColumns = upsert && sim.chance(0.5);
    // a partitioned upsert table: its deletes are per data file in several partitions
    PartitionSpec spec =
        upsert && sim.chance(0.5)
            ? PartitionSpec.builderFor(KEYED_TABLE).bucket("key", 3).build()
            : PartitionSpec.unpartitioned();
    // the coordinator's key index, now and then with a budget too small for it
    KeyIndexSettings keyIndex =
        upsert && sim.chance(0.5)
            ? new KeyIndexSettings(
                table -> true,
                sim.chance(0.2) ? 64 : 1L << 20,
                "iceberg.tables.upsert-key-index-max-memory-mb")
            : KeyIndexSettings.off();
    Map<String, String> upsertConfig = new HashMap<>();
    catalog.createNamespace(Namespace.of("db"));
    for (int t = 0; t < tableCount; t++) {
      String name = "db.t" + t;
      tables.add(name);
      catalog.createTable(
          TableIdentifier.parse(name),
          upsert ? KEYED_TABLE : TABLE,
          spec,
          Map.of(
              TableProperties.FORMAT_VERSION,
              formatVersion,
              TableProperties.DEFAULT_FILE_FORMAT,
              format,
              TableProperties.COMMIT_NUM_RETRIES,
              Integer.toString(sim.between(0, 3)),
              TableProperties.COMMIT_MIN_RETRY_WAIT_MS,
              "0",
              TableProperties.COMMIT_MAX_RETRY_WAIT_MS,
              "0"));
      if (idColumns) {
        upsertConfig.put("iceberg.table." + name + ".id-columns", "key");
      }
    }
    if (upsert) {
      upsertConfig.put("iceberg.tables.upsert-mode-enabled", "true");
    }
    if (truncates) {
      upsertConfig.put("iceberg.tables.cdc-truncate-enabled", "true");
    }
    if (quarantineAbove >= 0) {
      upsertConfig.put(
          "iceberg.table.db.t0.contract",
          "id: sim\nversion: 1\nschema:\n  - name: t0\n    properties:\n      - name: offset\n"
              + "        logicalType: integer\n        logicalTypeOptions: {maximum: "
              + quarantineAbove
              + "}\n");
      upsertConfig.put("iceberg.table.db.t0.contract-rejects", "table");
    }
    if (!branch.isMain()) {
      upsertConfig.put("iceberg.tables.default-commit-branch", branch.name());
      for (String name : tables) {
        if (mainWriter.nextBoolean()) {
          // main holds rows before the connector's first commit creates the branch from it
          appendToMain(name);
        }
      }
    }
    long interval = sim.between(1_000, 6_000);
    ControlSettings settings =
        SimConnect.settings(
            Duration.ofMillis(interval),
            Duration.ofMillis(sim.between(500, 4_000)),
            Duration.ofMillis(sim.between(5_000, 60_000)),
            sim.chance(0.3) ? sim.between(1, 4_000) : Long.MAX_VALUE,
            keyIndex,
            maintenance,
            branch);
    WriterPoolOptions options = WriterPoolOptions.defaults().withSharedFiles(sim.chance(0.8));
    connect =
        new SimConnect(
            sim,
            source,
            control,
            catalog,
            tables,
            upsertConfig,
            settings,
            options,
            sim.between(1, 3),
            faults);
    control.faults(faults.forControlTopic());
    steps = sim.between(30, 160);
    sim.trace(
        "seed "
            + seed
            + ": "
            + source.partitions().size()
            + (upsert ? " partitions of changes, upsert tables " : " partitions, tables ")
            + tables
            + " ("
            + format
            + ", v"
            + formatVersion
            + (upsert ? idColumns ? ", id-columns" : ", keys from record keys" : "")
            + (truncates ? ", truncates" : "")
            + (spec.isUnpartitioned() ? "" : ", " + spec.fields())
            + (keyIndex.maxBytes() == Long.MAX_VALUE
                ? ""
                : ", key index of " + keyIndex.maxBytes() + " bytes")
            + (branch.isMain() ? "" : ", committed to branch " + branch)
            + (quarantineAbove < 0
                ? ""
                : ", offsets past " + quarantineAbove + " quarantined in " + QUARANTINE)
            + "), tasks.max "
            + connect.tasksMax()
            + ", interval "
            + interval
            + " ms, shared files "
            + options.shareFilesAcrossSourcePartitions()
            + ", faults "
            + faults.odds().keySet());
  }

  Outcome run() {
    try {
      connect.startMissingTasks(true);
      for (int i = 0; i < steps; i++) {
        sim.nextStep();
        step();
      }
      SimOracle oracle = new SimOracle();
      if (!settle()) {
        oracle.violated(
            "settles",
            "not every record committed after "
                + SETTLE_ROUNDS
                + " rounds without faults: group "
                + connect.committed()
                + ", ends "
                + ends());
      }
      check(oracle);
      return new Outcome(sim.seed, oracle.violations(), sim.trace(), faults.injected());
    } finally {
      release();
    }
  }

  private void step() {
    if (!branch.isMain() && mainWriter.nextInt(100) < 4) {
      appendToMain(tables.get(mainWriter.nextInt(tables.size())));
    }
    int roll = sim.random.nextInt(100);
    if (roll < 16) {
      TopicPartition partition = sim.pick(source.partitions());
      int count = sim.between(1, 6);
      source.produce(partition, count, sim.clock.millis(), sim.random);
    } else if (roll < 38) {
      somePut();
    } else if (roll < 60) {
      List<SimTask> running = connect.running();
      if (!running.isEmpty()) {
        sim.pick(running).workerTurn();
      }
    } else if (roll < 74) {
      List<SimTask> coordinators =
          connect.running().stream().filter(SimTask::hasCoordinator).toList();
      if (!coordinators.isEmpty()) {
        sim.pick(coordinators).coordinatorTurn();
      }
    } else if (roll < 88) {
      if (faults.strikes(Kind.EXTERNAL_MAINTENANCE)) {
        maintainElsewhere(sim.pick(tables));
      } else {
        sim.clock.advance(sim.between(0, 1_500));
      }
    } else if (roll < 91) {
      sim.clock.advance(connect.settings().commitInterval().toMillis());
    } else {
      connectEvent();
    }
  }

  /**
   * What an operator's maintenance job does to a table beside the connector: rewrite its manifests
   * (a snapshot without Floe's marks), then expire every snapshot but the newest, deleting the
   * files only they referenced, as Spark's {@code expire_snapshots(retain_last => 1)} does. Main's
   * manifests only (Iceberg rewrites no branch's), and the newest of main and of the branch kept.
   */
  private void maintainElsewhere(String name) {
    Table table = catalog.loadTable(TableIdentifier.parse(name));
    if (table.currentSnapshot() == null && branch.head(table) == null) {
      return;
    }
    if (table.currentSnapshot() != null) {
      table
          .rewriteManifests()
          .rewriteIf(manifest -> true)
          .clusterBy(file -> "all")
          .scanManifestsWith(new CallerRunsExecutor())
          .commit();
    }
    OtherEngine.expireAllButNewest(table, true);
    sim.trace(
        "another engine rewrote the manifests of "
            + name
            + " and expired all but its newest snapshot");
  }

  /**
   * The branch the connector commits to: another than main in a third of the schedules, drawn from
   * a generator of its own, so that the schedules' other draws stay as they were. Main moves on
   * meanwhile by another writer's appends ({@link #appendToMain}), which the branch must never hold
   * unless they came before its first commit, and main must never hold a row of the source.
   */
  private static CommitBranch commitBranch(java.util.SplittableRandom random) {
    return random.nextInt(3) == 0 ? CommitBranch.of("audit") : CommitBranch.MAIN;
  }

  /**
   * Another writer appends a row to the table's main branch: topic {@link SimOracle#ELSEWHERE}, and
   * in a keyed table a negative key, which no source change has.
   */
  private void appendToMain(String name) {
    Table table = catalog.loadTable(TableIdentifier.parse(name));
    int n = foreignRows++;
    org.apache.iceberg.data.GenericRecord row =
        org.apache.iceberg.data.GenericRecord.create(table.schema());
    row.setField("topic", SimOracle.ELSEWHERE);
    row.setField("partition", 0);
    row.setField("offset", (long) n);
    if (table.schema().findField("key") != null) {
      row.setField("key", -1L - n);
    }
    org.apache.iceberg.PartitionKey partition =
        new org.apache.iceberg.PartitionKey(table.spec(), table.schema());
    partition.partition(row);
    org.apache.iceberg.io.DataWriter<org.apache.iceberg.data.Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(table)
            .dataSchema(table.schema())
            .build()
            .newDataWriter(
                org.apache.iceberg.io.OutputFileFactory.builderFor(table, 999, n)
                    .build()
                    .newOutputFile(table.spec(), partition),
                table.spec(),
                table.spec().isUnpartitioned() ? null : partition);
    try (writer) {
      writer.write(row);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    table.newFastAppend().appendFile(writer.toDataFile()).commit();
    sim.trace("another writer appended a row to main of " + name);
  }

  /**
   * The coordinator's own maintenance, in half the schedules: snapshots expire as soon as they are
   * not among the newest one or two, and in half of those every partition's files are compacted as
   * soon as it has two, as often as every cycle; in half of all maintained schedules, files under a
   * table's location that nothing names are deleted once 20 to 40 s old (some ten commit intervals,
   * where a real connector's least age is days). Drawn from a generator of its own, so that the
   * schedules' other draws stay as they were.
   */
  private static MaintenanceSettings maintenance(java.util.SplittableRandom random) {
    if (random.nextBoolean()) {
      return MaintenanceSettings.off();
    }
    MaintenanceSettings settings =
        new MaintenanceSettings(
            table -> true,
            Duration.ofMillis(random.nextInt(3_000)),
            true,
            new SnapshotExpiry.Policy(0, 1 + random.nextInt(2)),
            random.nextBoolean() ? new Compaction.Settings(2, 0.2, Long.MAX_VALUE) : null,
            random.nextInt(4));
    return random.nextBoolean()
        ? settings.withOrphans(
            new OrphanFiles.Settings(
                OrphanFiles.Mode.DELETE, 20_000 + random.nextInt(20_000), Duration.ZERO))
        : settings;
  }

  private void somePut() {
    List<SimTask> running = connect.running();
    if (!running.isEmpty()) {
      sim.pick(running).put(source, 5);
    }
  }

  /** Something happens to the Connect cluster, of a kind this schedule has. */
  private void connectEvent() {
    List<SimTask> live = connect.live();
    int roll = sim.random.nextInt(6);
    if (roll == 0 && faults.allows(Kind.REBALANCE) && !live.isEmpty()) {
      connect.rebalance(sim.chance(0.4));
    } else if (roll == 1 && faults.allows(Kind.RESTART) && !live.isEmpty()) {
      connect.restart(sim.pick(live));
    } else if (roll == 2 && faults.allows(Kind.WORKER_DIES) && !live.isEmpty()) {
      SimTask victim = sim.pick(live);
      if (sim.chance(0.7)) {
        victim.becomeZombie();
      } else {
        victim.die();
      }
    } else if (roll == 3 && faults.allows(Kind.TASKS_MAX_CHANGES)) {
      connect.changeTasksMax(sim.between(1, 3));
    } else if (roll == 4) {
      // the group notices lost members after its session timeout; Connect restarts failed tasks
      if (connect.instances().stream().anyMatch(t -> !t.is(SimTask.State.LIVE))) {
        connect.startMissingTasks(sim.chance(0.5));
      }
    } else if (roll == 5 && !connect.running().isEmpty()) {
      sim.pick(connect.running()).coordinatorTurn();
    }
  }

  /**
   * Without faults, zombies gone and every task running, drives everything until the group has
   * committed every record and two more cycles have finished.
   */
  private boolean settle() {
    faults.disable();
    sim.trace("settling");
    for (SimTask task : connect.instances()) {
      if (task.is(SimTask.State.ZOMBIE)) {
        task.die();
      }
    }
    connect.startMissingTasks(true);
    Map<TopicPartition, Long> ends = ends();
    Long positionAtEnd = null;
    for (int round = 0; round < SETTLE_ROUNDS; round++) {
      sim.nextStep();
      if (connect.live().size() < connect.tasksMax()
          || connect.live().stream().noneMatch(SimTask::hasCoordinator)) {
        connect.startMissingTasks(true);
      }
      for (SimTask task : connect.live()) {
        task.put(source, 50);
      }
      connect.live().forEach(SimTask::coordinatorTurn);
      connect.live().forEach(SimTask::workerTurn);
      connect.live().forEach(SimTask::coordinatorTurn);
      sim.clock.advance(connect.settings().commitInterval().toMillis() / 2 + 1);
      if (connect.committed().equals(ends)) {
        long position = coordinatorPosition();
        if (positionAtEnd == null) {
          positionAtEnd = position;
        } else if (position > positionAtEnd + 3) {
          return true;
        }
      }
    }
    return false;
  }

  private long coordinatorPosition() {
    return control.committedOffsets(connect.settings().coordinatorGroupId()).values().stream()
        .mapToLong(o -> o.offset())
        .sum();
  }

  private Map<TopicPartition, Long> ends() {
    Map<TopicPartition, Long> ends = new java.util.HashMap<>();
    for (TopicPartition partition : source.partitions()) {
      if (source.end(partition) > 0) {
        ends.put(partition, source.end(partition));
      }
    }
    return ends;
  }

  private void check(SimOracle oracle) {
    Map<TopicPartition, Long> committed = connect.committed();
    oracle.checkGroup(source, committed);
    List<String> checked = new ArrayList<>(tables);
    if (quarantineAbove >= 0) {
      oracle.quarantine(QUARANTINE, quarantineAbove);
      // the records past the bound, if any was produced, are in the quarantine table
      if (source.partitions().stream().anyMatch(p -> source.end(p) - 1 > quarantineAbove)) {
        checked.add(QUARANTINE);
      }
    }
    for (String table : checked) {
      oracle.checkTable(
          table, catalog.loadTable(TableIdentifier.parse(table)), branch, source, committed, io);
    }
    if (quarantineAbove >= 0) {
      oracle.checkSummariesTogether(committed);
    }
    oracle.checkNoOverwrite(io);
  }

  /** Fences the producer of the acting thread, as a newer one of its transactional id would. */
  private void fenceActor() {
    SimActor actor = sim.actor();
    ControlSettings settings = SimConnect.settings(actor.taskIndex, connect.settings());
    control.fence(
        sim.coordinatorActing()
            ? settings.coordinatorTransactionalId()
            : settings.workerTransactionalId());
  }

  private void release() {
    for (SimTask task : connect.instances()) {
      try {
        task.release();
      } catch (RuntimeException | SimCrash e) {
        // the schedule is over: what is left behind does not matter
      }
    }
    List<TableIdentifier> ids =
        java.util.stream.Stream.concat(tables.stream(), java.util.stream.Stream.of(QUARANTINE))
            .map(TableIdentifier::parse)
            .toList();
    io.deleteAll(catalog.metadataFiles(ids));
  }
}
