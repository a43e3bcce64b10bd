/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Table maintenance over a long run, against the same traffic without it: two connectors side by
 * side on one stack (two Connect workers, a REST catalog), each writing a day-partitioned and an
 * unpartitioned table from 4 partitions at a 2 s commit interval, one maintaining its tables every
 * 30 s (compaction, snapshots kept 60 s), the other not. Halfway, one worker is killed (-9) and
 * started again a little later. At the end every record must be in the tables exactly once, the
 * maintained tables' data-file and snapshot counts within the bounds their settings imply,
 * compaction and expiry must have run several times and no commit failed. It prints, for both
 * connectors: files and snapshots, scan-planning and full-read time, commit latency p50/p99, and
 * the share of the run the coordinator spent maintaining. A benchmark ({@code -Pbench}): {@code
 * -Dfloe.soak.minutes} sets the length (10).
 */
@Tag("bench")
@ExtendWith(SharedStack.Extension.class)
class MaintenanceSoakIT {
  private static final long INTERVAL_MS = 2000;
  private static final long MAINTENANCE_INTERVAL_MS = 30_000;
  private static final long SNAPSHOT_MAX_AGE_MS = 60_000;
  private static final int TASKS = 2;
  private static final int RATE = 1000;
  private static final Duration CONVERGE = Duration.ofMinutes(3);
  private static final Path RESULTS =
      Paths.get(System.getProperty("floe.it.work", "target/it-work"), "maintenance-soak.md");

  @RegisterExtension final Services services = Services.closedAfterAll();

  private KafkaBroker broker;

  /** What the sampler saw of one connector's tables. */
  private static final class Seen {
    final Map<Long, Long> commitMsBySnapshot = new ConcurrentHashMap<>();
    final Map<String, Long> maintenanceMs = new ConcurrentHashMap<>();
    final Map<String, Long> maxDataFiles = new ConcurrentHashMap<>();
    final Map<String, Long> maxSnapshots = new ConcurrentHashMap<>();
    final Map<String, Long> expired = new ConcurrentHashMap<>();
    final Map<String, Long> compacted = new ConcurrentHashMap<>();
    volatile long commitFailures;

