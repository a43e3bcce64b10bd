/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.config.FloeSinkConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NamespacesTest {
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "events");

  @TempDir Path dir;

  /** A JDBC catalog on SQLite ({@code catalog.db} in {@code dir}), its warehouse a local folder. */
  private static class LocalCatalog extends JdbcCatalog {
    final Path warehouse;

    LocalCatalog(Path dir) {
      this.warehouse = dir.resolve("warehouse");
      setConf(new Configuration());
      initialize(
          "hive",
          Map.of(
              CatalogProperties.URI,
              "jdbc:sqlite:" + dir.resolve("catalog.db"),
              CatalogProperties.WAREHOUSE_LOCATION,
              warehouse.toString(),
              "jdbc.schema-version",
              "V1"));
    }
  }

  /**
   * What two creations of one database overlapping do to a Hive Metastore 2.3 ({@code
   * HiveMetaStore.create_database_core}): each finds the database missing and its folder absent,
   * makes the folder, and inserts the database; the insert that comes second fails on the unique
   * key, and its rollback deletes the folder it "made", recursively. Here the rollback lands once
   * the winner's table is registered, the order met on a real metastore.
   */
  private static final class HiveLikeCatalog extends LocalCatalog {
    private final CountDownLatch checkedFolder;

    HiveLikeCatalog(Path dir, CountDownLatch checkedFolder) {
      super(dir);
      this.checkedFolder = checkedFolder;
    }

    @Override
    public void createNamespace(Namespace namespace, Map<String, String> metadata) {
      if (namespaceExists(namespace)) {
        throw new AlreadyExistsException("Database already exists: %s", namespace);
      }
      Path folder = warehouse.resolve(namespace.level(0));
      boolean madeDir = !Files.isDirectory(folder);
      checkedFolder.countDown();
      await(() -> checkedFolder.getCount() == 0, 500);
      try {
        Files.createDirectories(folder);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      boolean committed = false;
      try {
        synchronized (HiveLikeCatalog.class) {
          super.createNamespace(namespace, metadata);
        }
        committed = true;
      } finally {
        if (!committed && madeDir) {
          await(() -> !listTables(namespace).isEmpty(), 5_000);
          deleteRecursively(folder);
        }
      }
    }
  }

  /**
   * A catalog on which another worker's creation of the namespace, started when this one's, fails
   * once this task's table is registered and deletes the namespace's folder, before the table is
   * read again: no lock of this worker keeps the two apart.
   */
  private static final class FolderDeletedByAnotherWorker extends LocalCatalog {
    private boolean deleted;

    FolderDeletedByAnotherWorker(Path dir) {
      super(dir);
    }

    @Override
    public Table loadTable(TableIdentifier id) {
      if (!deleted && namespaceExists(id.namespace()) && listTables(id.namespace()).contains(id)) {
        deleted = true;
        deleteRecursively(warehouse.resolve(id.namespace().level(0)));
      }
      return super.loadTable(id);
    }
  }

  private FloeSinkConfig config() {
    return TableProviderTest.config(dir, Map.of("iceberg.tables.auto-create-enabled", "true"));
  }

  @Test
  void twoTasksCreatingATableInAMissingNamespaceOnAHiveLikeCatalogKeepItsMetadata()
      throws Exception {
    FloeSinkConfig config = config();
    CountDownLatch checkedFolder = new CountDownLatch(2);
    List<HiveLikeCatalog> catalogs =
        List.of(new HiveLikeCatalog(dir, checkedFolder), new HiveLikeCatalog(dir, checkedFolder));
    ExecutorService tasks = Executors.newFixedThreadPool(catalogs.size());
    try {
      List<Future<Table>> created = new ArrayList<>();
      for (HiveLikeCatalog catalog : catalogs) {
        created.add(
            tasks.submit(
                () -> new TableProvider(catalog, config).loadOrCreate(TABLE.toString(), SCHEMA)));
      }
      for (Future<Table> table : created) {
        assertThat(table.get(30, TimeUnit.SECONDS).schema().asStruct())
            .isEqualTo(SCHEMA.asStruct());
      }
      Table table = catalogs.get(0).loadTable(TABLE);
      String metadata = ((HasTableOperations) table).operations().current().metadataFileLocation();
      assertThat(Path.of(metadata.replaceFirst("^file:", ""))).exists();
    } finally {
      tasks.shutdownNow();
      for (HiveLikeCatalog catalog : catalogs) {
        catalog.close();
      }
    }
  }

  @Test
  void aTableWhoseNamespaceFolderAnotherWorkerDeletedIsCreatedAgain() throws IOException {
    try (FolderDeletedByAnotherWorker catalog = new FolderDeletedByAnotherWorker(dir)) {
      new TableProvider(catalog, config()).loadOrCreate(TABLE.toString(), SCHEMA);

      Table table = catalog.loadTable(TABLE);
      assertThat(catalog.deleted).isTrue();
      assertThat(table.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
      String metadata = ((HasTableOperations) table).operations().current().metadataFileLocation();
      assertThat(Path.of(metadata.replaceFirst("^file:", ""))).exists();
    }
  }

  @Test
  void aNamespaceCreatedBetweenTheCheckAndTheCreateIsCreated() throws IOException {
    try (JdbcCatalog catalog =
        new LocalCatalog(dir) {
          @Override
          public void createNamespace(Namespace namespace, Map<String, String> metadata) {
            super.createNamespace(namespace, metadata); // another task, just before this one
            super.createNamespace(namespace, metadata);
          }
        }) {
      Namespaces.createMissing(catalog, Namespace.of("db"));

      assertThat(catalog.namespaceExists(Namespace.of("db"))).isTrue();
    }
  }

  @Test
  void theConnectorCreatesTheNamespacesOfItsListedTables() throws IOException {
    Namespaces.createListed(config());

    try (JdbcCatalog catalog = (JdbcCatalog) new CatalogLoader().load(config())) {
      assertThat(catalog.namespaceExists(Namespace.of("db"))).isTrue();
    }
  }

  private static void await(java.util.function.BooleanSupplier condition, long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void deleteRecursively(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
