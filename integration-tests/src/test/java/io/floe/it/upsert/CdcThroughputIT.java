/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Services;
import io.floe.it.stack.SqliteCatalogs;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Debezium change stream mirrored through a Connect worker, against the same stream appended: an
 * initial snapshot ({@code op=r}) of {@code bench.cdc.snapshot} rows (1,000,000), then {@code
 * bench.cdc.changes} changes (1,000,000: updates, deletes with their tombstones, key changes, a few
 * creates, keys drawn over the whole table), JSON with schemas as Debezium's JsonConverter writes
 * it, over 4 partitions, all in the topic before the connector starts. The connector runs 4 tasks
 * with a commit interval of {@code bench.cdc.commit-ms} (10 s) on a fresh worker per run ({@code
 * bench.cdc.heap}, 2g), on a JDBC catalog on SQLite and the local disk.
 *
 * <p>A run's time is from the connector's creation until the table's newest snapshot covers every
 * offset of the topic. The upsert table must then hold exactly the source's live rows; the appended
 * table every record that has a value. Not part of the default build:
 *
 * <p>{@code -Dbench.cdc.modes=upsert} runs one mode only; {@code -Dbench.cdc.jfr=true} records each
 * worker's run in its directory ({@code <connector>.jfr}).
 *
 * <pre>
 * mvn -B -Pbench verify -pl integration-tests -am -Dtest=none \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=CdcThroughputIT
 * </pre>
 */
