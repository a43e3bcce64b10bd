/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** The benchmark's figures as Markdown tables: every run, the ratios, memory, latency. */
final class BenchReport {
  private static final String HEADER =
      "| workload | encoding | sink | repeat | records/s | per task | MB/s | seconds | delivered"
          + " records/s | worker CPU s | of which JIT | CPU µs/record | without JIT | task threads"
          + " CPU µs/record | steady CPU µs/record (records, JIT s) | peak RSS MiB | peak heap MiB (cap) | data files | snapshots |"
          + " distinct ids | outcome |\n"
          + "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|\n";

  /** Floe may add this many times the Parquet writer's CPU per row to the no-op sink's. */
  static final double GOAL_PARQUET_FACTOR = 1.2;

  private final List<RunResult> results;
  private final List<RunResult> otherHeaps;
  private final List<String> latencies;
  private final List<WriterThroughput.Way> parquetCeiling;
  private final long records;
  private final int partitions;
  private final double windowPercent;

  BenchReport(
      List<RunResult> results,
      List<String> latencies,
      List<WriterThroughput.Way> parquetCeiling,
      long records,
      int partitions,
      String heap,
      double windowFrom) {
    this.windowPercent = windowFrom * 100;
    // throughput runs at another worker heap than the default are compared apart
    this.results =
        results.stream()
            .filter(r -> !r.workload().equals("throughput") || heap.equals(r.heapLimit()))
            .toList();
    this.otherHeaps =
        results.stream()
            .filter(r -> r.workload().equals("throughput") && !heap.equals(r.heapLimit()))
            .toList();
    this.latencies = latencies;
    this.parquetCeiling = parquetCeiling == null ? List.of() : parquetCeiling;
    this.records = records;
    this.partitions = partitions;
  }

