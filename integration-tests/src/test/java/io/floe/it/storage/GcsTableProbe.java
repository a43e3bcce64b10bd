/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.storage;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Runs inside a class loader of the plugin's and the GCS add-on's jars alone (with the fake's jar
 * and slf4j's API, as a Connect worker gives a plugin): a JDBC catalog on SQLite whose FileIO is
 * Iceberg's GCSFileIO on Google's in-process fake of Cloud Storage ({@code LocalStorageHelper})
 * creates a table at {@code gs://} locations, a data file is written through Floe's {@link
 * NewFilesOnly} and committed, and the rows are read back. Its answer names what it found, one
 * {@code key=value} a line, for the test to assert in its own class loader.
 */
public final class GcsTableProbe implements Function<String, String> {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), optional(2, "name", Types.StringType.get()));

  /** {@code catalogDatabase}: the SQLite file of the catalog. */
  @Override
  public String apply(String catalogDatabase) {
    // as in a Connect worker, the JDBC driver is the plugin's: registered by its own class loader
    loadSqliteDriver();
    Storage storage = LocalStorageHelper.getOptions().getService();
    JdbcCatalog catalog =
        new JdbcCatalog(
            properties -> {
              GCSFileIO io = new GCSFileIO(() -> storage);
              io.initialize(properties);
              return io;
            },
            null,
            true);
    catalog.initialize(
        "gcs",
        Map.of(
            "uri", "jdbc:sqlite:" + catalogDatabase,
            "jdbc.schema-version", "V1",
            "warehouse", "gs://floe-lake/warehouse"));
    TableIdentifier id = TableIdentifier.of(Namespace.of("iot"), "readings");
    catalog.createNamespace(id.namespace());
    Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());

    FileIO io = NewFilesOnly.of(table.io());
    String location = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
    table.newAppend().appendFile(write(io.newOutputFile(location), 3)).commit();
    String refused;
    try {
      write(io.newOutputFile(location), 1);
      refused = "none";
    } catch (AlreadyExistsException e) {
      refused = e.getClass().getSimpleName();
    }

    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(catalog.loadTable(id)).build()) {
      rows.forEach(row -> ids.add((Long) row.getField("id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return String.join(
        "\n",
        "table=" + catalog.loadTable(id).location(),
        "data=" + location,
        "stored="
            + storage.get("floe-lake", location.substring("gs://floe-lake/".length())).getSize(),
        "ids=" + ids,
        "overwrite=" + refused,
        "fileio=" + GCSFileIO.class.getProtectionDomain().getCodeSource().getLocation(),
        "storage=" + Storage.class.getProtectionDomain().getCodeSource().getLocation(),
        "guava="
            + com.google.common.base.Preconditions.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation());
  }

  private static void loadSqliteDriver() {
    try {
      Class.forName("org.sqlite.JDBC");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("The plugin's lib/ has no SQLite driver", e);
    }
  }

  private static DataFile write(OutputFile out, int rows) {
    try {
      DataWriter<Record> writer =
          Parquet.writeData(out)
              .schema(SCHEMA)
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(PartitionSpec.unpartitioned())
              .build();
      try (writer) {
        for (long i = 0; i < rows; i++) {
          GenericRecord record = GenericRecord.create(SCHEMA);
          record.setField("id", i);
          record.setField("name", "reading-" + i);
          writer.write(record);
        }
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
