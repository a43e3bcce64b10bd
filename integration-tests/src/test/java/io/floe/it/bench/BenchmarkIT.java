/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.ApacheSinkPlugin;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Services;
import io.floe.it.stack.SqliteCatalogs;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Floe against the Apache Iceberg sink 1.12.0 and the ceilings, on one real stack: a KRaft broker,
 * a fresh Kafka 4.3 Connect worker per run (the Apache sink fails on 4.4) with the Floe zip, the
 * Apache sink's plugin folder and a no-op sink on its plugin path, the schema registry test server
 * and a SQLite catalog. Each run is a fresh connector on an already loaded topic, timed from its
 * creation until the current snapshot holds every record, with the worker's CPU over that time and
 * that of the connector's task threads; the goal line (BenchReport) sets Floe's CPU per record
 * against the no-op sink's with the same converter plus Iceberg's Parquet writer's CPU per row,
 * measured in the same run. The contenders alternate, and every figure is repeated. Settings
 * (system properties): {@code bench.records} (2,000,000), {@code bench.partitions} (8), {@code
 * bench.repeats} (2), {@code bench.encodings} (avro,json,json-floe: json-floe reads the JSON load
 * with Floe's JSON converter, for every contender), {@code bench.contenders}
 * (floe1,apache1,floe4,noop1: sink and tasks.max, in the order of the first round; later rounds
 * rotate it), {@code bench.worker.heap} (1g), {@code bench.memory.records} (500,000), {@code
 * bench.trickle.seconds} (60), {@code bench.trickle.rate} (300 records/s), {@code bench.jfr}
 * (record Floe's runs), {@code bench.worker.jvm} (more JVM options for every worker, separated by
 * spaces, e.g. {@code -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation
 * -XX:LogFile=/tmp/jit-%p.log} to see what each worker's JIT compiles and for how long).
 */
@Tag("bench")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BenchmarkIT {
  private static final long RECORDS = Long.getLong("bench.records", 2_000_000);
  private static final int PARTITIONS = Integer.getInteger("bench.partitions", 8);
  private static final int REPEATS = Integer.getInteger("bench.repeats", 2);
  private static final String HEAP = System.getProperty("bench.worker.heap", "1g");
  private static final long MEMORY_RECORDS = Long.getLong("bench.memory.records", 500_000);
  private static final int MEMORY_PARTITIONS = 1_000;
  private static final String MEMORY_HEAP = "512m";
  private static final int TRICKLE_SECONDS = Integer.getInteger("bench.trickle.seconds", 60);
  private static final int TRICKLE_RATE = Integer.getInteger("bench.trickle.rate", 300);
  private static final boolean JFR = Boolean.getBoolean("bench.jfr");
  private static final List<String> WORKER_JVM =
      Arrays.stream(System.getProperty("bench.worker.jvm", "").trim().split("\\s+"))
          .filter(option -> !option.isEmpty())
          .toList();

  /**
   * Where the steady window starts: the fraction of the records Connect has handed to the sink when
   * its CPU starts counting (RunResult#steadyCpuMicrosPerRecord).
   */
  private static final double WINDOW_FROM =
      Double.parseDouble(System.getProperty("bench.window.from", "0.5"));

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(15);
  private static final String NAMESPACE = "bench";

  private KafkaBroker broker;
  private SchemaRegistryServer registry;
  private Map<String, String> catalogProperties;
  private Catalog catalog;
  private Path pluginPath;
  private LoadGenerator generator;
  private final List<RunResult> results = new ArrayList<>();
  private final List<String> latencies = new ArrayList<>();
  private List<WriterThroughput.Way> parquetCeiling;
  private int runs;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack() {
    broker = services.own(KafkaBroker.start());
    registry = services.own(SchemaRegistryServer.builder().build().start());
    catalogProperties = SqliteCatalogs.inNewServiceDir();
    // the JDBC catalog keys its tables by catalog name: the connectors both default to "iceberg"
    catalog = services.catalog("iceberg", catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of(NAMESPACE));
    pluginPath = StackDirs.newServiceDir("bench-plugins");
    PluginInstall.installInto(pluginPath);
    ApacheSinkPlugin.installInto(pluginPath);
    NoopPlugin.installInto(pluginPath);
    generator = services.own(new LoadGenerator(broker.bootstrapServers(), registry.url()));
  }

  @AfterAll
  void writeReport() throws Exception {
    BenchReport report =
        new BenchReport(results, latencies, parquetCeiling, RECORDS, PARTITIONS, HEAP, WINDOW_FROM);
    String text = report.render();
    System.out.println(text);
    Files.writeString(StackDirs.root().resolve("bench-results.md"), text);
  }

  @Test
  void throughputOfEachSinkOnAvroAndJson() {
    measureParquetWriter();
    List<LoadGenerator.Load> loads = new ArrayList<>();
    Map<Encoding, LoadGenerator.Load> filled = new java.util.EnumMap<>(Encoding.class);
    for (String name : System.getProperty("bench.encodings", "avro,json,json-floe").split(",")) {
      Encoding encoding = Encoding.of(name);
      LoadGenerator.Load wire = filled.get(encoding.wire());
      if (wire != null) {
        // the same bytes read by another converter: one load serves both
        loads.add(wire.readAs(encoding));
        continue;
      }
      String topic = "load-" + encoding.wire().label();
      broker.createTopic(topic, PARTITIONS);
      long start = System.nanoTime();
      LoadGenerator.Load load = generator.fill(topic, PARTITIONS, RECORDS, encoding.wire());
      System.out.printf(
          "Loaded %,d %s records (%,.0f MB) into %s in %.1f s%n",
          load.records(),
          encoding.wire().label(),
          load.megabytes(),
          topic,
          (System.nanoTime() - start) / 1e9);
      filled.put(encoding.wire(), load);
      loads.add(load.readAs(encoding));
    }
    List<Object[]> lineup = new ArrayList<>();
    for (String entry :
        System.getProperty("bench.contenders", "floe1,apache1,floe4,noop1").split(",")) {
      // "floe4@512m": the contender, its tasks and, optionally, the worker heap of its runs
      String[] spec = entry.trim().split("@", 2);
      String contender = spec[0].replaceAll("[0-9]+$", "");
      int tasks = Integer.parseInt(spec[0].substring(contender.length()));
      lineup.add(
          new Object[] {
            Contender.valueOf(contender.toUpperCase(java.util.Locale.ROOT)),
            tasks,
            spec.length > 1 ? spec[1] : HEAP
          });
    }
    for (int repeat = 1; repeat <= REPEATS; repeat++) {
      for (LoadGenerator.Load load : loads) {
        for (Object[] entry : lineup) {
          RunResult result =
              run(
                  "throughput",
                  (Contender) entry[0],
                  (Integer) entry[1],
                  load,
                  1,
                  (String) entry[2],
                  repeat);
          results.add(result);
          System.out.println(BenchReport.line(result));
        }
        Collections.rotate(lineup, 1);
      }
    }
    for (RunResult result : results) {
      assertThat(result.outcome()).as(result.label()).isEqualTo("ok");
      if (result.facts() != null) {
        assertThat(result.facts().exact()).as("exactly the ids of " + result.label()).isTrue();
      }
    }
  }

  @Test
  void aThousandPartitionsToTenTablesInA512MiBHeap() {
    String topic = "load-wide";
    broker.createTopic(topic, MEMORY_PARTITIONS);
    LoadGenerator.Load load =
        generator.fill(topic, MEMORY_PARTITIONS, MEMORY_RECORDS, Encoding.AVRO);
    RunResult floe = run("memory", Contender.FLOE, 1, load, 10, MEMORY_HEAP, 1);
    results.add(floe);
    System.out.println(BenchReport.line(floe));
    RunResult apache = run("memory", Contender.APACHE, 1, load, 10, MEMORY_HEAP, 1);
    results.add(apache);
    System.out.println(BenchReport.line(apache));
    assertThat(floe.outcome()).as("Floe in 512 MiB").isEqualTo("ok");
    assertThat(floe.facts().exact()).as("exactly the ids").isTrue();
  }

  @Test
  void produceToVisibleLatencyOnATrickle() {
    for (Contender contender : List.of(Contender.FLOE, Contender.APACHE)) {
      latencies.add(trickle(contender));
    }
  }

  @Test
  void icebergParquetWriterInProcess() {
    measureParquetWriter();
  }

  /**
   * Iceberg's Parquet writer alone, in a child JVM, on the same rows pre-built, with the settings
   * Floe's tasks write (zstd level 1) and with the table's defaults (zstd level 3): records/s and
   * the writing thread's CPU per row, once per benchmark run.
   */
  private void measureParquetWriter() {
    if (parquetCeiling != null) {
      return;
    }
    WriterBenchIT.Child child;
    try {
      child =
          WriterBenchIT.run(
              "parquet-ceiling",
              List.of("-Xmx3g"),
              WriterThroughput.class,
              Long.toString(Math.min(RECORDS, 1_000_000)),
              "3",
              StackDirs.newServiceDir("parquet-ceiling").toString(),
              WriterThroughput.RAW_PARQUET_AS_FLOE_WRITES + ";" + WriterThroughput.RAW_PARQUET);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    assertThat(child.exitCode()).as("see the output above").isZero();
    parquetCeiling = WriterThroughput.summary(child.output());
  }

  private String trickle(Contender contender) {
    String name = "trickle-" + contender.name().toLowerCase(java.util.Locale.ROOT) + "-" + (++runs);
    String topic = name;
    broker.createTopic(topic, 4);
    try (ConnectWorker worker = startWorker(HEAP, false)) {
      List<String> tables = List.of(NAMESPACE + "." + name.replace('-', '_'));
      startConnector(worker, contender, name, topic, 1, Encoding.AVRO, tables, Long.MAX_VALUE);
      List<TableIdentifier> ids = tables.stream().map(TableIdentifier::parse).toList();
      // warm-up: the first records create the table and open the writers
      generator.trickle(topic, 4, 0, 100, Duration.ofSeconds(1), Encoding.AVRO, id -> {});
      awaitRows(worker.rest(), name, () -> TableFacts.totalRecords(catalog, ids), 100);
      long sent =
          generator.trickle(
              topic,
              4,
              1_000_000,
              TRICKLE_RATE,
              Duration.ofSeconds(TRICKLE_SECONDS),
              Encoding.AVRO,
              id -> {});
      String outcome =
          awaitRows(worker.rest(), name, () -> TableFacts.totalRecords(catalog, ids), 100 + sent);
      TrickleLatency latency = TrickleLatency.of(catalog.loadTable(ids.get(0)), 1_000_000);
      worker.rest().deleteConnector(name);
      return String.format(
          "| %s | %d records at %d/s for %d s | %,d | %,d | %,d | %s |",
          contender == Contender.FLOE ? "Floe, tasks.max=1" : contender.title(),
          sent,
          TRICKLE_RATE,
          TRICKLE_SECONDS,
          latency.p50Millis(),
          latency.p99Millis(),
          latency.maxMillis(),
          outcome);
    }
  }

  private ConnectWorker startWorker(String heap, boolean record) {
    ConnectWorker.Options options =
        new ConnectWorker.Options()
            .runtime(KafkaRuntime.KAFKA_4_3)
            .groupId("bench-" + (runs + 1))
            .maxHeap(heap);
    List<String> jvm = new ArrayList<>(WORKER_JVM);
    if (record) {
      jvm.add("-XX:StartFlightRecording=filename=floe.jfr,settings=profile");
    }
    options.jvmOptions(jvm);
    return ConnectWorker.start(broker, pluginPath, options);
  }

  private void startConnector(
      ConnectWorker worker,
      Contender contender,
      String name,
      String topic,
      int tasks,
      Encoding encoding,
      List<String> tables,
      long expectedRecords) {
    String controlTopic = "control-" + name;
    broker.createTopic(controlTopic, 1);
    Contender.Setup setup =
        new Contender.Setup(
            topic,
            tasks,
            encoding.converterSettings(registry.url()),
            catalogProperties,
            broker.bootstrapServers(),
            controlTopic);
    Map<String, String> config = contender.config(setup, tables);
    if (contender == Contender.FLOE) {
      for (String setting : System.getProperty("bench.floe.config", "").split(",")) {
        int eq = setting.indexOf('=');
        if (eq > 0) {
          config.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        }
      }
    }
    if (contender == Contender.NOOP) {
      config.put(NoopSinkTask.EXPECTED_RECORDS, Long.toString(expectedRecords));
      config.put(NoopSinkTask.REPORT_FILE, worker.dir().resolve("noop.done").toString());
    }
    worker.rest().putConnector(name, config);
  }

  private RunResult run(
      String workload,
      Contender contender,
      int tasks,
      LoadGenerator.Load load,
      int tableCount,
      String heap,
      int repeat) {
    String name =
        workload
            + "-"
            + contender.name().toLowerCase(java.util.Locale.ROOT)
            + tasks
            + "-"
            + load.encoding().label()
            + "-"
            + (++runs);
    List<String> tables = new ArrayList<>();
    String base = NAMESPACE + "." + name.replace('-', '_');
    if (tableCount == 1) {
      tables.add(base);
    } else {
      BenchRows.Generator.countries()
          .forEach(c -> tables.add(base + "_" + c.toLowerCase(java.util.Locale.ROOT)));
    }
    List<TableIdentifier> ids = tables.stream().map(TableIdentifier::parse).toList();
    boolean record = JFR && contender == Contender.FLOE;
    try (ConnectWorker worker = startWorker(heap, record);
        WorkerGauge gauge = new WorkerGauge(worker.pid())) {
      Path done = worker.dir().resolve("noop.done");
      LongSupplier progress =
          contender.writesTables()
              ? () -> TableFacts.totalRecords(catalog, ids)
              : () -> Files.exists(done) ? load.records() : 0;
      long cpuBefore = gauge.processCpuNanos();
      Map<Long, WorkerGauge.ThreadCpu> threadsBefore = gauge.threadCpu();
      long start = System.currentTimeMillis();
      gauge.watchDelivered(name, load.records(), start, WINDOW_FROM);
      startConnector(
          worker, contender, name, load.topic(), tasks, load.encoding(), tables, load.records());
      String outcome = awaitRows(worker.rest(), name, progress, load.records());
      long end =
          contender.writesTables() || !outcome.equals("ok")
              ? System.currentTimeMillis()
              : Long.parseLong(read(done).split(" ")[0]);
      double seconds = (end - start) / 1000.0;
      long cpuAfter = gauge.processCpuNanos();
      long taskNanos = gauge.taskThreadsCpuNanos(name);
      Map<String, Double> cpuByThreads = WorkerGauge.cpuByGroup(threadsBefore, gauge.threadCpu());
      double workerCpu = cpuAfter < 0 ? Double.NaN : (cpuAfter - cpuBefore) / 1e9;
      double taskCpu = taskNanos < 0 ? Double.NaN : taskNanos / 1e9;
      RunResult.Steady steady = steady(gauge.window(), load.records(), cpuAfter, taskNanos, gauge);
      long rss = gauge.peakRssBytes();
      long heapPeak = gauge.peakHeapBytes();
      if (outcome.equals("ok") || worker.rest().isServing()) {
        worker.rest().deleteConnector(name);
      }
      TableFacts facts =
          contender.writesTables() && outcome.equals("ok")
              ? TableFacts.of(catalog, ids, load.records())
              : null;
      return new RunResult(
          workload,
          contender,
          load.encoding(),
          tasks,
          repeat,
          load.records(),
          load.megabytes(),
          seconds,
          gauge.deliveredSeconds(),
          rss,
          heapPeak,
          heap,
          workerCpu,
          taskCpu,
          cpuByThreads,
          steady,
          facts,
          outcome);
    }
  }

  /**
   * The worker's CPU from the start of the steady window to the end of the run, or null if the
   * window was not seen (a run too short for a sample inside it, or the worker gone).
   */
  private static RunResult.Steady steady(
      WorkerGauge.Window window, long records, long cpuAfter, long taskNanos, WorkerGauge gauge) {
    if (window == null || cpuAfter < 0 || taskNanos < 0 || window.processCpuNanos() < 0) {
      return null;
    }
    return new RunResult.Steady(
        records - window.sent(),
        (cpuAfter - window.processCpuNanos()) / 1e9,
        (taskNanos - window.taskCpuNanos()) / 1e9,
        WorkerGauge.cpuByGroup(window.threads(), gauge.threadCpu()));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until {@code progress} reaches {@code expected}: "ok", or why not (a FAILED task with the
   * first line of its trace, the worker gone, or the time out with the rows so far).
   */
  private static String awaitRows(
      ConnectRest rest, String connector, LongSupplier progress, long expected) {
    long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
    long seen = 0;
    int polls = 0;
    while (System.nanoTime() < deadline) {
      try {
        seen = progress.getAsLong();
      } catch (RuntimeException e) {
        // the catalog file is busy with a commit: ask again
      }
      if (seen >= expected) {
        return "ok";
      }
      if (++polls % 10 == 0) {
        String failure = failure(rest, connector);
        if (failure != null) {
          return failure + " (" + seen + " of " + expected + " rows committed)";
        }
      }
      sleep(250);
    }
    return "not done in "
        + RUN_TIMEOUT.toMinutes()
        + " min ("
        + seen
        + " of "
        + expected
        + " rows)";
  }

  private static String failure(ConnectRest rest, String connector) {
    ConnectRest.Response response;
    try {
      response = rest.send("GET", "/connectors/" + connector + "/status", null);
    } catch (IllegalStateException e) {
      return "worker not answering: " + e.getMessage();
    }
    if (!response.ok()) {
      return null;
    }
    for (JsonNode task : response.body().path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        String trace = task.path("trace").asText();
        int cause = trace.lastIndexOf("Caused by: ");
        String line = (cause >= 0 ? trace.substring(cause) : trace).split("\n")[0];
        return "task FAILED: " + line;
      }
    }
    return null;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
