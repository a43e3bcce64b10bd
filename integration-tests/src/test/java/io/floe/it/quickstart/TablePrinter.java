/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.quickstart;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Prints an Iceberg table for a person: its schema, its latest snapshot with Floe's lineage keys,
 * and its rows in order of a numeric column, as aligned columns. A null shows as {@code null}, so a
 * column that schema evolution added reads {@code null} in the rows written before it existed.
 */
final class TablePrinter {
  private static final String LINEAGE_PREFIX = "floe.";

  private TablePrinter() {}

  /**
   * Prints the table, its rows ordered by {@code sortColumn} (a numeric column) and, past {@code
   * maxRows}, only the first and the last ones; returns its row count.
   */
  static long print(Table table, String sortColumn, int maxRows, PrintStream out) {
    out.println("Table " + table.name());
    out.println("  schema:");
    for (Types.NestedField field : table.schema().columns()) {
      out.printf(
          "    %-12s %s%s%n", field.name(), field.type(), field.isOptional() ? "" : " (required)");
    }
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      out.println("  no snapshot yet");
      return 0;
    }
    printSnapshot(snapshot, out);
    List<Record> rows = read(table);
    rows.sort(Comparator.comparingLong(row -> ((Number) row.getField(sortColumn)).longValue()));
    printRows(table.schema().columns(), sortColumn, rows, maxRows, out);
    out.printf("  %d row(s)%n", rows.size());
    return rows.size();
  }

  private static void printSnapshot(Snapshot snapshot, PrintStream out) {
    Map<String, String> summary = snapshot.summary();
    out.printf(
        "  snapshot %d (%s, %s): added %s record(s) in %s file(s); the table holds %s record(s) in"
            + " %s file(s)%n",
        snapshot.snapshotId(),
        snapshot.operation(),
        Instant.ofEpochMilli(snapshot.timestampMillis()),
        summary.getOrDefault("added-records", "0"),
        summary.getOrDefault("added-data-files", "0"),
        summary.getOrDefault("total-records", "?"),
        summary.getOrDefault("total-data-files", "?"));
    Map<String, String> lineage = new TreeMap<>();
    summary.forEach(
        (key, value) -> {
          if (key.startsWith(LINEAGE_PREFIX)) {
            lineage.put(key, value);
          }
        });
    out.println("  lineage (snapshot summary):");
    int width = lineage.keySet().stream().mapToInt(String::length).max().orElse(0);
    lineage.forEach(
        (key, value) -> out.printf("    %-" + width + "s  %s%n", key, readable(key, value)));
  }

  /** A time in epoch milliseconds ({@code floe.valid-through-ms.*}) also as an instant. */
  private static String readable(String key, String value) {
    if (key.startsWith(LINEAGE_PREFIX + "valid-through-ms.")) {
      try {
        return value + " (" + Instant.ofEpochMilli(Long.parseLong(value)) + ")";
      } catch (NumberFormatException e) {
        return value;
      }
    }
    return value;
  }

  private static void printRows(
      List<Types.NestedField> columns,
      String sortColumn,
      List<Record> rows,
      int maxRows,
      PrintStream out) {
    int head = rows.size() <= maxRows ? rows.size() : maxRows / 2;
    int tail = rows.size() <= maxRows ? 0 : maxRows - head;
    List<List<String>> shown = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (i < head || i >= rows.size() - tail) {
        shown.add(cells(rows.get(i), columns.size()));
      }
    }
    int[] widths = new int[columns.size()];
    List<String> header = columns.stream().map(Types.NestedField::name).toList();
    for (List<String> line : concat(header, shown)) {
      for (int c = 0; c < widths.length; c++) {
        widths[c] = Math.max(widths[c], line.get(c).length());
      }
    }
    out.println("  rows (by " + sortColumn + "):");
    printLine(header, widths, out);
    for (int i = 0; i < shown.size(); i++) {
      if (tail > 0 && i == head) {
        out.printf("    ... %d more row(s) ...%n", rows.size() - head - tail);
      }
      printLine(shown.get(i), widths, out);
    }
  }

  private static List<String> cells(Record row, int columns) {
    List<String> cells = new ArrayList<>(columns);
    for (int c = 0; c < columns; c++) {
      cells.add(String.valueOf(row.get(c)));
    }
    return cells;
  }

  private static List<List<String>> concat(List<String> header, List<List<String>> lines) {
    List<List<String>> all = new ArrayList<>(lines.size() + 1);
    all.add(header);
    all.addAll(lines);
    return all;
  }

  private static void printLine(List<String> cells, int[] widths, PrintStream out) {
    StringBuilder line = new StringBuilder("   ");
    for (int c = 0; c < cells.size(); c++) {
      line.append(' ').append(String.format("%-" + widths[c] + "s", cells.get(c)));
    }
    out.println(line.toString().stripTrailing());
  }

  private static List<Record> read(Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name(), e);
    }
    return rows;
  }
}
