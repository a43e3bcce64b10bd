/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.quickstart;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** Prints an Iceberg table for a person: schema, latest snapshot, and the first rows. */
final class TablePrinter {
  private TablePrinter() {}

  /** Prints the table and returns its row count. */
  static long print(Table table, int maxRows, PrintStream out) {
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
    out.printf("  snapshot %d: %s%n", snapshot.snapshotId(), snapshot.summary());
    long rows = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        if (rows < maxRows) {
          out.println("    " + record);
        }
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name(), e);
    }
    out.printf("  %d row(s)%n", rows);
    return rows;
  }
}
