/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.connect.control.EventCodec;
import io.floe.connect.control.EventType;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.LogFile;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exactly once on the real stack: a KRaft broker, a two-worker Connect cluster running the plugin
 * from the zip, and a REST catalog, with the helpers the end-to-end tests of exactly once share.
 * Every test checks exact oracles ({@link TableOracle}). Its test classes each start their own
 * catalog and workers (a worker group named after the class), so that they can run side by side.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
abstract class ExactlyOnceStack {
  static final long INTERVAL_MS = 2000;
  static final Duration CONVERGE = Duration.ofSeconds(120);

  /** Records per second of the live traffic. */
  static final int RATE = 2000;

  static final Pattern COMMIT_FAILED = Pattern.compile("Commit (\\S+) of tables \\S.* failed");
  static final Pattern FENCED = Pattern.compile("was fenced");

  KafkaBroker broker;
  RestCatalogServer rest;
  Catalog catalog;
  ConnectWorker worker1;
  ConnectWorker worker2;
  JmxWorkers workers;
  OrderEvents events;
  Admin admin;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /** The shared broker; a catalog and workers of its own, which it fails, kills and freezes. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
    workers = new JmxWorkers(services, broker, getClass().getSimpleName().toLowerCase(Locale.ROOT));
    worker1 = startWorker();
    worker2 = startWorker();
    events = services.own(new OrderEvents(broker.bootstrapServers()));
    admin = services.own(broker.admin());
  }

  ConnectWorker startWorker() {
    return workers.start();
  }

  /**
   * The pending manifests that the coordinator on {@code host} found already in connector {@code
   * name}'s tables, and so did not commit again (its {@code manifests-already-committed} metrics; 0
   * while it runs no coordinator of the connector).
   */
  long manifestsAlreadyCommitted(ConnectWorker host, String name) throws IOException {
    return tableMetric(host, name, "manifests-already-committed");
  }

  long tableMetric(ConnectWorker host, String name, String metric) throws IOException {
    return workers.tableMetric(host, name, metric);
  }

  /** Waits until the coordinator on {@code host} skips pending manifests its tables hold. */
  void awaitManifestsAlreadyCommitted(ConnectWorker host, String name, long before) {
    Await.until(
        "the coordinator to find pending manifests already committed",
        CONVERGE,
        () -> manifestsAlreadyCommitted(host, name),
        skipped -> skipped > before);
  }

  /**
   * The cycles that connector {@code name}'s two tables hold now (none of a table the connector has
   * not created yet).
   */
  Set<String> committedCycles(String name) {
    Set<String> cycles = new HashSet<>();
    for (String table : List.of(name + "_a", name + "_b")) {
      if (catalog.tableExists(TableIdentifier.parse("db." + table))) {
        cycles.addAll(commitIds(table));
      }
    }
    cycles.remove(null);
    return cycles;
  }

  /** Waits until a cycle that is not in {@code before} is committed to one of the tables. */
  void awaitNewCycleCommitted(String name, Set<String> before) {
    Await.until(
        "a new cycle committed to the tables of " + name,
        CONVERGE,
        () -> committedCycles(name),
        cycles -> !before.containsAll(cycles));
  }

  /** Waits until one more cycle is committed to one of the tables. */
  void awaitNewCycleCommitted(String name) {
    awaitNewCycleCommitted(name, committedCycles(name));
  }

  /** A test that fails leaves its connector behind: delete it, so it loads no later test. */
  @AfterEach
  void deleteConnectors() {
    ConnectRest.Response connectors = worker1.rest().send("GET", "/connectors", null);
    if (connectors.ok() && connectors.body() != null) {
      for (JsonNode name : connectors.body()) {
        worker1.rest().deleteConnector(name.asText());
      }
    }
  }

  Map<String, String> connector(String name, String topic, int tasks) {
    Map<String, String> config =
        TwoTableConnector.config(
            name, topic, tasks, rest.clientProperties(), broker.bootstrapServers(), INTERVAL_MS);
    config.put("iceberg.table.db." + name + "_a.partition-by", "day(ts)");
    return config;
  }

  TableOracle oracle(String name) {
    return TwoTableConnector.oracle(catalog, name);
  }

  static void await(String what, LongSupplier actual, long expected, Duration timeout)
      throws InterruptedException {
    TwoTableConnector.await(what, actual, expected, timeout);
  }

