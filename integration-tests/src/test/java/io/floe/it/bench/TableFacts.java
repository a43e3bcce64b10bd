/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What a run left in its tables: rows of the current snapshots, snapshots and data files created,
 * and whether the ids are exactly 0 to n - 1, each once.
 */
record TableFacts(long rows, int snapshots, long dataFiles, long distinctIds, boolean exact) {

  /** {@code total-records} of the current snapshots of {@code tables} (0 while absent). */
  static long totalRecords(Catalog catalog, List<TableIdentifier> tables) {
    return io.floe.it.eos.TableOracle.totalRecords(catalog, tables);
  }

  /** Reads the ids of every row of {@code tables} and checks them against 0 to n - 1. */
  static TableFacts of(Catalog catalog, List<TableIdentifier> tables, long expected) {
    BitSet seen = new BitSet((int) expected);
    long rows = 0;
    long duplicatesOrStrays = 0;
    int snapshots = 0;
    long files = 0;
    for (TableIdentifier id : tables) {
      Table table = catalog.loadTable(id);
      for (Snapshot snapshot : table.snapshots()) {
        snapshots++;
        files += Long.parseLong(snapshot.summary().getOrDefault("added-data-files", "0"));
      }
      try (CloseableIterable<Record> scan = IcebergGenerics.read(table).select("id").build()) {
        for (Record row : scan) {
          rows++;
          long value = (Long) row.getField("id");
          if (value < 0 || value >= expected || seen.get((int) value)) {
            duplicatesOrStrays++;
          } else {
            seen.set((int) value);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    long distinct = seen.cardinality();
    return new TableFacts(
        rows, snapshots, files, distinct, distinct == expected && duplicatesOrStrays == 0);
  }
}
