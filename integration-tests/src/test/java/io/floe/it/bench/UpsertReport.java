/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import io.floe.connect.deletes.ResolutionStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.iceberg.IcebergBuild;

/** The upsert benchmark's figures as Markdown tables, with a progress line as each comes in. */
final class UpsertReport {
  private static final double MIB = 1 << 20;

  private record Run(
      ChangeLoad.KeyKind kind,
      UpsertRig.Mode mode,
      double fraction,
      long tableRows,
      List<UpsertRig.Cycle> cycles) {
    double recordsPerSecond() {
      return cycles.stream().mapToLong(UpsertRig.Cycle::records).sum() / total(c -> c.seconds());
    }

    double megabytesPerSecond() {
      return cycles.stream().mapToLong(UpsertRig.Cycle::inputBytes).sum()
          / 1e6
          / total(c -> c.seconds());
    }

    double total(ToDoubleFunction<UpsertRig.Cycle> figure) {
      return cycles.stream().mapToDouble(figure).sum();
    }

    double median(ToDoubleFunction<UpsertRig.Cycle> figure) {
      double[] values = cycles.stream().mapToDouble(figure).sorted().toArray();
      int n = values.length;
      return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    UpsertRig.Cycle last() {
      return cycles.get(cycles.size() - 1);
    }
  }

  /** A growth measurement; {@code compactionSeconds} per cycle, -1 without compaction. */
  private record Growth(
      int version,
      ChangeLoad.KeyKind kind,
      boolean keyIndex,
      long rows,
      Run run,
      double compactionSeconds) {}

  private record Memory(ChangeLoad.KeyKind kind, int changes, long rows, UpsertRig.Cycle cycle) {}

  private final List<Run> runs = new ArrayList<>();
  private final List<Growth> growth = new ArrayList<>();
  private final List<Memory> memory = new ArrayList<>();

  void throughput(
      ChangeLoad.KeyKind kind,
      UpsertRig.Mode mode,
      double fraction,
      long tableRows,
      List<UpsertRig.Cycle> cycles) {
    Run run = new Run(kind, mode, fraction, tableRows, cycles);
    runs.add(run);
    System.out.println("progress: " + throughputLine(run));
  }

  void growth(
      int version,
      ChangeLoad.KeyKind kind,
      boolean keyIndex,
      long rows,
      List<UpsertRig.Cycle> cycles,
      double compactionSeconds) {
    Growth row =
        new Growth(
            version,
            kind,
            keyIndex,
            rows,
            new Run(kind, UpsertRig.Mode.UPSERT, 0, rows, cycles),
            compactionSeconds);
    growth.add(row);
    System.out.println("progress: " + growthLine(row));
  }

  void memory(ChangeLoad.KeyKind kind, int changes, long rows, UpsertRig.Cycle cycle) {
    Memory row = new Memory(kind, changes, rows, cycle);
    memory.add(row);
    System.out.println("progress: " + memoryLine(row));
  }

  String throughputTable(int cycle, long preload, long fileRows) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n### Throughput: cycles of %,d changes; upsert tables (v3) start with %,d rows in"
                + " files of %,d; append tables start empty%n%n",
            cycle,
            preload,
            fileRows));
    out.append(
        "| keys | mode | updates | records/s | MB/s | worker put s | worker hand-over s |"
            + " commit s | locate s | files read / in table | rows read |\n"
            + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    runs.forEach(run -> out.append(throughputLine(run)).append('\n'));
    out.append("\nUpsert records/s / append records/s on the same load:\n\n| keys |");
    List<Double> fractions = runs.stream().map(Run::fraction).distinct().toList();
    fractions.forEach(f -> out.append(String.format(Locale.ROOT, " %.0f%% updates |", f * 100)));
    out.append("\n|---|").append("---:|".repeat(fractions.size())).append('\n');
    for (ChangeLoad.KeyKind kind : runs.stream().map(Run::kind).distinct().toList()) {
      out.append("| ").append(kind.label).append(" |");
      for (double fraction : fractions) {
        double upsert = find(kind, UpsertRig.Mode.UPSERT, fraction);
        double append = find(kind, UpsertRig.Mode.APPEND, fraction);
        out.append(String.format(Locale.ROOT, " %.2f |", upsert / append));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private double find(ChangeLoad.KeyKind kind, UpsertRig.Mode mode, double fraction) {
    return runs.stream()
        .filter(r -> r.kind() == kind && r.mode() == mode && r.fraction() == fraction)
        .mapToDouble(Run::recordsPerSecond)
        .findFirst()
        .orElse(Double.NaN);
  }

  private static String throughputLine(Run run) {
    boolean upsert = run.mode() == UpsertRig.Mode.UPSERT;
    return String.format(
        Locale.ROOT,
        "| %s | %s | %.0f%% | %,.0f | %.1f | %.2f | %.2f | %.2f | %s | %s | %s |",
        run.kind().label,
        upsert ? "upsert" : "append",
        run.fraction() * 100,
        run.recordsPerSecond(),
        run.megabytesPerSecond(),
        run.median(c -> c.writeNanos() / 1e9),
        run.median(c -> c.handOverNanos() / 1e9),
        run.median(c -> c.commitNanos() / 1e9),
        upsert ? String.format(Locale.ROOT, "%.2f", run.median(UpsertReport::locateSeconds)) : "-",
        upsert ? filesRead(run.last()) : "-",
        upsert ? String.format(Locale.ROOT, "%,d", run.last().resolution().rowsRead()) : "-");
  }

  private static double locateSeconds(UpsertRig.Cycle cycle) {
    ResolutionStats stats = cycle.resolution();
    return stats == null ? Double.NaN : stats.elapsed().toNanos() / 1e9;
  }

  private static String filesRead(UpsertRig.Cycle cycle) {
    ResolutionStats stats = cycle.resolution();
    return stats == null
        ? "-"
        : String.format(Locale.ROOT, "%d / %d", stats.filesRead(), stats.dataFilesInSnapshot());
  }

  String growthTable(int cycle, double fraction, long fileRows) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n### Commit time as the table grows: cycles of %,d changes, %.0f%% updates; the"
                + " table loaded in files of %,d rows between measurements%n%n",
            cycle,
            fraction * 100,
            fileRows));
    out.append(
        "| format | keys | key index | table rows | commit s | locate s | files read / in table |"
            + " rows read | delete files in table | worker s | compaction s |\n"
            + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    growth.forEach(row -> out.append(growthLine(row)).append('\n'));
    return out.toString();
  }

  private static String growthLine(Growth row) {
    Run run = row.run();
    return String.format(
        Locale.ROOT,
        "| v%d | %s | %s | %,d | %.2f | %.2f | %s | %,d | %,d | %.2f | %s |",
        row.version(),
        row.kind().label,
        row.keyIndex() ? "on" : "off",
        row.rows(),
        run.median(c -> c.commitNanos() / 1e9),
        run.median(UpsertReport::locateSeconds),
        filesRead(run.last()),
        run.last().resolution().rowsRead(),
        run.last().facts().deleteFiles(),
        run.median(UpsertRig.Cycle::workerSeconds),
        row.compactionSeconds() < 0
            ? "off"
            : String.format(Locale.ROOT, "%.2f", row.compactionSeconds()));
  }

  String memoryTable(long preload, double fraction, long maxHeapMib) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n### Coordinator heap around one commit: v3, %.0f%% updates, the table starting at"
                + " %,d rows; heap cap %,d MiB%n%n",
            fraction * 100,
            preload,
            maxHeapMib));
    out.append(
        "| keys | changes in the cycle | table rows | commit s | live before MiB | max after a GC"
            + " during the commit MiB (+ over before) | GCs | sum of pool peaks MiB | allocated"
            + " MiB | live after MiB | most live at a forced full GC MiB (+ over before) |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    memory.forEach(row -> out.append(memoryLine(row)).append('\n'));
    return out.toString();
  }

  private static String memoryLine(Memory row) {
    HeapGauge.Reading heap = row.cycle().heap();
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %,d | %.2f | %.0f | %s | %d | %.0f | %.0f | %.0f | %s |",
        row.kind().label,
        row.changes(),
        row.rows(),
        row.cycle().commitNanos() / 1e9,
        heap.before() / MIB,
        heap.maxAfterGc() < 0
            ? "no GC"
            : String.format(
                Locale.ROOT,
                "%.0f (+%.0f)",
                heap.maxAfterGc() / MIB,
                (heap.maxAfterGc() - heap.before()) / MIB),
        heap.collections(),
        heap.poolPeaks() / MIB,
        heap.allocated() / MIB,
        heap.after() / MIB,
        heap.maxLive() < 0
            ? "-"
            : String.format(
                Locale.ROOT,
                "%.0f (+%.0f)",
                heap.maxLive() / MIB,
                (heap.maxLive() - heap.before()) / MIB));
  }

  /** The machine and versions the figures were taken on. */
  static String machine() {
    String cpu = "unknown CPU";
    try {
      cpu =
          Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
              .filter(line -> line.startsWith("model name"))
              .map(line -> line.substring(line.indexOf(':') + 1).trim())
              .findFirst()
              .orElse(cpu);
    } catch (IOException e) {
      // not Linux: the CPU stays unnamed
    }
    long memory =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return String.format(
        Locale.ROOT,
        "Machine: %d cores (%s), %,d MiB RAM, %s %s; Java %s (%s); heap cap %,d MiB, JVM args %s;"
            + " Iceberg %s; %s",
        Runtime.getRuntime().availableProcessors(),
        cpu,
        memory >> 20,
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        Runtime.getRuntime().maxMemory() >> 20,
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(arg -> arg.startsWith("-X"))
            .toList(),
        IcebergBuild.version(),
        Instant.now());
  }
}