@Tag("bench")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CdcThroughputIT {
  private static final int SNAPSHOT = Integer.getInteger("bench.cdc.snapshot", 1_000_000);
  private static final int CHANGES = Integer.getInteger("bench.cdc.changes", 1_000_000);
  private static final int COMMIT_MS = Integer.getInteger("bench.cdc.commit-ms", 10_000);
  private static final String HEAP = System.getProperty("bench.cdc.heap", "2g");
  private static final int REPEATS = Integer.getInteger("bench.cdc.repeats", 1);
  private static final boolean JFR = Boolean.getBoolean("bench.cdc.jfr");
  private static final List<String> MODES =
      List.of(System.getProperty("bench.cdc.modes", "append,upsert").split(","));
  private static final int PARTITIONS = 4;
  private static final int CHUNK = 50_000;
  private static final String TOPIC = "dbserver1.inventory.customers";
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);

  @RegisterExtension final Services services = Services.closedAfterAll();

  private KafkaBroker broker;
  private Map<String, String> catalogProperties;
  private Catalog catalog;
  private DebeziumStream stream;
  private long records;
  private long withValue;
  private final List<String> lines = new ArrayList<>();

  @BeforeAll
  void startStackAndProduce() throws Exception {
    broker = services.own(KafkaBroker.start());
    catalogProperties = SqliteCatalogs.inNewServiceDir();
    catalog = services.catalog("iceberg", catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("cdc"));
    broker.createTopic(TOPIC, PARTITIONS);
    stream = new DebeziumStream(TOPIC, PARTITIONS, 24L);
    long start = System.nanoTime();
    try (KafkaProducer<String, String> producer = broker.stringProducer()) {
      for (long from = 0; from < SNAPSHOT; from += CHUNK) {
        send(producer, stream.snapshot(from, Math.min(SNAPSHOT, from + CHUNK)));
      }
      for (int done = 0; done < CHANGES; done += CHUNK) {
        send(producer, stream.changes(Math.min(CHUNK, CHANGES - done)));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "progress: produced %,d records (%,d with a value) in %.1f s; %,d live rows in the source%n",
        records,
        withValue,
        (System.nanoTime() - start) / 1e9,
        stream.live().size());
  }

  private void send(
      KafkaProducer<String, String> producer, List<ProducerRecord<String, String>> batch)
      throws Exception {
    List<Future<?>> sent = new ArrayList<>(batch.size());
    for (ProducerRecord<String, String> record : batch) {
      sent.add(producer.send(record));
      records++;
      if (record.value() != null) {
        withValue++;
      }
    }
    for (Future<?> future : sent) {
      future.get(60, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  void writeReport() throws IOException {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n## A Debezium stream mirrored against the same stream appended%n%n"
                + "%,d snapshot reads then %,d changes (%,d records, %,d with a value) over %d"
                + " partitions; 4 tasks, commit interval %d ms, worker heap %s, %d cores%n%n"
                + "| mode | run | seconds to the last commit | records/s | worker CPU s |"
                + " CPU µs per record | table rows |%n"
                + "|---|---:|---:|---:|---:|---:|---:|%n",
            SNAPSHOT,
            CHANGES,
            records,
            withValue,
            PARTITIONS,
            COMMIT_MS,
            HEAP,
            Runtime.getRuntime().availableProcessors()));
    lines.forEach(line -> out.append(line).append('\n'));
    System.out.println(out);
    Files.writeString(StackDirs.root().resolve("cdc-throughput-results.md"), out.toString());
  }

  @Test
  void upsertModeMirrorsTheStreamAtTheRateItIsAppended() throws Exception {
    List<Double> append = new ArrayList<>();
    List<Double> upsert = new ArrayList<>();
    for (int repeat = 1; repeat <= REPEATS; repeat++) {
      if (MODES.contains("append")) {
        append.add(run("append", false, repeat));
      }
      if (MODES.contains("upsert")) {
        upsert.add(run("upsert", true, repeat));
      }
    }
    if (append.isEmpty() || upsert.isEmpty()) {
      return;
    }
    double appendRate = records / median(append);
    double upsertRate = records / median(upsert);
    lines.add(
        String.format(
            Locale.ROOT,
            "%nUpsert ÷ append, records/s (medians): %,.0f / %,.0f = %.2f",
            upsertRate,
            appendRate,
            upsertRate / appendRate));
  }

  private double run(String mode, boolean upsertMode, int repeat) throws Exception {
    String name = "cdc-" + mode + "-" + repeat;
    String table = "cdc." + mode + "_" + repeat;
    broker.createTopic("control-" + name, 1);
    ConnectWorker.Options options =
        new ConnectWorker.Options()
            .runtime(KafkaRuntime.KAFKA_4_3)
            .groupId("cdc-" + name)
            .maxHeap(HEAP);
    if (JFR) {
      // a flight recording of the worker, in its directory as <connector>.jfr
      options.jvmOptions(
          List.of("-XX:StartFlightRecording=filename=" + name + ".jfr,settings=profile"));
    }
    try (ConnectWorker worker = ConnectWorker.start(broker, PluginInstall.pluginPath(), options)) {
      long start = System.nanoTime();
      Duration cpuBefore = cpu(worker);
      worker.rest().putConnector(name, connector(name, table, upsertMode));
      awaitLastCommit(table, "connect-" + name);
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpuSeconds = cpu(worker).minus(cpuBefore).toMillis() / 1e3;
      worker.rest().deleteConnector(name);
      long rows = upsertMode ? checkMirror(table) : checkAppended(table);
      lines.add(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f | %,.0f | %.1f | %.1f | %,d |",
              mode,
              repeat,
              seconds,
              records / seconds,
              cpuSeconds,
              cpuSeconds * 1e6 / records,
              rows));
      System.out.println("progress: " + lines.get(lines.size() - 1));
      return seconds;
    }
  }

  /** The worker process's CPU time so far, user and system, over all its threads. */
  private static Duration cpu(ConnectWorker worker) {
    return ProcessHandle.of(worker.pid())
        .flatMap(process -> process.info().totalCpuDuration())
        .orElseThrow(() -> new IllegalStateException("no CPU time for worker " + worker.pid()));
  }

  private Map<String, String> connector(String name, String table, boolean upsertMode) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.floe.connect.IcebergSinkConnector");
    config.put("tasks.max", "4");
    config.put("topics", TOPIC);
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("key.converter.schemas.enable", "true");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables", table);
    config.put("iceberg.tables.auto-create-enabled", "true");
    if (upsertMode) {
      config.put("iceberg.tables.upsert-mode-enabled", "true");
      config.put("iceberg.table." + table + ".id-columns", "id");
    }
    config.put("iceberg.control.topic", "control-" + name);
    config.put("iceberg.control.commit.interval-ms", Integer.toString(COMMIT_MS));
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    catalogProperties.forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    return config;
  }

  /** Waits until the table's newest snapshot covers every offset of the topic. */
  private void awaitLastCommit(String table, String group) throws Exception {
    Map<Integer, Long> end = endOffsets();
    ObjectMapper json = new ObjectMapper();
    Await.until(
        "table " + table + " to cover offsets " + end,
        RUN_TIMEOUT,
        () -> {
          try {
            Table loaded = catalog.loadTable(TableIdentifier.parse(table));
            Snapshot current = loaded.currentSnapshot();
            String offsets =
                current == null ? null : current.summary().get("floe.source-offsets." + group);
            if (offsets == null) {
              return false;
            }
            JsonNode byPartition = json.readTree(offsets).path(TOPIC);
            for (Map.Entry<Integer, Long> partition : end.entrySet()) {
              if (byPartition.path(Integer.toString(partition.getKey())).asLong(-1)
                  < partition.getValue()) {
                return false;
              }
            }
            return true;
          } catch (RuntimeException e) {
            return false; // the table not created yet, or the catalog busy
          }
        });
  }

  private Map<Integer, Long> endOffsets() throws Exception {
    try (Admin admin = broker.admin()) {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        latest.put(new TopicPartition(TOPIC, p), OffsetSpec.latest());
      }
      Map<Integer, Long> end = new HashMap<>();
      admin
          .listOffsets(latest)
          .all()
          .get(60, TimeUnit.SECONDS)
          .forEach((partition, info) -> end.put(partition.partition(), info.offset()));
      return end;
    }
  }

  /** The upsert table holds exactly the source's live rows; returns their number. */
  private long checkMirror(String table) throws IOException {
    Map<Long, DebeziumStream.Row> expected = stream.live();
    Map<Long, DebeziumStream.Row> found = new HashMap<>();
    long rows = 0;
    Table loaded = catalog.loadTable(TableIdentifier.parse(table));
    try (CloseableIterable<Record> scan = IcebergGenerics.read(loaded).build()) {
      for (Record row : scan) {
        rows++;
        long id = (Long) row.getField("id");
        found.put(
            id,
            new DebeziumStream.Row(
                id, String.valueOf(row.getField("name")), (Long) row.getField("version")));
      }
    }
    assertThat(rows)
        .as("rows of %s (more than its keys: a key twice)", table)
        .isEqualTo(found.size());
    assertThat(found.size()).as("keys of %s", table).isEqualTo(expected.size());
    assertThat(found).as("%s mirrors the source", table).isEqualTo(expected);
    return rows;
  }

  /** The appended table holds every record with a value; returns its rows. */
  private long checkAppended(String table) throws IOException {
    long rows = 0;
    Table loaded = catalog.loadTable(TableIdentifier.parse(table));
    try (CloseableIterable<Record> scan = IcebergGenerics.read(loaded).build()) {
      for (Record ignored : scan) {
        rows++;
      }
    }
    assertThat(rows).as("rows of %s", table).isEqualTo(withValue);
    return rows;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    return sorted.get(sorted.size() / 2);
  }
}
