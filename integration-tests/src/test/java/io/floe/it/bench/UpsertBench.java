/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * The upsert benchmark, one part per JVM (args: part, work directory): {@code throughput} (changes
 * per second of upsert mode at several update fractions and key kinds, against append mode on the
 * same load), {@code growth} (the coordinator's commit time as the table grows) and {@code memory}
 * (the heap around the coordinator's commit by cycle size). Sizes are system properties (see
 * BENCHMARKS.md); {@code bench.upsert.scale} scales every row count at once. Prints Markdown
 * tables; exits non-zero if a table does not hold exactly the rows it must.
 */
final class UpsertBench {
  private static final double SCALE = Double.parseDouble(property("scale", "1"));

  private final JdbcCatalog catalog;
  private final ResolutionCapture resolutions = ResolutionCapture.install();
  private final UpsertReport report = new UpsertReport();
  private final List<String> failures = new ArrayList<>();
  private int tables;

  private UpsertBench(Path work) {
    this.catalog = new JdbcCatalog();
    catalog.initialize(
        "bench",
        Map.of(
            "uri",
            "jdbc:sqlite:" + work.resolve("catalog.db"),
            "warehouse",
            work.resolve("warehouse").toString(),
            "jdbc.schema-version",
            "V1"));
    catalog.createNamespace(Namespace.of("bench"));
  }

  public static void main(String[] args) throws Exception {
    String part = args[0];
    Path work = Paths.get(args[1], part);
    deleteTree(work);
    Files.createDirectories(work);
    UpsertBench bench = new UpsertBench(work);
    System.out.println(UpsertReport.machine());
    switch (part) {
      case "throughput" -> bench.throughput();
      case "growth" -> bench.growth();
      case "memory" -> bench.memory();
      default -> throw new IllegalArgumentException("unknown part " + part);
    }
    bench.catalog.close();
    bench.failures.forEach(f -> System.out.println("FAILED: " + f));
    System.out.println("UpsertBench " + part + " done");
    System.exit(bench.failures.isEmpty() ? 0 : 1);
  }

  /** Upsert mode against append mode, per key kind and update fraction. */
  private void throughput() {
    int cycle = rows("cycle", 100_000);
    int cycles = Integer.parseInt(property("cycles", "3"));
    long preload = rows("preload", 1_000_000);
    long fileRows = rows("file-rows", 500_000);
    boolean warm = false;
    for (ChangeLoad.KeyKind kind : keyKinds("throughput", "sequential,uuid,random-long")) {
      for (double fraction : doubles(property("fractions", "0.1,0.5,1.0"))) {
        for (UpsertRig.Mode mode : UpsertRig.Mode.values()) {
          try (UpsertRig rig = rig(kind, mode, 3)) {
            if (mode == UpsertRig.Mode.UPSERT) {
              rig.preload(preload, fileRows);
            }
            long before = rig.load().keys();
            if (!warm) {
              rig.cycle(cycle, fraction, null); // the JIT's warm-up, not reported
              warm = true;
            }
            List<UpsertRig.Cycle> measured = new ArrayList<>();
            for (int i = 0; i < cycles; i++) {
              measured.add(rig.cycle(cycle, fraction, null));
            }
            report.throughput(kind, mode, fraction, before, measured);
            check(rig, mode == UpsertRig.Mode.UPSERT ? rig.load().keys() : rig.load().changes());
          }
        }
      }
    }
    System.out.println(report.throughputTable(cycle, preload, fileRows));
  }

  /** The coordinator's commit time as the table grows, per format version and key kind. */
  private void growth() {
    int cycle = rows("cycle", 100_000);
    int cycles = Integer.parseInt(property("growth.cycles", "2"));
    double fraction = Double.parseDouble(property("growth.fraction", "0.5"));
    long fileRows = rows("file-rows", 500_000);
    List<Long> sizes = new ArrayList<>();
    for (String size : property("growth.rows", "1000000,2000000,5000000,10000000").split(",")) {
      sizes.add(Math.round(Long.parseLong(size.trim()) * SCALE));
    }
    for (String compaction : property("growth.compaction", "off").split(",")) {
      boolean compact = compaction.trim().equals("on");
      for (String index : property("growth.key-index", "off").split(",")) {
        boolean keyIndex = index.trim().equals("on");
        for (int version : ints(property("growth.versions", "3,2"))) {
          for (ChangeLoad.KeyKind kind : keyKinds("growth", "sequential,uuid")) {
            try (UpsertRig rig = rig(kind, UpsertRig.Mode.UPSERT, version, keyIndex)) {
              boolean warm = false;
              for (long size : sizes) {
                rig.preload(size - rig.load().keys(), fileRows);
                if (!warm) {
                  rig.cycle(cycle, fraction, null);
                  warm = true;
                }
                long rows = rig.load().keys();
                List<UpsertRig.Cycle> measured = new ArrayList<>();
                double compactionSeconds = 0;
                for (int i = 0; i < cycles; i++) {
                  measured.add(rig.cycle(cycle, fraction, null));
                  if (compact) {
                    compactionSeconds += rig.compact();
                  }
                }
                report.growth(
                    version,
                    kind,
                    keyIndex,
                    rows,
                    measured,
                    compact ? compactionSeconds / cycles : -1);
              }
              checkSummary(rig);
            }
          }
        }
      }
    }
    System.out.println(report.growthTable(cycle, fraction, fileRows));
  }

  /** The heap around the coordinator's commit, per cycle size and key kind. */
  private void memory() {
    long preload = rows("memory.preload", 2_000_000);
    long fileRows = rows("file-rows", 500_000);
    double fraction = Double.parseDouble(property("memory.fraction", "0.5"));
    // every this many ms during a commit a full collection samples its live data (0: never)
    HeapGauge gauge = new HeapGauge(Long.parseLong(property("memory.probe-ms", "0")));
    for (ChangeLoad.KeyKind kind : keyKinds("memory", "sequential,uuid")) {
      try (UpsertRig rig = rig(kind, UpsertRig.Mode.UPSERT, 3)) {
        rig.preload(preload, fileRows);
        rig.cycle(rows("memory.warm-up", 10_000), fraction, null);
        for (String size : property("memory.sizes", "10000,100000,500000").split(",")) {
          int changes = (int) Math.round(Long.parseLong(size.trim()) * SCALE);
          long rows = rig.load().keys();
          report.memory(kind, changes, rows, rig.cycle(changes, fraction, gauge));
        }
        checkSummary(rig);
      }
    }
    System.out.println(
        report.memoryTable(preload, fraction, Runtime.getRuntime().maxMemory() >> 20));
  }

  private UpsertRig rig(ChangeLoad.KeyKind kind, UpsertRig.Mode mode, int version) {
    return rig(kind, mode, version, property("key-index", "off").equals("on"));
  }

  private UpsertRig rig(
      ChangeLoad.KeyKind kind, UpsertRig.Mode mode, int version, boolean keyIndex) {
    String name = String.format(Locale.ROOT, "t%d_%s_%s_v%d", tables++, kind, mode, version);
    ChangeLoad load = new ChangeLoad(kind, rows("hot-keys", 200_000), 42L + tables);
    return new UpsertRig(
        catalog, name.toLowerCase(Locale.ROOT), mode, version, load, resolutions, keyIndex);
  }

  private void check(UpsertRig rig, long expectedRows) {
    String problem = rig.check(expectedRows);
    if (problem != null) {
      failures.add(problem);
    }
    checkSummary(rig);
  }

  /** Rows minus deleted positions, from the summary, must be the number of keys. */
  private void checkSummary(UpsertRig rig) {
    UpsertRig.TableFacts facts = rig.facts();
    long expected = rig.mode() == UpsertRig.Mode.UPSERT ? rig.load().keys() : rig.load().changes();
    if (facts.liveRows() != expected) {
      failures.add(
          String.format(
              "%s: %,d rows - %,d deleted positions = %,d live rows, expected %,d",
              rig.name(), facts.rows(), facts.positionDeletes(), facts.liveRows(), expected));
    }
  }

  /** The key kinds of a part: {@code bench.upsert.<part>.keys}, else {@code bench.upsert.keys}. */
  private static List<ChangeLoad.KeyKind> keyKinds(String part, String fallback) {
    return Arrays.stream(property(part + ".keys", property("keys", fallback)).split(","))
        .map(ChangeLoad.KeyKind::of)
        .toList();
  }

  private static String property(String name, String fallback) {
    return System.getProperty("bench.upsert." + name, fallback);
  }

  private static int rows(String name, long fallback) {
    return (int)
        Math.max(1, Math.round(Long.parseLong(property(name, Long.toString(fallback))) * SCALE));
  }

  private static double[] doubles(String list) {
    return Arrays.stream(list.split(",")).mapToDouble(s -> Double.parseDouble(s.trim())).toArray();
  }

  private static int[] ints(String list) {
    return Arrays.stream(list.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
