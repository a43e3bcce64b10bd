/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeWrapper;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real Iceberg tables in memory for the delete tests, a JUnit extension giving each test its own
 * catalog: a table keyed by {@code id}, rows written as data files (one per partition) and
 * appended, the table read back with its deletes applied, and its live delete files listed.
 */
final class DeleteTables implements BeforeEachCallback, AfterEachCallback {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.required(2, "region", Types.StringType.get()),
              Types.NestedField.optional(3, "name", Types.StringType.get()),
              Types.NestedField.optional(4, "ts", Types.TimestampType.withZone())),
          Set.of(1));

  /** The partition specs every behaviour is checked with. */
  static final List<String> SPECS = List.of("unpartitioned", "region", "bucket", "day");

  private static final Namespace NAMESPACE = Namespace.of("db");
  private static final long DAY_MS = 86_400_000L;

  private JdbcCatalog catalog;
  private Path dir;
  private final Map<String, TableIdentifier> identifiers = new HashMap<>();

  /**
   * Before each test, a JDBC catalog on SQLite in a new directory, its tables' files in memory
   * through {@link RecordingFileIO} (Iceberg's in-memory catalog cannot be given another FileIO).
   */
  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("floe-deletes");
    catalog = new JdbcCatalog();
    catalog.initialize(
        "floe",
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + dir.resolve("catalog.db"),
            "jdbc.schema-version",
            "V1",
            CatalogProperties.WAREHOUSE_LOCATION,
            "mem://" + UUID.randomUUID(),
            CatalogProperties.FILE_IO_IMPL,
            RecordingFileIO.class.getName()));
    catalog.createNamespace(NAMESPACE);
  }

  /** After each test, drops its tables with their files, and the catalog. */
  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    for (TableIdentifier table : catalog.listTables(NAMESPACE)) {
      catalog.dropTable(table, true);
    }
    catalog.close();
    identifiers.clear();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  static PartitionSpec spec(Schema schema, String name) {
    return switch (name) {
      case "unpartitioned" -> PartitionSpec.unpartitioned();
      case "region" -> PartitionSpec.builderFor(schema).identity("region").build();
      case "bucket" -> PartitionSpec.builderFor(schema).bucket("id", 4).build();
      case "day" -> PartitionSpec.builderFor(schema).day("ts").build();
      default -> throw new IllegalArgumentException(name);
    };
  }

  Table create(String spec, int formatVersion) {
    return create(SCHEMA, spec(SCHEMA, spec), formatVersion, Map.of());
  }

  Table create(Schema schema, PartitionSpec spec, int formatVersion, Map<String, String> props) {
    Map<String, String> properties = new HashMap<>(props);
    properties.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
    TableIdentifier id =
        TableIdentifier.of(NAMESPACE, "t" + UUID.randomUUID().toString().replace("-", ""));
    Table table = catalog.createTable(id, schema, spec, properties);
    identifiers.put(table.name(), id);
    return table;
  }

  /** The table as another writer sees it: loaded afresh from the catalog. */
  Table load(Table table) {
    return catalog.loadTable(identifiers.get(table.name()));
  }

  /** A row of {@link #SCHEMA}: its region is "eu" for odd ids, "us" for even, on day id % 3. */
  static Record row(long id, String name) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("region", id % 2 == 1 ? "eu" : "us");
    row.setField("name", name);
    row.setField(
        "ts", OffsetDateTime.ofInstant(Instant.ofEpochMilli((id % 3) * DAY_MS), ZoneOffset.UTC));
    return row;
  }

  static List<Record> rows(long fromId, long toId, String name) {
    List<Record> rows = new ArrayList<>();
    for (long id = fromId; id <= toId; id++) {
      rows.add(row(id, name));
    }
    return rows;
  }

  /** The rows by partition of the table's current spec, partitions in order of first row. */
  static Map<StructLike, List<Record>> byPartition(Table table, List<Record> rows) {
    PartitionSpec spec = table.spec();
    InternalRecordWrapper internal = new InternalRecordWrapper(table.schema().asStruct());
    PartitionKey key = new PartitionKey(spec, table.schema());
    Map<StructLikeWrapper, List<Record>> groups = new LinkedHashMap<>();
    for (Record row : rows) {
      key.partition(internal.wrap(row));
      StructLikeWrapper partition = StructLikeWrapper.forType(spec.partitionType()).set(key.copy());
      groups.computeIfAbsent(partition, p -> new ArrayList<>()).add(row);
    }
    Map<StructLike, List<Record>> byPartition = new LinkedHashMap<>();
    groups.forEach((partition, group) -> byPartition.put(partition.get(), group));
    return byPartition;
  }

  /** The ids of the rows, grouped as {@link #write} groups them into files, in the same order. */
  static List<List<Long>> idsByFile(Table table, List<Record> rows) {
    return byPartition(table, rows).values().stream()
        .map(group -> group.stream().map(row -> (Long) row.getField("id")).toList())
        .toList();
  }

  /** Writes the rows as data files of the table's current spec, one per partition, in order. */
  static List<DataFile> write(Table table, List<Record> rows) {
    PartitionSpec spec = table.spec();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataSchema(table.schema()).build();
    List<DataFile> written = new ArrayList<>();
    byPartition(table, rows)
        .forEach(
            (key, partitionRows) -> {
              StructLike partition = spec.isUnpartitioned() ? null : key;
              DataWriter<Record> writer =
                  writers.newDataWriter(
                      partition == null
                          ? files.newOutputFile()
                          : files.newOutputFile(spec, partition),
                      spec,
                      partition);
              try (writer) {
                partitionRows.forEach(writer::write);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              written.add(writer.toDataFile());
            });
    return written;
  }

  /** Writes the rows as data files and appends them in one commit. */
  static List<DataFile> append(Table table, List<Record> rows) {
    List<DataFile> files = write(table, rows);
    AppendFiles append = table.newAppend();
    files.forEach(append::appendFile);
    append.commit();
    return files;
  }

  /** The table's current data files, each as one scan task; the table refreshed first. */
  static List<FileScanTask> tasks(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
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

  static List<Long> ids(Table table) {
    return read(table).stream().map(row -> (Long) row.getField("id")).sorted().toList();
  }

  /** The keys {@code ids} of a table keyed by {@code id}. */
  static RetiredKeys keys(Table table, long... ids) {
    Schema keySchema = table.schema().select("id");
    List<StructLike> keys = new ArrayList<>();
    Arrays.stream(ids)
        .forEach(
            id -> {
              GenericRecord key = GenericRecord.create(keySchema);
              key.setField("id", id);
              keys.add(key);
            });
    return RetiredKeys.of(table.schema(), Set.of(1), keys);
  }

  /** Whether the file at {@code location} exists in the table's storage (in memory). */
  static boolean exists(Table table, String location) {
    return ((InMemoryFileIO) table.io()).fileExists(location);
  }
}
