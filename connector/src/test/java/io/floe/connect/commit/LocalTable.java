/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;

/**
 * A table {@code db.events (id long, <text column> string)} in a catalog on the local disk, with
 * its data files in a folder of their own: the "object store" a test can take down by replacing the
 * folder with a plain file.
 */
final class LocalTable {
  final HadoopCatalog catalog;
  final Table table;
  private final Path dataFolder;

  LocalTable(Path dir, String name, String textColumn) throws IOException {
    catalog = new HadoopCatalog(new Configuration(), dir.resolve("wh").toString());
    catalog.createNamespace(Namespace.of("db"));
    dataFolder = Files.createDirectory(dir.resolve("data"));
    table =
        catalog.createTable(
            TableIdentifier.parse(name),
            new org.apache.iceberg.Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, textColumn, Types.StringType.get())),
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION,
                "2",
                TableProperties.WRITE_DATA_LOCATION,
                dataFolder.resolve("files").toString()));
  }

  /** The object store stops accepting files: the data folder is a plain file. */
  void storeDown() throws IOException {
    Files.delete(dataFolder);
    Files.createFile(dataFolder);
  }

  void storeBack() throws IOException {
    Files.delete(dataFolder);
    Files.createDirectory(dataFolder);
  }
}