  /** One run as a row of the runs table. */
  static String line(RunResult r) {
    TableFacts facts = r.facts();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %d | %,.0f | %,.0f | %.1f | %.1f | %,.0f | %.1f | %.1f | %.2f | %.2f |"
            + " %.2f | %s | %,d | %,d (%s) | %s | %s | %s | %s |",
        r.workload(),
        r.encoding().label(),
        r.label(),
        r.repeat(),
        r.recordsPerSecond(),
        r.recordsPerSecondPerTask(),
        r.megabytesPerSecond(),
        r.seconds(),
        r.deliveredPerSecond(),
        r.workerCpuSeconds(),
        r.jitSeconds(),
        r.cpuMicrosPerRecord(),
        r.cpuMicrosPerRecordWithoutJit(),
        r.taskCpuMicrosPerRecord(),
        r.steady() == null
            ? "-"
            : String.format(
                Locale.ROOT,
                "%.2f (%,d, %.1f)",
                r.steadyCpuMicrosPerRecord(),
                r.steady().records(),
                r.steady().jitSeconds()),
        r.peakRssBytes() >> 20,
        r.peakHeapBytes() >> 20,
        r.heapLimit(),
        facts == null ? "-" : Long.toString(facts.dataFiles()),
        facts == null ? "-" : Integer.toString(facts.snapshots()),
        facts == null
            ? "-"
            : (facts.exact() ? "exactly " : "NOT exact: ")
                + String.format("%,d", facts.distinctIds()),
        r.outcome());
  }

  String render() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n## Runs (%,d records over %d partitions unless the workload says otherwise)%n%n",
            records,
            partitions));
    out.append(HEADER);
    results.forEach(r -> out.append(line(r)).append('\n'));
    out.append("\n## Ratios (median over repeats of records/s per task)\n\n");
    out.append(
        "| encoding | Floe 1 task / Apache 1 task | same, delivered records/s | Floe 4 tasks /"
            + " Apache, per task | Floe 1 task delivered / no-op sink | same / Parquet writer | Floe 4"
            + " tasks / Floe 1 task, total |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (Encoding encoding : Encoding.values()) {
      double floe1 = median(r -> r.encoding() == encoding && isFloe(r, 1), true);
      double floe4 = median(r -> r.encoding() == encoding && isFloe(r, 4), true);
      double apache =
          median(r -> r.encoding() == encoding && r.contender() == Contender.APACHE, true);
      // the ceilings do not wait for commits: compare them with the records/s handed to Floe
      double noop = median(r -> r.encoding() == encoding && r.contender() == Contender.NOOP, true);
      double floe4Total = median(r -> r.encoding() == encoding && isFloe(r, 4), false);
      double floe1Delivered =
          medianOf(r -> r.encoding() == encoding && isFloe(r, 1), RunResult::deliveredPerSecond);
      double apacheDelivered =
          medianOf(
              r -> r.encoding() == encoding && r.contender() == Contender.APACHE,
              RunResult::deliveredPerSecond);
      if (Double.isNaN(floe1)) {
        continue;
      }
      double parquet =
          parquetCeiling.isEmpty() ? Double.NaN : parquetCeiling.get(0).rowsPerSecond();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
              encoding.label(),
              floe1 / apache,
              floe1Delivered / apacheDelivered,
              floe4 / apache,
              floe1Delivered / noop,
              floe1Delivered / parquet,
              floe4Total / floe1));
    }
    for (WriterThroughput.Way way : parquetCeiling) {
      if (way.name().endsWith(WriterThroughput.COLD)) {
        out.append(
            String.format(
                Locale.ROOT,
                "%nIceberg's Parquet DataWriter in a fresh JVM, its first pass (%s): %,.0f"
                    + " records/s, %.2f µs of the process's CPU a row.%n",
                way.name(),
                way.rowsPerSecond(),
                way.cpuMicrosPerRow()));
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%nIceberg's Parquet DataWriter alone, in process, on pre-built rows (%s): %,.0f"
                  + " records/s, %.2f µs of CPU a row (medians of 3).%n",
              way.name(),
              way.rowsPerSecond(),
              way.cpuMicrosPerRow()));
    }
    out.append(goal());
    out.append(heaps());
    out.append(threads());
    if (!latencies.isEmpty()) {
      out.append("\n## Produce-to-visible latency (Avro trickle, commit interval 10 s)\n\n");
      out.append(
          "| sink | workload | p50 ms | p99 ms | max ms | outcome |\n|---|---|---:|---:|---:|---|\n");
      latencies.forEach(l -> out.append(l).append('\n'));
    }
    return out.toString();
  }

  /**
   * The goal line per encoding: Floe's worker CPU per record (one task, to the last commit) against
   * the no-op sink's with the same converter plus {@link #GOAL_PARQUET_FACTOR} times the Parquet
   * writer's CPU per row (as Floe writes), medians over the repeats.
   */
  private String goal() {
    if (parquetCeiling.isEmpty()) {
      return "";
    }
    double parquet = asFloeWrites().cpuMicrosPerRow();
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n## The goal: Floe's CPU per record ≤ the no-op sink's + %.1f × the Parquet writer's"
                + " CPU per row (%.2f µs, %s)%n%n",
            GOAL_PARQUET_FACTOR,
            parquet,
            asFloeWrites().name()));
    out.append(
        "| encoding | worker CPU counted | no-op sink CPU µs/record | Floe 1 task CPU µs/record |"
            + " Floe − no-op | bound | goal | Floe − no-op, task threads | Floe delivered / no-op"
            + " records/s |\n|---|---|---:|---:|---:|---:|---|---:|---:|\n");
    double cold = coldAsFloeWrites();
    for (Encoding encoding : Encoding.values()) {
      for (int counted = 0; counted < 5; counted++) {
        if (counted == 2 && Double.isNaN(cold)) {
          continue;
        }
        boolean steady = counted >= 3;
        ToDoubleFunction<RunResult> cpu =
            switch (counted) {
              case 1 -> RunResult::cpuMicrosPerRecordWithoutJit;
              case 3 -> RunResult::steadyCpuMicrosPerRecord;
              case 4 -> RunResult::steadyCpuMicrosPerRecordWithoutJit;
              default -> RunResult::cpuMicrosPerRecord;
            };
        ToDoubleFunction<RunResult> taskCpu =
            steady ? RunResult::steadyTaskCpuMicrosPerRecord : RunResult::taskCpuMicrosPerRecord;
        double ceiling = counted == 2 ? cold : parquet;
        double floe = medianOf(r -> r.encoding() == encoding && isFloe(r, 1), cpu);
        double noop =
            medianOf(r -> r.encoding() == encoding && r.contender() == Contender.NOOP, cpu);
        if (Double.isNaN(floe) || Double.isNaN(noop)) {
          continue;
        }
        double floeTask = medianOf(r -> r.encoding() == encoding && isFloe(r, 1), taskCpu);
        double noopTask =
            medianOf(r -> r.encoding() == encoding && r.contender() == Contender.NOOP, taskCpu);
        double bound = noop + GOAL_PARQUET_FACTOR * ceiling;
        double floeDelivered =
            medianOf(r -> r.encoding() == encoding && isFloe(r, 1), RunResult::deliveredPerSecond);
        double noopRate =
            medianOf(
                r -> r.encoding() == encoding && r.contender() == Contender.NOOP,
                RunResult::recordsPerSecond);
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %.2f |%n",
                encoding.label(),
                switch (counted) {
                  case 0 -> "all";
                  case 1 -> "without the JIT compiler threads";
                  case 3 ->
                      String.format(
                          Locale.ROOT,
                          "steady: the records after the first %.0f%%, warm writer",
                          windowPercent);
                  case 4 -> "steady, without the JIT compiler threads";
                  default ->
                      String.format(Locale.ROOT, "all, against the cold writer (%.2f µs)", cold);
                },
                noop,
                floe,
                floe - noop,
                bound,
                floe <= bound
                    ? "**met**"
                    : String.format(Locale.ROOT, "**not met** (%.2f µs over)", floe - bound),
                floeTask - noopTask,
                floeDelivered / noopRate));
      }
    }
    return out.toString();
  }

  /**
   * Each run at another worker heap against the same contender, tasks and encoding at the default
   * heap: medians of records/s, to visible and delivered, and their ratios.
   */
  private String heaps() {
    if (otherHeaps.isEmpty()) {
      return "";
    }
    StringBuilder out =
        new StringBuilder(
            "\n## Worker heap\n\n| encoding | sink | heap | records/s visible | ÷ default heap |"
                + " records/s delivered | ÷ default heap | peak heap MiB |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|\n");
    java.util.Set<String> seen = new java.util.LinkedHashSet<>();
    for (RunResult other : otherHeaps) {
      String key = other.encoding() + "/" + other.label() + "/" + other.heapLimit();
      if (!seen.add(key)) {
        continue;
      }
      Predicate<RunResult> same =
          r ->
              r.encoding() == other.encoding()
                  && r.contender() == other.contender()
                  && r.tasks() == other.tasks();
      Predicate<RunResult> atThisHeap =
          r -> same.test(r) && r.heapLimit().equals(other.heapLimit());
      double visible = medianIn(otherHeaps, atThisHeap, RunResult::recordsPerSecond);
      double delivered = medianIn(otherHeaps, atThisHeap, RunResult::deliveredPerSecond);
      double peak = medianIn(otherHeaps, atThisHeap, r -> r.peakHeapBytes() / 1048576.0);
      double defaultVisible = medianOf(same, RunResult::recordsPerSecond);
      double defaultDelivered = medianOf(same, RunResult::deliveredPerSecond);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %,.0f | %.2f | %,.0f | %.2f | %,.0f |%n",
              other.encoding().label(),
              other.label(),
              other.heapLimit(),
              visible,
              visible / defaultVisible,
              delivered,
              delivered / defaultDelivered,
              peak));
    }
    return out.toString();
  }

  /**
   * Where each run's worker CPU went: seconds by group of threads, the largest first, those under
   * 2% of the run's CPU left out.
   */
  private String threads() {
    StringBuilder out = new StringBuilder("\n## Worker CPU seconds by thread, each run\n\n");
    for (RunResult r : results) {
      if (r.cpuByThreads() == null || r.cpuByThreads().isEmpty()) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "- %s, %s, %s, repeat %d: %s%s%n",
              r.workload(),
              r.encoding().label(),
              r.label(),
              r.repeat(),
              byThread(r.cpuByThreads()),
              r.steady() == null
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      "; steady window (%,d records): %s",
                      r.steady().records(),
                      byThread(r.steady().cpuByThreads()))));
    }
    return out.toString();
  }

  /** Seconds by group of threads, the largest first, those under 2% of the total left out. */
  private static String byThread(Map<String, Double> cpuByThreads) {
    double total = cpuByThreads.values().stream().mapToDouble(Double::doubleValue).sum();
    StringBuilder groups = new StringBuilder();
    cpuByThreads.forEach(
        (group, seconds) -> {
          if (seconds >= 0.02 * total) {
            groups.append(
                String.format(
                    Locale.ROOT, "%s%s %.1f", groups.isEmpty() ? "" : ", ", group, seconds));
          }
        });
    return String.format(Locale.ROOT, "%.1f s: %s", total, groups);
  }

  /**
   * The raw Parquet writer's cold pass with the settings Floe's tasks write with: the process CPU a
   * row of a fresh JVM writing the rows once, JIT and GC included, as a fresh worker's figures
   * include them; NaN when not measured.
   */
  private double coldAsFloeWrites() {
    return parquetCeiling.stream()
        .filter(
            way ->
                way.name()
                    .equals(WriterThroughput.RAW_PARQUET_AS_FLOE_WRITES + WriterThroughput.COLD))
        .mapToDouble(WriterThroughput.Way::cpuMicrosPerRow)
        .findFirst()
        .orElse(Double.NaN);
  }

  /** The raw Parquet writer with the settings Floe's tasks write with, else the first measured. */
  private WriterThroughput.Way asFloeWrites() {
    return parquetCeiling.stream()
        .filter(way -> way.name().equals(WriterThroughput.RAW_PARQUET_AS_FLOE_WRITES))
        .findFirst()
        .orElse(parquetCeiling.get(0));
  }

  private static boolean isFloe(RunResult r, int tasks) {
    return r.contender() == Contender.FLOE && r.tasks() == tasks;
  }

  private double median(Predicate<RunResult> which, boolean perTask) {
    return medianOf(
        which, perTask ? RunResult::recordsPerSecondPerTask : RunResult::recordsPerSecond);
  }

  private double medianOf(Predicate<RunResult> which, ToDoubleFunction<RunResult> figure) {
    return medianIn(results, which, figure);
  }

  private static double medianIn(
      List<RunResult> runs, Predicate<RunResult> which, ToDoubleFunction<RunResult> figure) {
    List<Double> values = new ArrayList<>();
    for (RunResult r : runs) {
      double value = r.ok() && which.test(r) ? figure.applyAsDouble(r) : Double.NaN;
      if (r.workload().equals("throughput") && !Double.isNaN(value)) {
        values.add(value);
      }
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
