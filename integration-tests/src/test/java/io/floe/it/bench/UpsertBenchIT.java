/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Upsert mode's benchmark ({@link UpsertBench}), each part in a child JVM with a heap of its own:
 * throughput against append mode, the coordinator's commit time as the table grows to 10M rows, and
 * the coordinator's heap by cycle size. The tables are also appended to {@code
 * it-work/upsert-bench-results.md}. The assertions only check that each part ran and that every
 * table held exactly its rows.
 */
@Tag("bench")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UpsertBenchIT {
  private static final Path WORK =
      Paths.get(System.getProperty("floe.it.work", "target/it-work"), "upsert-bench");
  private static final Path RESULTS =
      Paths.get(System.getProperty("floe.it.work", "target/it-work"), "upsert-bench-results.md");

  @Test
  @Order(1)
  void upsertModeAgainstAppendModeOnTheSameChanges() throws Exception {
    part("throughput", "-Xmx2g");
  }

  @Test
  @Order(2)
  void commitTimeAsTheTableGrows() throws Exception {
    part("growth", "-Xmx3g");
  }

  @Test
  @Order(3)
  void coordinatorHeapByCycleSize() throws Exception {
    part("memory", "-Xmx3g");
  }

  private static void part(String name, String heap) throws Exception {
    List<String> jvm = new ArrayList<>();
    jvm.add(System.getProperty("bench.upsert.heap", heap));
    // further options of the child's JVM, separated by spaces (a flight recording, say)
    for (String option : System.getProperty("bench.upsert.jvm", "").split(" ")) {
      if (!option.isBlank()) {
        jvm.add(option);
      }
    }
    // the benchmark's settings reach the child as they were given
    System.getProperties().stringPropertyNames().stream()
        .filter(
            key ->
                key.startsWith("bench.upsert.")
                    && !key.equals("bench.upsert.heap")
                    && !key.equals("bench.upsert.jvm"))
        .sorted()
        .forEach(key -> jvm.add("-D" + key + "=" + System.getProperty(key)));
    WriterBenchIT.Child child =
        WriterBenchIT.run("upsert-" + name, jvm, UpsertBench.class, name, WORK.toString());
    Files.createDirectories(RESULTS.getParent());
    Files.writeString(
        RESULTS,
        "\n## Upsert mode: " + name + "\n\n" + tables(child.output()),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    assertThat(child.exitCode()).as("see the output above").isZero();
    assertThat(child.output()).contains("UpsertBench " + name + " done");
  }

  /** The child's output without its progress lines and logs: the machine and the tables. */
  private static String tables(String output) {
    StringBuilder tables = new StringBuilder();
    boolean inTables = false;
    for (String line : output.split("\n")) {
      if (line.startsWith("Machine: ") || line.startsWith("FAILED: ")) {
        tables.append(line).append("\n\n");
      } else if (line.startsWith("### ")) {
        inTables = true;
      }
      if (inTables && !line.startsWith("progress: ")) {
        tables.append(line).append('\n');
      }
    }
    return tables.toString();
  }
}