    long total(Map<String, Long> byWorkerAndTable) {
      return byWorkerAndTable.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  @Test
  void maintainedTablesStayBoundedAndExactAcrossAKilledWorker(SharedStack stack) throws Exception {
    long minutes = Long.getLong("floe.soak.minutes", 10);
    broker = stack.broker();
    RestCatalogServer rest = services.own(RestCatalogServer.withLocalWarehouse());
    Catalog catalog = services.catalog("soak", rest.clientProperties());
    Admin admin = services.own(broker.admin());
    OrderEvents events = services.own(new OrderEvents(broker.bootstrapServers()));
    JmxWorkers jmxWorkers = new JmxWorkers(services, broker, "soak");
    List<ConnectWorker> workers = new ArrayList<>(List.of(jmxWorkers.start(), jmxWorkers.start()));

    Map<String, Seen> seen = new HashMap<>();
    for (String name : List.of("kept", "plain")) {
      broker.createTopic(name, 4);
      Map<String, String> config =
          TwoTableConnector.config(
              name, name, TASKS, rest.clientProperties(), broker.bootstrapServers(), INTERVAL_MS);
      config.put("iceberg.table.db." + name + "_a.partition-by", "day(ts)");
      if (name.equals("kept")) {
        config.put("iceberg.maintenance.interval-ms", Long.toString(MAINTENANCE_INTERVAL_MS));
        config.put("iceberg.maintenance.snapshot-max-age-ms", Long.toString(SNAPSHOT_MAX_AGE_MS));
        config.put("iceberg.maintenance.min-snapshots-to-keep", "10");
      } else {
        config.put("iceberg.tables.maintenance-enabled", "false");
      }
      workers.get(0).rest().putConnector(name, config);
      workers.get(0).rest().awaitRunning(name, TASKS, Duration.ofSeconds(60));
      seen.put(name, new Seen());
    }

    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    long started = System.currentTimeMillis();
    sampler.scheduleWithFixedDelay(
        () -> seen.forEach((name, what) -> sample(jmxWorkers, workers, name, what)),
        500,
        500,
        TimeUnit.MILLISECONDS);
    long sentKept;
    long sentPlain;
    try (SteadyProducer kept = SteadyProducer.start(events, "kept", 4, 0, RATE);
        SteadyProducer plain = SteadyProducer.start(events, "plain", 4, 0, RATE)) {
      Thread.sleep(minutes * 30_000);
      ConnectWorker killed = workers.get(1);
      killed.kill();
      Thread.sleep(20_000);
      workers.set(1, jmxWorkers.start());
      Thread.sleep(Math.max(0, minutes * 60_000 - (System.currentTimeMillis() - started)));
      sentKept = kept.stop();
      sentPlain = plain.stop();
    }
    TableOracle keptOracle = TwoTableConnector.oracle(catalog, "kept");
    TableOracle plainOracle = TwoTableConnector.oracle(catalog, "plain");
    TwoTableConnector.await("rows of kept", keptOracle::rowCount, sentKept, CONVERGE);
    TwoTableConnector.await("rows of plain", plainOracle::rowCount, sentPlain, CONVERGE);
    long runMs = System.currentTimeMillis() - started;
    sampler.shutdownNow();
    keptOracle.assertExactlyOnce(admin, "connect-kept", "kept", sentKept);
    plainOracle.assertExactlyOnce(admin, "connect-plain", "plain", sentPlain);

    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            Locale.ROOT,
            "%n## Maintenance soak, %d min, %d records/s per connector, commit interval %d ms,"
                + " maintenance every %d ms (snapshots kept %d ms)%n%n"
                + "| connector | table | data files | snapshots | max data files | max snapshots |"
                + " plan ms | read ms | rows | commits of both tables | commit p50 ms | commit p99 ms |"
                + " maintenance ms | share of run |%n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%n",
            minutes,
            RATE,
            INTERVAL_MS,
            MAINTENANCE_INTERVAL_MS,
            SNAPSHOT_MAX_AGE_MS));
    Map<String, Long> keptFacts = new HashMap<>();
    for (String name : List.of("kept", "plain")) {
      Seen what = seen.get(name);
      List<Long> latencies = new ArrayList<>(what.commitMsBySnapshot.values());
      latencies.sort(null);
      long maintenance = what.maintenanceMs.values().stream().mapToLong(Long::longValue).sum();
      for (String suffix : List.of("_a", "_b")) {
        Table table = catalog.loadTable(TableIdentifier.of("db", name + suffix));
        long dataFiles = 0;
        long planMs = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
          long t0 = System.nanoTime();
          long files = 0;
          try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask ignored : tasks) {
              files++;
            }
          }
          planMs = Math.min(planMs, (System.nanoTime() - t0) / 1_000_000);
          dataFiles = files;
        }
        long t0 = System.nanoTime();
        long rows = 0;
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
          for (Record ignored : records) {
            rows++;
          }
        }
        long readMs = (System.nanoTime() - t0) / 1_000_000;
        int snapshots = 0;
        for (var ignored : table.snapshots()) {
          snapshots++;
        }
        report.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f%% |%n",
                name,
                name + suffix,
                dataFiles,
                snapshots,
                what.maxDataFiles.getOrDefault(name + suffix, -1L),
                what.maxSnapshots.getOrDefault(name + suffix, -1L),
                planMs,
                readMs,
                rows,
                latencies.size(),
                percentile(latencies, 50),
                percentile(latencies, 99),
                maintenance,
                100.0 * maintenance / runMs));
        if (name.equals("kept")) {
          keptFacts.put(suffix + ".files", dataFiles);
          keptFacts.put(suffix + ".snapshots", (long) snapshots);
          keptFacts.put(suffix + ".maxFiles", what.maxDataFiles.getOrDefault(name + suffix, -1L));
          keptFacts.put(
              suffix + ".maxSnapshots", what.maxSnapshots.getOrDefault(name + suffix, -1L));
        }
      }
    }
    System.out.println(report);
    Files.createDirectories(RESULTS.getParent());
    Files.writeString(
        RESULTS, report.toString(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);

    // bounds of the maintained tables: between two runs each task adds a file per partition and
    // cycle, and a run leaves about one file per partition; snapshots live the configured age
    // plus an interval until the next run
    long cyclesPerRun = MAINTENANCE_INTERVAL_MS / INTERVAL_MS;
    long fileBound = 2 * TASKS * (cyclesPerRun + 2) + 4;
    long snapshotBound = (SNAPSHOT_MAX_AGE_MS + MAINTENANCE_INTERVAL_MS) / INTERVAL_MS + 10;
    for (String suffix : List.of("_a", "_b")) {
      assertThat(keptFacts.get(suffix + ".files"))
          .as("data files of kept%s", suffix)
          .isLessThan(fileBound);
      assertThat(keptFacts.get(suffix + ".snapshots"))
          .as("snapshots of kept%s", suffix)
          .isLessThan(snapshotBound);
    }
    Seen kept = seen.get("kept");
    System.out.printf(
        "kept: %d snapshots expired, %d data files compacted; plain: %d, %d%n",
        kept.total(kept.expired),
        kept.total(kept.compacted),
        seen.get("plain").total(seen.get("plain").expired),
        seen.get("plain").total(seen.get("plain").compacted));
    assertThat(kept.commitFailures).as("failed commits of kept").isZero();
    assertThat(kept.total(kept.expired)).as("snapshots kept's maintenance expired").isPositive();
    assertThat(kept.total(kept.compacted)).as("files kept's maintenance compacted").isPositive();
    assertThat(seen.get("plain").total(seen.get("plain").compacted)).isZero();
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }

  /** Reads the connector's table metrics on whichever worker runs its coordinator. */
  private static void sample(
      JmxWorkers jmxWorkers, List<ConnectWorker> workers, String name, Seen what) {
    for (ConnectWorker worker : List.copyOf(workers)) {
      String instance = Integer.toHexString(System.identityHashCode(worker));
      try (RemoteJmx jmx = jmxWorkers.jmx(worker)) {
        for (ObjectName bean : jmx.names("io.floe:type=table-metrics,connector=" + name + ",*")) {
          String table = bean.getKeyProperty("table").replace("db.", "");
          long snapshot = jmx.attribute(bean, "snapshot-id").longValue();
          long duration = jmx.attribute(bean, "last-commit-duration-ms").longValue();
          if (snapshot > 0 && duration >= 0) {
            what.commitMsBySnapshot.putIfAbsent(snapshot, duration);
          }
          what.maintenanceMs.merge(
              instance + "/" + table,
              jmx.attribute(bean, "maintenance-time-ms").longValue(),
              Math::max);
          what.maxDataFiles.merge(table, jmx.attribute(bean, "data-files").longValue(), Math::max);
          what.maxSnapshots.merge(table, jmx.attribute(bean, "snapshots").longValue(), Math::max);
          what.commitFailures =
              Math.max(what.commitFailures, jmx.attribute(bean, "commit-failures").longValue());
          what.expired.merge(
              instance + "/" + table,
              jmx.attribute(bean, "snapshots-expired").longValue(),
              Math::max);
          what.compacted.merge(
              instance + "/" + table,
              jmx.attribute(bean, "files-compacted").longValue(),
              Math::max);
        }
      } catch (IOException | RuntimeException e) {
        // a worker that is down or starting has nothing to say
      }
    }
  }
}
