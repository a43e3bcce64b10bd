/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.config.FloeSinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableProviderTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "ts", Types.TimestampType.withZone()),
          optional(3, "name", Types.StringType.get()));

  @TempDir Path dir;

  private FloeSinkConfig config(Map<String, String> extra) {
    return config(dir, extra);
  }

  /**
   * A connector writing {@code db.events} through a JDBC catalog on SQLite ({@code catalog.db} in
   * {@code dir}) with its warehouse in {@code dir/warehouse}, and {@code extra}.
   */
  static FloeSinkConfig config(Path dir, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("iceberg.tables", "db.events");
    props.put("iceberg.catalog.type", "jdbc");
    props.put("iceberg.catalog.uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    props.put("iceberg.catalog.jdbc.schema-version", "V1");
    props.put("iceberg.catalog.warehouse", dir.resolve("warehouse").toString());
    return new FloeSinkConfig(props);
  }

  @Test
  void createsAMissingTableWithItsSpecAndProperties() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.table.db.events.partition-by", "day(ts), bucket(id, 4)",
                "iceberg.tables.auto-create-props.write.parquet.compression-codec", "snappy"));
    Catalog catalog = new CatalogLoader().load(config);
    Table table = new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA);
    assertThat(table.spec().fields())
        .extracting(f -> f.name())
        .containsExactly("ts_day", "id_bucket");
    assertThat(table.properties()).containsEntry("write.parquet.compression-codec", "snappy");
    assertThat(((HasTableOperations) table).operations().current().formatVersion()).isEqualTo(2);
    assertThat(table.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
  }

  @Test
  void aMissingTableWithoutAutoCreateSaysWhatToDo() {
    FloeSinkConfig config = config(Map.of());
    Catalog catalog = new CatalogLoader().load(config);
    assertThatThrownBy(() -> new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("db.events does not exist")
        .hasMessageContaining("iceberg.tables.auto-create-enabled=true");
  }

  @Test
  void aSpecNamingAColumnTheRecordsLackFailsWithTheKeyToFix() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.tables.default-partition-by", "day(created_at)"));
    Catalog catalog = new CatalogLoader().load(config);
    assertThatThrownBy(() -> new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("created_at")
        .hasMessageContaining("iceberg.tables.default-partition-by");
    assertThat(new TableProvider(catalog, config).load("db.events")).isEmpty();
  }

  @Test
  void tasksCreatingTheSameTableAtOnceConverge() throws Exception {
    FloeSinkConfig config = config(Map.of("iceberg.tables.auto-create-enabled", "true"));
    int tasks = 4;
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    try {
      List<Callable<Table>> creations = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        creations.add(
            () ->
                new TableProvider(new CatalogLoader().load(config), config)
                    .loadOrCreate("db.events", SCHEMA));
      }
      List<String> locations = new ArrayList<>();
      for (Future<Table> table : pool.invokeAll(creations)) {
        locations.add(table.get().location());
      }
      assertThat(locations).hasSize(tasks).containsOnly(locations.get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anAutoCreatedTableGetsItsConfiguredIdentifierFields() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.table.db.events.id-columns", "id"));
    Catalog catalog = new CatalogLoader().load(config);
    new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA);
    Table reloaded = new TableProvider(catalog, config).load("db.events").orElseThrow();
    assertThat(reloaded.schema().identifierFieldNames()).containsExactly("id");
    assertThat(reloaded.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
  }

  @Test
  void aTableInUpsertModeIsCreatedOnFormatVersion3WithItsKey() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.tables.upsert-mode-enabled", "true",
                "iceberg.table.db.events.id-columns", "id"));
    Catalog catalog = new CatalogLoader().load(config);
    Table table = new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA);
    assertThat(((HasTableOperations) table).operations().current().formatVersion()).isEqualTo(3);
    assertThat(table.schema().identifierFieldNames()).containsExactly("id");
  }

  @Test
  void anUpsertTableKeepsTheFormatVersionAutoCreatePropsSet() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.tables.upsert-mode-enabled", "true",
                "iceberg.table.db.events.id-columns", "id",
                "iceberg.tables.auto-create-props.format-version", "2"));
    Catalog catalog = new CatalogLoader().load(config);
    Table table = new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA);
    assertThat(((HasTableOperations) table).operations().current().formatVersion()).isEqualTo(2);
  }

  @Test
  void anOptionalIdentifierColumnCreatesNoTableAndNamesTheKey() {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.table.db.events.id-columns", "id, name"));
    Catalog catalog = new CatalogLoader().load(config);
    assertThatThrownBy(() -> new TableProvider(catalog, config).loadOrCreate("db.events", SCHEMA))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("iceberg.table.db.events.id-columns")
        .hasMessageContaining("column \"name\" cannot be one: it is optional");
    assertThat(new TableProvider(catalog, config).load("db.events")).isEmpty();
  }
}
