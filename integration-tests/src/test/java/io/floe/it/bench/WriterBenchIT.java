/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmarks of the write room, each in a child JVM with a heap of its own: {@link
 * WriterThroughput} (Floe's TableWriter against Iceberg's writers on 1M pre-built rows) and {@link
 * ManyPartitions} (1,000 partitions of 10 tables in 512 MiB, with and without the writer limits).
 * They print their figures; the assertions only check that every row was written.
 */
@Tag("bench")
class WriterBenchIT {
  private static final Path WORK =
      Paths.get(System.getProperty("floe.it.work", "target/it-work"), "writer-bench");

  record Child(int exitCode, String output) {}

  static Child run(String name, List<String> jvmArgs, Class<?> main, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(WORK);
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    Path log = WORK.resolve(name + ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!process.waitFor(20, TimeUnit.MINUTES)) {
        throw new IllegalStateException(name + " did not finish in 20 minutes; see " + log);
      }
    } finally {
      process.destroyForcibly();
    }
    String output = Files.readString(log);
    System.out.println(output);
    return new Child(process.exitValue(), output);
  }

  @Test
  void tableWriterAgainstIcebergsWriters() throws Exception {
    Child child =
        run(
            "throughput",
            List.of(System.getProperty("bench.heap", "-Xmx3g")),
            WriterThroughput.class,
            System.getProperty("bench.rows", "1000000"),
            System.getProperty("bench.runs", "5"),
            WORK.toString(),
            // one way by name, or "parquet-settings": the raw writer under several table settings
            System.getProperty("bench.writer.ways", "all"));
    assertThat(child.exitCode()).as("see the output above").isZero();
    assertThat(child.output()).contains("WriterBench: ");
  }

  @Test
  void aThousandPartitionsOfTenTablesFitIn512MiB() throws Exception {
    Child bounded =
        run(
            "partitions-bounded",
            List.of("-Xmx512m"),
            ManyPartitions.class,
            "bounded",
            "1000",
            "10",
            "5");
    assertThat(bounded.exitCode()).as("see the output above").isZero();
    assertThat(bounded.output()).contains("rows read back 50000");

    Child unbounded =
        run(
            "partitions-unbounded",
            List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
            ManyPartitions.class,
            "unbounded",
            "1000",
            "10",
            "5");
    System.out.printf(
        "Without the writer limits: exit code %d%s%n",
        unbounded.exitCode(),
        unbounded.output().contains("OutOfMemoryError") ? ", out of memory" : "");
  }
}
