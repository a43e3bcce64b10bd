/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.deletes.RetiredKeys;
import io.floe.connect.deletes.UpsertCommit;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SparkReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upsert mode's commit engine writes deletes that an independent engine applies: two cycles of
 * retired keys and new images on a partitioned table, committed by {@link UpsertCommit}, then read
 * by Apache Spark 4.1 with Iceberg's Spark runtime. On format v3 the deletes are deletion vectors
 * (the second cycle merges a file's vector with its first one), on v2 position delete files; never
 * equality deletes. Spark sees exactly the rows Iceberg's generic reader sees, and those are the
 * expected ones: one row per live key with its last image.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkReadsRetiredKeysIT {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "name", Types.StringType.get()),
              Types.NestedField.required(3, "part", Types.IntegerType.get())),
          Set.of(1));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("part").build();
  private static final int ROWS = 100;
  private static final int PARTS = 4;

  @RegisterExtension final Services services = Services.closedAfterAll();

  private RestCatalogServer rest;
  private Catalog catalog;

  @BeforeAll
  void startStack() {
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void sparkSeesOneRowPerLiveKeyWithItsLastImage(int formatVersion) {
    TableIdentifier id = TableIdentifier.of("db", "upserts_v" + formatVersion);
    Table table =
        catalog.createTable(
            id, SCHEMA, SPEC, Map.of("format-version", Integer.toString(formatVersion)));
    Map<Long, String> expected = new TreeMap<>();
    List<Record> original = new ArrayList<>();
    for (long key = 0; key < ROWS; key++) {
      original.add(row(key, "original"));
      expected.put(key, "original");
    }
    var append = table.newAppend();
    writeFiles(table, original).forEach(append::appendFile);
    append.commit();

    // cycle 1: keys 1 and 3 deleted, 2 and 50 upserted
    cycle(table, List.of(1L, 3L), List.of(row(2, "first"), row(50, "first")), expected);
    // cycle 2: key 2 upserted again (its row of cycle 1 goes), 60 deleted and 61 upserted in files
    // that already have deletes from cycle 1, 1 deleted again (nothing left to delete)
    cycle(table, List.of(60L, 1L), List.of(row(2, "second"), row(61, "second")), expected);

    table.refresh();
    Map<Long, String> generic = new TreeMap<>();
    List<String> rendered = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      for (Record row : rows) {
        assertThat(generic.put((Long) row.getField("id"), (String) row.getField("name")))
            .as("a second row for key %s", row.getField("id"))
            .isNull();
        rendered.add(SparkReader.render(row, table.schema()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(generic).isEqualTo(expected);

    String name = "db." + id.name();
    SparkReader.View spark = SparkReader.read(rest, List.of(name)).get(name);
    assertThat(spark.readError()).as("Spark's read error").isNull();
    assertThat(spark.rows()).containsExactlyInAnyOrderElementsOf(rendered);

    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> deletes.addAll(task.deletes()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(deletes).as("live delete files").isNotEmpty();
    for (DeleteFile delete : deletes) {
      assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
      assertThat(delete.format())
          .isEqualTo(formatVersion >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
    }
  }

  /** One cycle: retires the deleted and the upserted keys, adds the new images, in one commit. */
  private void cycle(
      Table table, List<Long> deleted, List<Record> images, Map<Long, String> state) {
    Schema keySchema = table.schema().select("id");
    List<GenericRecord> keys = new ArrayList<>();
    for (long key : deleted) {
      keys.add(key(keySchema, key));
      state.remove(key);
    }
    for (Record image : images) {
      keys.add(key(keySchema, (Long) image.getField("id")));
      state.put((Long) image.getField("id"), (String) image.getField("name"));
    }
    new UpsertCommit(table, 3)
        .commit(
            RetiredKeys.of(table.schema(), Set.of(1), keys),
            writeFiles(table, images),
            "floe-it-" + UUID.randomUUID(),
            (delta, base, deletes) -> delta.set("floe.test-cycle", "yes"));
  }

  private static GenericRecord key(Schema keySchema, long value) {
    GenericRecord key = GenericRecord.create(keySchema);
    key.setField("id", value);
    return key;
  }

  private static Record row(long key, String name) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", key);
    row.setField("name", name);
    row.setField("part", (int) (key % PARTS));
    return row;
  }

  /** One data file per partition of the rows. */
  private static List<DataFile> writeFiles(Table table, List<Record> rows) {
    Map<Integer, List<Record>> byPart = new TreeMap<>();
    rows.forEach(
        row ->
            byPart
                .computeIfAbsent((Integer) row.getField("part"), p -> new ArrayList<>())
                .add(row));
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataSchema(table.schema()).build();
    List<DataFile> files = new ArrayList<>();
    for (List<Record> partRows : byPart.values()) {
      PartitionKey partition = new PartitionKey(table.spec(), table.schema());
      partition.partition(partRows.get(0));
      DataWriter<Record> writer =
          writers.newDataWriter(
              outputs.newOutputFile(table.spec(), partition), table.spec(), partition);
      try (writer) {
        partRows.forEach(writer::write);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      files.add(writer.toDataFile());
    }
    return files;
  }
}