  List<String> commitIds(String table) {
    List<String> ids = new ArrayList<>();
    for (Snapshot snapshot : catalog.loadTable(TableIdentifier.parse("db." + table)).snapshots()) {
      ids.add(snapshot.summary().get("floe.commit-id"));
    }
    return ids;
  }

  /** Visits of a consumer to the cooperative group, at most, until a shared file was dropped. */
  static final int MAX_VISITS = 5;

  /**
   * A plain consumer in the connector's group, with the cooperative assignor, that never commits:
   * it only takes partitions away from the tasks while it is a member.
   */
  KafkaConsumer<byte[], byte[]> visitingMember(String name) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "connect-" + name);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "visiting-member-" + name);
    props.put(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  static Pattern rewindsBoth(String task, String partition) {
    return Pattern.compile(
        "Task " + Pattern.quote(task) + " rewinds \\{.*" + Pattern.quote(partition) + "=");
  }

  /** The 61-byte header of a record batch, and the most one record adds besides key and value. */
  static final int RECORD_BATCH_OVERHEAD = 61 + 32;

  /**
   * Sizes (key and value) of the events on a control topic.
   *
   * @param largestWithoutData the largest event that hands over no data files: cycles started and
   *     completed, answers without data, commit requests
   * @param smallestDataWritten the smallest event that hands over data files
   */
  record ControlSizes(int largestWithoutData, int smallestDataWritten) {}

  ControlSizes controlEventSizes(String control) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    TopicPartition partition = new TopicPartition(control, 0);
    int without = 0;
    int withData = Integer.MAX_VALUE;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (consumer.position(partition) < end && Instant.now().isBefore(deadline)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.value() == null) {
            continue;
          }
          int size = Math.max(0, record.serializedKeySize()) + record.serializedValueSize();
          if (EventCodec.peekHeader(record.value()).is(EventType.DATA_WRITTEN)) {
            withData = Math.min(withData, size);
          } else {
            without = Math.max(without, size);
          }
        }
      }
    }
    return new ControlSizes(without, withData);
  }

  /** Sets the topic's {@code max.message.bytes}; null restores the broker default. */
  void setMaxMessageBytes(String topic, Integer bytes) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    AlterConfigOp op =
        bytes == null
            ? new AlterConfigOp(
                new ConfigEntry("max.message.bytes", ""), AlterConfigOp.OpType.DELETE)
            : new AlterConfigOp(
                new ConfigEntry("max.message.bytes", Integer.toString(bytes)),
                AlterConfigOp.OpType.SET);
    admin
        .incrementalAlterConfigs(Map.of(resource, List.of(op)))
        .all()
        .get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** The worker running task {@code task} of the connector. */
  ConnectWorker workerOf(String name, int task) {
    for (JsonNode status : worker1.rest().status(name).path("tasks")) {
      if (status.path("id").asInt() == task) {
        return status.path("worker_id").asText().endsWith(":" + worker1.restPort())
            ? worker1
            : worker2;
      }
    }
    throw new AssertionError("No task " + task + " of " + name);
  }

  /**
   * Records flow; the REST catalog holds the coordinator's next multi-table commit, either before
   * applying it or once applied (so the coordinator never commits its control-topic position for
   * it), while the test kills the worker running the coordinator. The survivor takes over and must
   * commit the cycle's data exactly once: again if it never landed, not again if it did. Once it
   * landed, an operator's maintenance job also rewrites one table's manifests and expires all but
   * its newest snapshot, so that no snapshot of that table holds the connector's marks any more.
   */
  void killTheCoordinatorsWorkerInsideACommit(String name, boolean applied) throws Exception {
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 2));
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker survivor = other(host);
      RestCatalogServer.HeldRequest commit =
          applied
              ? rest.holdApplied(RestCatalogServer.TRANSACTION_COMMIT)
              : rest.holdUnapplied(RestCatalogServer.TRANSACTION_COMMIT);
      commit.awaitHeld(CONVERGE);
      if (applied) {
        maintainElsewhere(TableIdentifier.of("db", name + "_a"));
      }
      Set<String> cyclesAtKill = committedCycles(name);
      host.kill();
      commit.release();
      try {
        // the survivor runs the coordinator now, and commits what it finds pending; what the
        // held commit applied it finds already committed
        awaitNewCycleCommitted(name, cyclesAtKill);
        if (applied) {
          awaitManifestsAlreadyCommitted(survivor, name, 0);
        }
        long sent = producer.stop();
        await("rows after the coordinator's worker was killed", oracle::rowCount, sent, CONVERGE);
        oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
        assertNoCycleTwiceInATable(name);
        survivor.rest().deleteConnector(name);
      } finally {
        restart(host);
      }
    } finally {
      rest.clearFaults();
    }
  }

  /**
   * Records flow into a connector that compacts table a after every commit and looks for orphan
   * files (a dry run) with a control topic of its own, kept 10 s. The REST catalog holds the
   * coordinator's first compaction commit, unapplied or applied, while the test kills the worker
   * running the coordinator (its tasks and its compaction die with it). The survivor takes over and
   * every record must land once. A compaction that never landed leaves its new files behind: the
   * survivor's dry run finds them once they are older than the topic's retention plus the commit
   * timeout and deletes nothing; with {@code delete}, it deletes them, and every file the tables
   * reference is still there.
   */
  void killTheCoordinatorsWorkerInsideACompaction(String name, boolean applied) throws Exception {
    String control = name + "-control";
    broker.createTopic(control, 1, Map.of("retention.ms", Long.toString(CONTROL_RETENTION_MS)));
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name, name, 2);
    config.put("iceberg.control.topic", control);
    config.put("iceberg.maintenance.interval-ms", "0");
    config.put("iceberg.maintenance.expire-snapshots-enabled", "false");
    config.put("iceberg.maintenance.compaction.min-input-files", "2");
    config.put("iceberg.maintenance.orphan-files", "dry-run");
    config.put("iceberg.maintenance.orphan-files.min-age-ms", Long.toString(2 * INTERVAL_MS));
    config.put("iceberg.maintenance.orphan-files.interval-ms", "0");
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    TableIdentifier a = TableIdentifier.of("db", name + "_a");
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      RestCatalogServer.HeldRequest compaction =
          applied
              ? rest.holdApplied("/tables/" + name + "_a")
              : rest.holdUnapplied("/tables/" + name + "_a");
      compaction.awaitHeld(CONVERGE);
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker survivor = other(host);
      host.kill();
      compaction.release();
      try {
        awaitNewCycleCommitted(name);
        if (!applied) {
          // the dead coordinator's compaction files are orphans once older than the survivor's
          // minimum age: the control topic's retention plus the commit timeout
          long minAgeMs =
              CONTROL_RETENTION_MS
                  + Long.parseLong(config.get("iceberg.control.commit.timeout-ms"))
                  + 1;
          long orphansFromMs = newestModified(unreferencedCompactionFiles(a)) + minAgeMs;
          assertThat(awaitOrphanScanStartedAfter(survivor, name, a, orphansFromMs))
              .as("orphans the survivor's dry run found once the files were old enough")
              .isPositive();
          assertThat(unreferencedCompactionFiles(a))
              .as("compaction files no snapshot references, left by the dry run")
              .isNotEmpty();
          assertThat(tableMetric(survivor, name, "orphan-files-deleted")).isZero();
          config.put("iceberg.maintenance.orphan-files", "delete");
          survivor.rest().putConnector(name, config);
          Await.until(
              "the survivor to delete the orphans",
              CONVERGE,
              () -> tableMetric(survivor, name, "orphan-files-deleted"),
              deleted -> deleted > 0);
          assertThat(unreferencedCompactionFiles(a)).isEmpty();
        }
        long sent = producer.stop();
        await("rows after the compacting coordinator was killed", oracle::rowCount, sent, CONVERGE);
        oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
        assertNoCycleTwiceInATable(name);
        for (String table : List.of(name + "_a", name + "_b")) {
          Table loaded = catalog.loadTable(TableIdentifier.of("db", table));
          for (org.apache.iceberg.FileScanTask task : loaded.newScan().planFiles()) {
            assertThat(loaded.io().newInputFile(task.file().location()).exists())
                .as("file %s of %s", task.file().location(), table)
                .isTrue();
          }
        }
        if (applied) {
          assertThat(compactions(a)).as("compaction snapshots of table a").isPositive();
        }
        survivor.rest().deleteConnector(name);
      } finally {
        restart(host);
      }
    } finally {
      rest.clearFaults();
    }
  }

  /** The retention of the control topic of a compaction test, which bounds an orphan's age. */
  static final long CONTROL_RETENTION_MS = 10_000;

  /**
   * Waits for a scan for orphan files of table {@code id} by the coordinator on {@code host} that
   * began at {@code fromMs} or later, and returns the orphans the table's last scan found. A scan
   * is told by its end ({@code last-orphan-scan-time-ms}); the first that ends after {@code fromMs}
   * may have begun before, the one after it did not. The coordinator scans after each of its
   * commits to the table, so the bound counts from {@code fromMs}, not from the test's start.
   */
  long awaitOrphanScanStartedAfter(ConnectWorker host, String name, TableIdentifier id, long fromMs)
      throws IOException {
    long firstEnd =
        Await.until(
            "a scan for orphans of " + id + " ending after " + Instant.ofEpochMilli(fromMs),
            CONVERGE.plusMillis(Math.max(0, fromMs - System.currentTimeMillis())),
            () -> tableMetricOf(host, name, id, "last-orphan-scan-time-ms"),
            end -> end > fromMs);
    long found = tableMetricOf(host, name, id, "orphan-files-found");
    if (found > 0) {
      return found;
    }
    Await.until(
        "a scan for orphans of " + id + " beginning after " + Instant.ofEpochMilli(fromMs),
        CONVERGE,
        () -> tableMetricOf(host, name, id, "last-orphan-scan-time-ms"),
        end -> end > firstEnd);
    return tableMetricOf(host, name, id, "orphan-files-found");
  }

  /** A metric of one table of the connector's coordinator on {@code host}. */
  long tableMetricOf(ConnectWorker host, String name, TableIdentifier id, String metric)
      throws IOException {
    try (RemoteJmx jmx = workers.jmx(host)) {
      return jmx.attribute(
              RemoteJmx.name(
                  "io.floe:type=table-metrics,connector=" + name + ",table=" + id.toString()),
              metric)
          .longValue();
    } catch (IllegalStateException e) {
      return -1; // not registered (yet)
    }
  }

  /** When the newest of the files was last modified (epoch ms). */
  static long newestModified(List<String> files) throws IOException {
    assertThat(files).as("files").isNotEmpty();
    long newest = 0;
    for (String file : files) {
      newest =
          Math.max(
              newest,
              java.nio.file.Files.getLastModifiedTime(java.nio.file.Path.of(file)).toMillis());
    }
    return newest;
  }

  /** Files the connector's compaction wrote under the table's location that no snapshot names. */
  List<String> unreferencedCompactionFiles(TableIdentifier id) throws IOException {
    Table table = catalog.loadTable(id);
    Set<String> referenced = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (org.apache.iceberg.ManifestFile manifest : snapshot.dataManifests(table.io())) {
        try (var paths =
            org.apache.iceberg.ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
          paths.forEach(location -> referenced.add(localPath(location)));
        }
      }
    }
    try (var files = java.nio.file.Files.walk(java.nio.file.Path.of(localPath(table.location())))) {
      return files
          .filter(java.nio.file.Files::isRegularFile)
          .map(java.nio.file.Path::toString)
          .filter(file -> file.contains("floe-compaction-") && file.endsWith(".parquet"))
          .filter(file -> !referenced.contains(file))
          .toList();
    }
  }

  /** A location of the local warehouse as a file system path. */
  static String localPath(String location) {
    return java.nio.file.Path.of(location.replaceFirst("^file:(//)?", "")).normalize().toString();
  }

  /** The snapshots of the table that replaced files (compactions). */
  long compactions(TableIdentifier id) {
    long replaces = 0;
    for (Snapshot snapshot : catalog.loadTable(id).snapshots()) {
      replaces += "replace".equals(snapshot.operation()) ? 1 : 0;
    }
    return replaces;
  }

  /**
   * What Spark's {@code rewrite_manifests} and {@code expire_snapshots(retain_last => 1)} do to a
   * table: a snapshot without the connector's marks, then every older snapshot expired and the
   * files only they referenced deleted.
   */
  void maintainElsewhere(TableIdentifier identifier) {
    Table table = catalog.loadTable(identifier);
    table.rewriteManifests().rewriteIf(manifest -> true).commit();
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();
    table.refresh();
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.currentSnapshot().summary()).doesNotContainKey("floe.commit-id");
  }

  /**
   * Records flow at a steady rate into a 4-task connector on both workers. While the catalog holds
   * a cycle's commit (applied, its answer pending), so that no cycle starts, one worker is frozen
   * (SIGSTOP): the one running the coordinator, or the other one. It stays frozen past its session
   * timeout, so the other worker starts its tasks (and the coordinator). Once they own the frozen
   * worker's partitions, the commit is released: they answer the next cycle under the same task ids
   * and it is committed. Then the frozen worker is thawed: it still holds its old tasks, and the
   * first cycle it reads is that committed one. It must be fenced without changing anything the
   * tables hold.
   */
  void frozenPastItsSessionTimeout(String name, boolean coordinatorHost) throws Exception {
    broker.createTopic(name, 4);
    worker1.rest().putConnector(name, connector(name, name, 4));
    worker1.rest().awaitRunning(name, 4, Duration.ofSeconds(60));
    awaitTasksOnBothWorkers(name);
    TableOracle oracle = oracle(name);
    try (SteadyProducer producer = SteadyProducer.start(events, name, 4, 0, RATE)) {
      ConnectWorker host = coordinatorHost(name);
      ConnectWorker zombie = coordinatorHost ? host : other(host);
      ConnectWorker survivor = other(zombie);
      List<String> zombieTasks = tasksOn(name, zombie);
      LogFile zombieLog = zombie.logFile();
      LogFile survivorLog = survivor.logFile();
      RestCatalogServer.HeldRequest commit = rest.holdApplied(RestCatalogServer.TRANSACTION_COMMIT);
      commit.awaitHeld(CONVERGE);
      long frozenAt = survivorLog.mark();
      zombie.freeze();
      long thawedAt = zombieLog.mark();
      try {
        for (String task : zombieTasks) {
          survivorLog.await(workerStarted(task), frozenAt, Duration.ofSeconds(90));
        }
        awaitEveryPartitionOwned(name, 4);
        long releasedAt = survivorLog.mark();
        commit.release();
        // the new instances answer the next cycle, and it is committed
        for (String task : zombieTasks) {
          survivorLog.await(answeredWithData(task), releasedAt, CONVERGE);
        }
        awaitNewCycleCommitted(name);
      } finally {
        zombie.thaw();
      }
      // the zombie tried to hand over what it held, and was refused
      zombieLog.await(FENCED, thawedAt, Duration.ofSeconds(60));
      long sent = producer.stop();
      await("rows after the zombie came back", oracle::rowCount, sent, CONVERGE);
      oracle.assertExactlyOnce(admin, "connect-" + name, name, sent);
      assertNoCycleTwiceInATable(name);
      survivor.rest().deleteConnector(name);
    } finally {
      rest.clearFaults();
    }
  }

  static Pattern answeredWithData(String task) {
    return Pattern.compile("Task " + Pattern.quote(task) + " answered cycle \\S+: \\d+ manifests");
  }

  /**
   * Waits until the connector's consumer group is stable with {@code members} owning a partition.
   */
  void awaitEveryPartitionOwned(String name, int members) throws Exception {
    Await.until(
        "group connect-" + name + " spread over " + members,
        CONVERGE,
        () ->
            admin
                .describeConsumerGroups(List.of("connect-" + name))
                .all()
                .get(30, java.util.concurrent.TimeUnit.SECONDS)
                .get("connect-" + name),
        group ->
            group.groupState() == org.apache.kafka.common.GroupState.STABLE
                && group.members().size() == members
                && group.members().stream()
                    .allMatch(m -> !m.assignment().topicPartitions().isEmpty()));
  }

  static Pattern workerStarted(String task) {
    return Pattern.compile("Worker of task " + Pattern.quote(task) + " started");
  }

  static Pattern answered(String task) {
    return Pattern.compile("Task " + Pattern.quote(task) + " answered cycle");
  }

  /** The task ids ({@code <connector>-<n>}) of the connector's tasks on {@code worker}. */
  List<String> tasksOn(String name, ConnectWorker worker) throws Exception {
    List<String> tasks = new ArrayList<>();
    for (JsonNode task : worker1.rest().status(name).path("tasks")) {
      if (task.path("worker_id").asText().endsWith(":" + worker.restPort())) {
        tasks.add(name + "-" + task.path("id").asText());
      }
    }
    assertThat(tasks).as("tasks of %s on %s", name, worker.rest().baseUrl()).isNotEmpty();
    return tasks;
  }

  ConnectWorker other(ConnectWorker worker) {
    return worker == worker1 ? worker2 : worker1;
  }

  /**
   * Every snapshot of the connector's tables that adds rows names its cycle (a maintenance job's
   * rewrite adds none), and no cycle is in a table twice.
   */
  void assertNoCycleTwiceInATable(String name) {
    for (String table : List.of(name + "_a", name + "_b")) {
      List<String> ids = new ArrayList<>();
      for (Snapshot snapshot :
          catalog.loadTable(TableIdentifier.parse("db." + table)).snapshots()) {
        if (!org.apache.iceberg.DataOperations.REPLACE.equals(snapshot.operation())) {
          ids.add(snapshot.summary().get("floe.commit-id"));
        }
      }
      assertThat(ids).as("cycles of table %s", table).doesNotContainNull().doesNotHaveDuplicates();
    }
  }

  /** Waits until the connector's tasks are spread over both workers. */
  void awaitTasksOnBothWorkers(String name) throws Exception {
    Await.until(
        "workers running the tasks of " + name + " to be two",
        Duration.ofSeconds(60),
        () -> {
          java.util.Set<String> workers = new java.util.HashSet<>();
          for (var task : worker1.rest().status(name).path("tasks")) {
            workers.add(task.path("worker_id").asText());
          }
          return workers;
        },
        workers -> workers.size() == 2);
  }

  /**
   * After {@code rounds} rounds of ids 0 to 999 over 4 partitions: table a holds every even id's
   * record of every round once, table b each odd id once, from the last round's record.
   */
  void assertUpsertAndAppendTables(String name, int rounds) {
    TableOracle appended = new TableOracle(catalog, List.of("db." + name + "_a"));
    List<TableOracle.Origin> origins = appended.origins();
    assertThat(origins).as("rows of the append table").hasSize(500 * rounds);
    assertThat(new HashSet<>(origins)).as("distinct origins").hasSize(500 * rounds);
    appended.assertNoFileInTwoSnapshots();
    Map<Long, Long> offsets = new HashMap<>();
    Table upserts = catalog.loadTable(TableIdentifier.of("db", name + "_b"));
    try (CloseableIterable<Record> rows = IcebergGenerics.read(upserts).build()) {
      for (Record row : rows) {
        Record kafka = (Record) row.getField("_kafka");
        assertThat(offsets.put((Long) row.getField("id"), (Long) kafka.getField("offset")))
            .as("rows of id %s in the upsert table", row.getField("id"))
            .isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<Long, Long> expected = new HashMap<>();
    for (long id = 1; id < 1000; id += 2) {
      // the round's 1000 ids go round-robin over 4 partitions: 250 records a partition a round
      expected.put(id, 250L * (rounds - 1) + id / 4);
    }
    assertThat(offsets)
        .as("the upsert table's ids and the offsets of their rows")
        .isEqualTo(expected);
  }

  static Pattern commitFailedAgain(String cycle) {
    return Pattern.compile(
        "Commit " + Pattern.quote(cycle) + " of tables .* failed.*retrying in [1-9][0-9]{3,} ms");
  }

  /** {@code cycle} went into both tables of the connector, once each. */
  void assertCycleInBothTablesOnce(String name, String cycle) {
    for (String table : List.of(name + "_a", name + "_b")) {
      assertThat(commitIds(table))
          .as("snapshots of cycle %s in table %s", cycle, table)
          .filteredOn(cycle::equals)
          .hasSize(1);
    }
  }

  long snapshotCount(TableIdentifier table) {
    Table loaded = catalog.loadTable(table);
    long count = 0;
    for (Snapshot ignored : loaded.snapshots()) {
      count++;
    }
    return count;
  }

  /**
   * The worker running the connector's coordinator: the one whose log shows the latest commit of
   * the connector's tables (waiting for a first one).
   */
  /**
   * The worker whose task runs connector {@code name}'s coordinator: the only one whose coordinator
   * metrics show a finished cycle (a coordinator that stops unregisters them).
   */
  ConnectWorker coordinatorHost(String name) {
    return Await.until(
            "one worker running the coordinator of " + name,
            CONVERGE,
            () ->
                java.util.stream.Stream.of(worker1, worker2)
                    .filter(worker -> cyclesCompleted(worker, name) > 0)
                    .toList(),
            hosts -> hosts.size() == 1)
        .get(0);
  }

  /**
   * The cycles the coordinator of {@code name} on {@code worker} finished, 0 if none runs there.
   */
  long cyclesCompleted(ConnectWorker worker, String name) {
    try (RemoteJmx jmx = workers.jmx(worker)) {
      long cycles = 0;
      for (ObjectName bean :
          jmx.names("io.floe:type=coordinator-metrics,connector=" + name + ",*")) {
        cycles += jmx.attribute(bean, "cycles-completed").longValue();
      }
      return cycles;
    } catch (IOException | RuntimeException e) {
      return 0; // a worker that is down runs no coordinator
    }
  }

  void restart(ConnectWorker dead) {
    if (dead == worker1) {
      worker1 = startWorker();
    } else {
      worker2 = startWorker();
    }
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
