/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * Apache Spark 4.1 with the Iceberg Spark runtime, reading a table of a REST catalog in a child JVM
 * of its own (Spark's Jackson, Scala and Hadoop jars stay out of the test JVM). The reader and its
 * jars come from the {@code integration-tests/runtimes/spark-4.1} module; its {@code TableDump}
 * describes and reads the table, and {@link #render(Object)} writes Iceberg's generic values in the
 * notation it writes Spark's in, so rows of both readers compare as strings.
 */
public final class SparkReader {
  private static final String MAIN = "io.floe.it.spark.TableDump";

  private SparkReader() {}

  /**
   * What Spark saw of a table: the columns of {@code DESCRIBE TABLE} ({@code name} to {@code type},
   * top-level columns only) or the error that refused it, and every row or the error of the read.
   */
  public record View(
      Map<String, String> columns, String describeError, List<String> rows, String readError) {}

  /**
   * Reads {@code tables} ({@code namespace.name}) of {@code rest} with one Spark session. The child
   * JVM compiles with C1 only: it lives for seconds, and starts faster so.
   */
  public static Map<String, View> read(RestCatalogServer rest, List<String> tables) {
    Path dir = StackDirs.newServiceDir("spark");
    Path out = dir.resolve("tables.tsv");
    List<String> args = new ArrayList<>(List.of(rest.uri().toString(), out.toString()));
    args.addAll(tables);
    int exit =
        JavaProcess.run(
            "spark-reader",
            libDir(),
            List.of(
                "-Xmx1g",
                "-XX:TieredStopAtLevel=1",
                // as Spark's launcher opens them: Arrow, under Iceberg's vectorized reads of
                // files with deletes, needs direct buffer addresses
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"),
            MAIN,
            args,
            dir);
    if (exit != 0 || !Files.exists(out)) {
      throw new IllegalStateException(
          "Spark reader exited with " + exit + "; see " + dir.resolve("spark-reader.log"));
    }
    Map<String, View> views = new TreeMap<>();
    try {
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      for (String table : tables) {
        views.put(table, view(table, lines));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + out, e);
    }
    return views;
  }

  private static View view(String table, List<String> lines) {
    Map<String, String> columns = new TreeMap<>();
    List<String> rows = new ArrayList<>();
    String describeError = null;
    String readError = null;
    for (String line : lines) {
      String[] parts = line.split("\t", -1);
      if (!parts[0].equals(table)) {
        continue;
      }
      switch (parts[1]) {
        case "describe" -> {
          if (!parts[2].isEmpty() && !parts[2].startsWith("#")) {
            columns.putIfAbsent(parts[2], parts[3]);
          }
        }
        case "describe-error" -> describeError = parts[2] + ": " + parts[3];
        case "row" -> rows.add(parts[2]);
        case "read-error" -> readError = parts[2] + ": " + parts[3];
        default ->
            throw new IllegalStateException("Unexpected line from the Spark reader: " + line);
      }
    }
    return new View(columns, describeError, rows, readError);
  }

  /**
   * A row read by Iceberg's generic reader, in the reader's notation, with only the top-level
   * columns of {@code schema}: the generic reader adds the row position {@code _pos} to rows of
   * files that have deletes, which Spark does not show.
   */
  public static String render(Record row, org.apache.iceberg.Schema schema) {
    StringJoiner joined = new StringJoiner(", ", "{", "}");
    for (Types.NestedField field : schema.columns()) {
      joined.add(field.name() + "=" + render(row.getField(field.name())));
    }
    return joined.toString();
  }

  /**
   * An Iceberg generic value in the reader's notation: {@code {column=value, ...}} for records,
   * {@code [a, b]} for lists, maps sorted by key, binary as hex, decimals in plain notation,
   * timestamps with zone as UTC instants, everything else by {@code toString()}.
   */
  public static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Record record) {
      List<Types.NestedField> fields = record.struct().fields();
      StringJoiner joined = new StringJoiner(", ", "{", "}");
      for (int i = 0; i < fields.size(); i++) {
        joined.add(fields.get(i).name() + "=" + render(record.get(i)));
      }
      return joined.toString();
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, String> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(render(k), render(v)));
      return sorted.toString();
    }
    if (value instanceof List<?> list) {
      StringJoiner joined = new StringJoiner(", ", "[", "]");
      list.forEach(element -> joined.add(render(element)));
      return joined.toString();
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof OffsetDateTime timestamp) {
      return timestamp.toInstant().toString();
    }
    return value.toString();
  }

  private static Path libDir() {
    return StackDirs.runtimeLib("spark-4.1", "Spark reader");
  }
}
