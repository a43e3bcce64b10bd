/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Tables for the writer tests, and reading them back: in memory (Iceberg's in-memory catalog and
 * FileIO), or on the local file system where a test looks at the files themselves.
 */
final class WriteTestTables implements AutoCloseable {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.IntegerType.get()),
          Types.NestedField.optional(3, "name", Types.StringType.get()),
          Types.NestedField.optional(4, "ts", Types.TimestampType.withZone()));

  private static final Namespace NAMESPACE = Namespace.of("test");

  private final Path root;
  private final InMemoryCatalog catalog;

  private WriteTestTables(Path root, InMemoryCatalog catalog) {
    this.root = root;
    this.catalog = catalog;
  }

  static WriteTestTables inMemory() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("mem", Map.of("warehouse", "mem://" + UUID.randomUUID()));
    catalog.createNamespace(NAMESPACE);
    return new WriteTestTables(null, catalog);
  }

  static WriteTestTables onDisk(Path root) {
    return new WriteTestTables(root, null);
  }

  Table create(String name, PartitionSpec spec, Map<String, String> properties) {
    if (catalog != null) {
      return catalog.createTable(TableIdentifier.of(NAMESPACE, name), SCHEMA, spec, properties);
    }
    return new HadoopTables(new Configuration())
        .create(SCHEMA, spec, properties, root.resolve(name).toString());
  }

  /** Drops the in-memory tables with their files. */
  @Override
  public void close() throws IOException {
    if (catalog != null) {
      for (TableIdentifier table : catalog.listTables(NAMESPACE)) {
        catalog.dropTable(table, true);
      }
      catalog.close();
    }
  }

  Table create(String name, PartitionSpec spec) {
    return create(name, spec, Map.of());
  }

  /** The identifier the pool knows a test table by: the last part of its location. */
  static TableIdentifier id(Table table) {
    String location = table.location();
    return TableIdentifier.of(NAMESPACE, location.substring(location.lastIndexOf('/') + 1));
  }

  static Record row(long id, int category, String name, long epochMillis) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("category", category);
    row.setField("name", name);
    row.setField("ts", OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC));
    return row;
  }

  /** Commits the files in one append, as the commit step will, and reads the table back. */
  static List<Record> commitAndRead(Table table, List<DataFile> files) {
    AppendFiles append = table.newAppend();
    files.forEach(append::appendFile);
    append.commit();
    return read(table);
  }

  static List<Record> read(Table table) {
    table.refresh();
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> scan = IcebergGenerics.read(table).build()) {
      scan.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  static List<Long> ids(List<Record> rows) {
    return rows.stream().map(row -> (Long) row.getField("id")).sorted().toList();
  }
}
