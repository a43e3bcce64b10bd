/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The embedded default stack: a broker, a Connect worker with the plugin installed from the built
 * zip, a schema registry and a JDBC catalog on SQLite. It deploys {@code
 * config-examples/quickstart.json}, produces sample Avro events, prints the connector's state and
 * the table, and stops everything.
 */
public final class Quickstart {
  /** Sample events per schema version (one more v2 event ends the run). */
  public static final int EVENTS_PER_VERSION = 50;

  private static final Duration WAIT_FOR_TABLE = Duration.ofSeconds(90);

  /** The table is printed in order of the events' id: the first and the last of them. */
  private static final String SORT_COLUMN = "id";

  private static final int ROWS_SHOWN = 20;

  /** What a run showed. */
  public enum Outcome {
    /** Every event is in the table. */
    TABLE_WRITTEN,
    /** Anything else: a failure. */
    FAILED
  }

  private final Path workDir;
  private final PrintStream out;

  public Quickstart(Path workDir, PrintStream out) {
    this.workDir = workDir;
    this.out = out;
  }

  public static void main(String[] args) {
    Path work = Paths.get(args.length > 0 ? args[0] : "quickstart-work").toAbsolutePath();
    Outcome outcome = new Quickstart(work, System.out).run();
    System.out.println("Quickstart outcome: " + outcome);
    System.exit(outcome == Outcome.FAILED ? 1 : 0);
  }

  public Outcome run() {
    resetWorkDir();
    Instant begin = Instant.now();
    try (KafkaBroker broker = KafkaBroker.start();
        SchemaRegistryServer registry = SchemaRegistryServer.builder().build().start();
        ConnectWorker worker =
            ConnectWorker.start(broker, PluginInstall.pluginPath(), new ConnectWorker.Options())) {
      out.printf(
          "Stack up in %d ms: Kafka %s, Connect %s, schema registry %s%n",
          Duration.between(begin, Instant.now()).toMillis(),
          broker.bootstrapServers(),
          worker.rest().baseUrl(),
          registry.url());

      Map<String, String> config = ConfigExamples.quickstart(workDir, registry.url());
      String name = config.get("name");
      String topic = config.get("topics");
      broker.createTopic(topic, 2);
      worker.rest().putConnector(name, config);
      worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
      out.println("Connector " + name + " is RUNNING; producing sample events to " + topic);

      int sent =
          SampleEvents.produce(
              broker.bootstrapServers(), registry.url(), topic, EVENTS_PER_VERSION);
      out.printf("Produced %d Avro events (schema v1, then v2 with a new field)%n", sent);
      return awaitResult(worker, name, config, sent);
    }
  }

  /** Reads the quickstart's table from its catalog on disk, which outlives {@link #run}. */
  public <T> T readTable(Function<Table, T> reader) {
    Map<String, String> config = ConfigExamples.quickstart(workDir, "");
    try (AutoCloseableCatalog catalog = catalog(config)) {
      return reader.apply(
          catalog.get().loadTable(TableIdentifier.parse(config.get("iceberg.tables"))));
    }
  }

  private Outcome awaitResult(
      ConnectWorker worker, String name, Map<String, String> config, int sent) {
    Instant deadline = Instant.now().plus(WAIT_FOR_TABLE);
    TableIdentifier id = TableIdentifier.parse(config.get("iceberg.tables"));
    while (Instant.now().isBefore(deadline)) {
      JsonNode status = worker.rest().status(name);
      for (JsonNode task : status.path("tasks")) {
        if ("FAILED".equals(task.path("state").asText())) {
          String trace = task.path("trace").asText();
          out.println("Task " + task.path("id").asText() + " FAILED:");
          out.println("  " + rootCause(trace));
          printTable(config, id);
          return Outcome.FAILED;
        }
      }
      if (printTableIfComplete(config, id, sent)) {
        return Outcome.TABLE_WRITTEN;
      }
      sleep();
    }
    out.println("The table did not receive all " + sent + " events in " + WAIT_FOR_TABLE);
    printTable(config, id);
    return Outcome.FAILED;
  }

  /** The innermost "Caused by" line of a Java stack trace: the reason, not the wrapper. */
  private static String rootCause(String trace) {
    return trace
        .lines()
        .filter(line -> line.startsWith("Caused by: "))
        .reduce((first, second) -> second)
        .map(line -> line.substring("Caused by: ".length()))
        .orElseGet(() -> trace.lines().findFirst().orElse(trace));
  }

  private boolean printTableIfComplete(Map<String, String> config, TableIdentifier id, int sent) {
    try (AutoCloseableCatalog catalog = catalog(config)) {
      if (!catalog.get().tableExists(id)) {
        return false;
      }
      var table = catalog.get().loadTable(id);
      if (table.currentSnapshot() == null
          || Long.parseLong(table.currentSnapshot().summary().getOrDefault("total-records", "0"))
              < sent) {
        return false;
      }
      return TablePrinter.print(table, SORT_COLUMN, ROWS_SHOWN, out) >= sent;
    }
  }

  private void printTable(Map<String, String> config, TableIdentifier id) {
    try (AutoCloseableCatalog catalog = catalog(config)) {
      if (catalog.get().tableExists(id)) {
        TablePrinter.print(catalog.get().loadTable(id), SORT_COLUMN, ROWS_SHOWN, out);
      } else {
        out.println("Table " + id + " does not exist: nothing was written.");
      }
    }
  }

  /** The connector's catalog, opened from this JVM with the same properties. */
  private static AutoCloseableCatalog catalog(Map<String, String> config) {
    Map<String, String> props = new HashMap<>();
    config.forEach(
        (key, value) -> {
          if (key.startsWith("iceberg.catalog.")) {
            props.put(key.substring("iceberg.catalog.".length()), value);
          }
        });
    return new AutoCloseableCatalog(
        CatalogUtil.buildIcebergCatalog(
            config.getOrDefault("iceberg.catalog", "iceberg"), props, new Configuration(false)));
  }

  private record AutoCloseableCatalog(Catalog get) implements AutoCloseable {
    @Override
    public void close() {
      if (get instanceof Closeable closeable) {
        try {
          closeable.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  private void resetWorkDir() {
    try {
      if (Files.exists(workDir)) {
        try (var paths = Files.walk(workDir)) {
          paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
      Files.createDirectories(workDir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot prepare " + workDir, e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }
}
