/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static io.floe.it.bench.BenchRows.SCHEMA;
import static io.floe.it.bench.BenchRows.T0;

import io.floe.connect.write.TableWriter;
import io.floe.connect.write.WriterPool;
import io.floe.connect.write.WriterPoolOptions;
import io.floe.connect.write.WriterPoolStats;
import io.floe.connect.write.WrittenFiles;
import java.io.IOException;
import java.lang.management.MemoryPoolMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;

/**
 * One task writing many identity partitions of many tables (in-memory catalog and files), each
 * partition of each table in turn, then committing and reading everything back. Args: {@code
 * bounded} (default limits) or {@code unbounded} (no limits, as writers without a budget behave),
 * partitions, tables, rows per partition and table.
 */
final class ManyPartitions {
  private ManyPartitions() {}

  public static void main(String[] args) throws IOException {
    boolean bounded = args[0].equals("bounded");
    int partitions = Integer.parseInt(args[1]);
    int tableCount = Integer.parseInt(args[2]);
    int rowsPer = Integer.parseInt(args[3]);
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("bench", Map.of("warehouse", "mem://bench"));
    catalog.createNamespace(Namespace.of("bench"));
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("quantity").build();
    Map<TableIdentifier, Table> tables = new LinkedHashMap<>();
    for (int t = 0; t < tableCount; t++) {
      TableIdentifier id = TableIdentifier.of("bench", "t" + t);
      tables.put(id, catalog.createTable(id, SCHEMA, spec));
    }
    List<Record> rows = BenchRows.rows(partitions * rowsPer, 7);
    List<MemoryPoolMXBean> heap = BenchRows.heapPools();
    long baseline = BenchRows.liveHeap(heap);
    WriterPoolOptions options =
        bounded
            ? WriterPoolOptions.defaults()
            : new WriterPoolOptions(Long.MAX_VALUE, Integer.MAX_VALUE);
    System.out.printf(
        "%s: %d partitions x %d tables x %d rows, %s, heap %,d MiB, rows hold %,d MiB%n",
        args[0],
        partitions,
        tableCount,
        rowsPer,
        options,
        Runtime.getRuntime().maxMemory() >> 20,
        baseline >> 20);
    long maxEstimate = 0;
    long start = System.nanoTime();
    try (WriterPool pool = new WriterPool(options, Map.of(), 0)) {
      TopicPartition source = new TopicPartition("orders", 0);
      long offset = 0;
      for (int c = 0; c < partitions; c++) {
        for (TableIdentifier id : tables.keySet()) {
          TableWriter writer = pool.writerFor(id, tables::get);
          for (int r = 0; r < rowsPer; r++) {
            Record row = rows.get(c * rowsPer + r);
            row.set(1, c);
            writer.write(source, offset++, T0, row);
          }
          maxEstimate = Math.max(maxEstimate, pool.stats().bufferedBytesEstimate());
        }
        if (c % 100 == 99 || !bounded && c % 10 == 9) {
          System.out.printf(
              "  %d partitions: %d files open, %,d MiB estimated, live heap %,d MiB%n",
              c + 1,
              pool.stats().openFiles(),
              pool.stats().bufferedBytesEstimate() >> 20,
              (BenchRows.liveHeap(heap) - baseline) >> 20);
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      WriterPoolStats stats = pool.stats();
      System.out.printf(
          "wrote %,d rows in %.1f s (%,.0f rows/s): %s%n  max estimate %,d MiB, peak heap %,d MiB"
              + " of %,d MiB%n",
          offset,
          seconds,
          offset / seconds,
          stats,
          maxEstimate >> 20,
          BenchRows.peakHeap(heap) >> 20,
          Runtime.getRuntime().maxMemory() >> 20);
      long read = 0;
      for (WrittenFiles written : pool.complete()) {
        Table table = catalog.loadTable(written.table());
        AppendFiles append = table.newAppend();
        written.dataFiles().forEach(append::appendFile);
        append.commit();
        try (CloseableIterable<Record> scan =
            IcebergGenerics.read(catalog.loadTable(written.table())).build()) {
          for (Record ignored : scan) {
            read++;
          }
        }
      }
      System.out.printf("rows read back %d%n", read);
    }
  }
}
