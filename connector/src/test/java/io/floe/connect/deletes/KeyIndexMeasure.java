/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;

/**
 * Measures locating random keys with and without the key index, and what the index costs to build
 * and hold: a table of UUID keys bucketed 16 ways, written as 100 appends of 10,000 rows (1,600
 * files, 1M rows), 1,000 random stored keys retired. Prints its figures; asserts nothing about
 * time. Run with {@code mvn -q -pl connector exec:java
 * -Dexec.mainClass=io.floe.connect.deletes.KeyIndexMeasure -Dexec.classpathScope=test}; the
 * arguments, all optional, are the appends, the rows per append and the keys retired.
 */
public final class KeyIndexMeasure {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.UUIDType.get()),
              Types.NestedField.optional(2, "payload", Types.StringType.get())),
          Set.of(1));

  private KeyIndexMeasure() {}

  public static void main(String[] args) throws IOException {
    int appends = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int rowsPerAppend = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int retiredCount = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
    Path dir = Files.createTempDirectory("floe-key-index-measure");
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.initialize(
        "measure",
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + dir.resolve("catalog.db"),
            "jdbc.schema-version",
            "V1",
            CatalogProperties.WAREHOUSE_LOCATION,
            "mem://" + UUID.randomUUID(),
            CatalogProperties.FILE_IO_IMPL,
            InMemoryFileIO.class.getName()));
    catalog.createNamespace(Namespace.of("db"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "events"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).bucket("id", 16).build(),
            Map.of(TableProperties.FORMAT_VERSION, "3"));

    Random random = new Random(42);
    List<UUID> stored = new ArrayList<>();
    long writeStart = System.nanoTime();
    for (int a = 0; a < appends; a++) {
      List<Record> rows = new ArrayList<>(rowsPerAppend);
      for (int i = 0; i < rowsPerAppend; i++) {
        UUID id = new UUID(random.nextLong(), random.nextLong());
        stored.add(id);
        GenericRecord row = GenericRecord.create(SCHEMA);
        row.setField("id", id);
        row.setField("payload", "row " + i);
        rows.add(row);
      }
      List<DataFile> files = DeleteTables.write(table, rows);
      AppendFiles append = table.newFastAppend();
      files.forEach(append::appendFile);
      append.commit();
    }
    Snapshot base = table.currentSnapshot();
    System.out.printf(
        "table: %,d rows in %s data files, written in %.1f s%n",
        stored.size(),
        base.summary().get("total-data-files"),
        (System.nanoTime() - writeStart) / 1e9);

    RetiredKeys keys = retired(table, stored, retiredCount, random);
    for (int run = 1; run <= 3; run++) {
      LocatedRows plain = new KeyLocator(table).locate(base, keys);
      print("pruned scan, run " + run, plain);
    }

    long heapBefore = usedHeap();
    TableKeyIndex index =
        new TableKeyIndex(
            table.name(), 1024L * 1024 * 1024, "measure", ThreadPools.getWorkerPool());
    long buildStart = System.nanoTime();
    KeyIndex.Lookup first = index.lookup(table, base, keys);
    double buildSeconds = (System.nanoTime() - buildStart) / 1e9;
    long heapAfter = usedHeap();
    System.out.printf(
        "key index build: %.2f s for %,d key hashes; estimated %.1f MiB (%.1f bytes per key),"
            + " heap grew by %.1f MiB%n",
        buildSeconds,
        index.hashes(),
        index.bytes() / 1048576.0,
        (double) index.bytes() / index.hashes(),
        (heapAfter - heapBefore) / 1048576.0);
    LocatedRows plain = new KeyLocator(table).locate(base, keys);
    for (int run = 1; run <= 3; run++) {
      KeyIndex.Lookup lookup = run == 1 ? first : index.lookup(table, base, keys);
      LocatedRows indexed = new KeyLocator(table).locate(base, keys, lookup);
      print("key index, run " + run, indexed);
      if (!KeyIndexTest.positionsByFile(indexed).equals(KeyIndexTest.positionsByFile(plain))) {
        throw new IllegalStateException("the index found other rows than the pruned scan");
      }
    }

    List<Record> images = new ArrayList<>();
    for (StructLike key : keys) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", uuidOf(key));
      row.setField("payload", "new");
      images.add(row);
    }
    for (int cycle = 1; cycle <= 3; cycle++) {
      RetiredKeys cycleKeys = cycle == 1 ? keys : retired(table, stored, retiredCount, random);
      List<DataFile> files = cycle == 1 ? DeleteTables.write(table, images) : List.of();
      table.refresh();
      print(
          "  before commit " + cycle + ", pruned scan",
          new KeyLocator(table).locate(table.currentSnapshot(), cycleKeys));
      long commitStart = System.nanoTime();
      UpsertCommit.Outcome outcome =
          new UpsertCommit(table, 3, index)
              .commit(cycleKeys, files, "floe-m" + cycle, (d, b, w) -> {});
      table.refresh();
      System.out.printf(
          "upsert commit %d with the index: %.2f s (locate %.3f s, %d files read); index current"
              + " after it: %s, builds so far: %d%n",
          cycle,
          (System.nanoTime() - commitStart) / 1e9,
          outcome.resolution().elapsed().toNanos() / 1e9,
          outcome.resolution().filesRead(),
          index.isAt(table.currentSnapshot()),
          index.builds());
    }
    for (int few : new int[] {100, 10}) {
      table.refresh();
      RetiredKeys fewKeys = retired(table, stored, few, random);
      Snapshot current = table.currentSnapshot();
      print(few + " keys, pruned scan", new KeyLocator(table).locate(current, fewKeys));
      print(
          few + " keys, key index",
          new KeyLocator(table).locate(current, fewKeys, index.lookup(table, current, fewKeys)));
    }
    catalog.dropTable(TableIdentifier.of("db", "events"), true);
    catalog.close();
    ThreadPools.getWorkerPool().shutdown();
  }

  private static RetiredKeys retired(Table table, List<UUID> stored, int count, Random random) {
    Schema keySchema = table.schema().select("id");
    List<StructLike> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      GenericRecord key = GenericRecord.create(keySchema);
      key.setField("id", stored.get(random.nextInt(stored.size())));
      keys.add(key);
    }
    return RetiredKeys.of(table.schema(), Set.of(1), keys);
  }

  private static UUID uuidOf(StructLike key) {
    return key.get(0, UUID.class);
  }

  private static void print(String what, LocatedRows rows) {
    ResolutionStats stats = rows.stats();
    System.out.printf(
        "%s: %.3f s, %d of %d files planned, %d read, %,d rows read, %d keys found%n",
        what,
        stats.elapsed().toNanos() / 1e9,
        stats.filesPlanned(),
        stats.dataFilesInSnapshot(),
        stats.filesRead(),
        stats.rowsRead(),
        stats.keysMatched());
  }

  private static long usedHeap() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
