/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.spark;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads tables of an Iceberg REST catalog with Apache Spark in local mode and writes what Spark
 * sees to a file, one line each, tab-separated, each line starting with the table's name:
 *
 * <ul>
 *   <li>{@code describe <column> <type>} for each column of {@code DESCRIBE TABLE}, or {@code
 *       describe-error <exception class> <message>};
 *   <li>{@code row <value>} for each row of {@code SELECT *}, or {@code read-error <exception
 *       class> <message>}.
 * </ul>
 *
 * <p>A row is written as {@code {column=value, ...}}: structs the same way, lists as {@code [a,
 * b]}, maps as {@code {key=value}} sorted by key, binary as hex, decimals in plain notation, dates,
 * timestamps ({@code java.time} values, UTC) and everything else by {@code toString()}.
 *
 * <p>Arguments: the catalog's URI, the output file, then the tables ({@code namespace.name}).
 */
public final class TableDump {
  private static final String CATALOG = "floe";

  private TableDump() {}

  public static void main(String[] args) throws IOException {
    String uri = args[0];
    Path out = Path.of(args[1]);
    List<String> lines = new ArrayList<>();
    try (SparkSession spark = session(uri)) {
      for (int i = 2; i < args.length; i++) {
        dump(spark, args[i], lines);
      }
    }
    Files.write(out, lines, StandardCharsets.UTF_8);
  }

  private static void dump(SparkSession spark, String name, List<String> lines) {
    String table = CATALOG + "." + name;
    try {
      for (Row column : spark.sql("DESCRIBE TABLE " + table).collectAsList()) {
        lines.add(name + "\tdescribe\t" + column.getString(0) + "\t" + column.getString(1));
      }
    } catch (RuntimeException e) {
      lines.add(name + "\t" + error("describe-error", e));
    }
    try {
      for (Row row : spark.table(table).collectAsList()) {
        lines.add(name + "\trow\t" + render(row));
      }
    } catch (RuntimeException e) {
      lines.add(name + "\t" + error("read-error", e));
    }
  }

  private static SparkSession session(String uri) {
    String prefix = "spark.sql.catalog." + CATALOG;
    return SparkSession.builder()
        .master("local[1]")
        .appName("floe-table-dump")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.datetime.java8API.enabled", "true")
        .config(prefix, "org.apache.iceberg.spark.SparkCatalog")
        .config(prefix + ".type", "rest")
        .config(prefix + ".uri", uri)
        .getOrCreate();
  }

  private static String error(String kind, Throwable e) {
    String message = String.valueOf(e.getMessage()).replace('\n', ' ').replace('\t', ' ');
    return kind + "\t" + e.getClass().getName() + "\t" + message;
  }

  static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Row row) {
      String[] names = row.schema().fieldNames();
      StringJoiner fields = new StringJoiner(", ", "{", "}");
      for (int i = 0; i < names.length; i++) {
        fields.add(names[i] + "=" + render(row.get(i)));
      }
      return fields.toString();
    }
    if (value instanceof scala.collection.Map<?, ?> map) {
      Map<String, String> sorted = new TreeMap<>();
      CollectionConverters.asJava(map).forEach((k, v) -> sorted.put(render(k), render(v)));
      return sorted.toString();
    }
    if (value instanceof scala.collection.Seq<?> seq) {
      StringJoiner elements = new StringJoiner(", ", "[", "]");
      CollectionConverters.asJava(seq).forEach(element -> elements.add(render(element)));
      return elements.toString();
    }
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return value.toString();
  }
}
