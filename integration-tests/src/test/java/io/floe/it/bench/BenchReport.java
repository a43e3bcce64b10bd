/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** The benchmark's figures as Markdown tables: every run, the ratios, memory, latency. */
final class BenchReport {
  private static final String HEADER =
      "| workload | encoding | sink | repeat | records/s | per task | MB/s | seconds | delivered"
          + " records/s | peak RSS MiB"
          + " | peak heap MiB (cap) | data files | snapshots | distinct ids | outcome |\n"
          + "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";

  private final List<RunResult> results;
  private final List<String> latencies;
  private final List<Double> parquetCeiling;
  private final long records;
  private final int partitions;

  BenchReport(
      List<RunResult> results,
      List<String> latencies,
      List<Double> parquetCeiling,
      long records,
      int partitions) {
    this.results = results;
    this.latencies = latencies;
    this.parquetCeiling = parquetCeiling;
    this.records = records;
    this.partitions = partitions;
  }

  /** One run as a row of the runs table. */
  static String line(RunResult r) {
    TableFacts facts = r.facts();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %d | %,.0f | %,.0f | %.1f | %.1f | %,.0f | %,d | %,d (%s) | %s | %s | %s | %s |",
        r.workload(),
        r.encoding().label(),
        r.label(),
        r.repeat(),
        r.recordsPerSecond(),
        r.recordsPerSecondPerTask(),
        r.megabytesPerSecond(),
        r.seconds(),
        r.deliveredPerSecond(),
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
      double parquet = parquetCeiling.isEmpty() ? Double.NaN : parquetCeiling.get(0);
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
    if (!parquetCeiling.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%nIceberg's Parquet DataWriter alone, in process, on pre-built rows: %,.0f records/s"
                  + " (median of 3).%n",
              parquetCeiling.get(0)));
    }
    if (!latencies.isEmpty()) {
      out.append("\n## Produce-to-visible latency (Avro trickle, commit interval 10 s)\n\n");
      out.append(
          "| sink | workload | p50 ms | p99 ms | max ms | outcome |\n|---|---|---:|---:|---:|---|\n");
      latencies.forEach(l -> out.append(l).append('\n'));
    }
    return out.toString();
  }

  private static boolean isFloe(RunResult r, int tasks) {
    return r.contender() == Contender.FLOE && r.tasks() == tasks;
  }

  private double median(Predicate<RunResult> which, boolean perTask) {
    return medianOf(
        which, perTask ? RunResult::recordsPerSecondPerTask : RunResult::recordsPerSecond);
  }

  private double medianOf(Predicate<RunResult> which, ToDoubleFunction<RunResult> figure) {
    List<Double> values = new ArrayList<>();
    for (RunResult r : results) {
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
