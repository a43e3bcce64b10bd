/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Iceberg {@code JdbcCatalog} properties on a SQLite file. There is no server: the catalog is the
 * file, so a connector in another JVM and a test can share it (SQLite locks the file for each
 * commit).
 */
public final class SqliteCatalogs {
  private SqliteCatalogs() {}

  /**
   * A SQLite catalog and a local warehouse in a fresh service folder {@code
   * target/it-work/sqlite-catalog-<n>}: {@code catalog.db} and {@code warehouse/}.
   */
  public static Map<String, String> inNewServiceDir() {
    Path dir = StackDirs.newServiceDir("sqlite-catalog");
    Path warehouse = dir.resolve("warehouse");
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + warehouse, e);
    }
    return properties(dir.resolve("catalog.db"), warehouse.toString());
  }

  /**
   * Catalog properties for the SQLite file {@code database} (created on first use) and {@code
   * warehouse} (a local path, or e.g. {@code s3://bucket/prefix} together with {@link
   * S3ProxyServer#s3FileIoProperties()}):
   *
   * <ul>
   *   <li>{@code type=jdbc}
   *   <li>{@code uri=jdbc:sqlite:<absolute path>}
   *   <li>{@code jdbc.schema-version=V1}: the current table layout, which also records views
   *   <li>{@code warehouse}
   * </ul>
   *
   * Without {@code io-impl} the JDBC catalog uses {@code HadoopFileIO}, which handles local paths.
   */
  public static Map<String, String> properties(Path database, String warehouse) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("type", "jdbc");
    props.put("uri", "jdbc:sqlite:" + database.toAbsolutePath());
    props.put("jdbc.schema-version", "V1");
    props.put("warehouse", warehouse);
    return props;
  }
}
