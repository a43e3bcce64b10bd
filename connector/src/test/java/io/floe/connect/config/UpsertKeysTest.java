/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.IcebergSinkConnector;
import io.floe.connect.cdc.CdcOptions;
import io.floe.connect.cdc.ChangeFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class UpsertKeysTest {

  private static Map<String, String> twoTables() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("topics", "orders");
    config.put("iceberg.catalog.type", "rest");
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    config.put("iceberg.tables", "shop.orders,shop.audit");
    return config;
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    return MinimalConfigs.errors(config);
  }

  @Test
  void tablesAppendUnlessUpsertModeIsOn() {
    FloeSinkConfig config = new FloeSinkConfig(twoTables());
    assertThat(config.tableConfig("shop.orders").upsert()).isEmpty();
    assertThat(errors(twoTables())).isEmpty();
  }

  @Test
  void upsertModeGivesEveryTableTheChangeOptions() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.tables.cdc-format", "FLATTENED");
    props.put("iceberg.tables.cdc-field", "_cdc.op");
    props.put("iceberg.tables.cdc-unavailable-value-placeholder", "__toast");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    props.put("iceberg.table.shop.audit.id-columns", "id");
    assertThat(errors(props)).isEmpty();
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThat(config.tableConfig("shop.orders").upsert())
        .contains(new CdcOptions(ChangeFormat.FLATTENED, "_cdc.op", false, "__toast"));
  }

  @Test
  void theDefaultsAreDebeziums() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    assertThat(new FloeSinkConfig(props).tableConfig("shop.orders").upsert())
        .contains(CdcOptions.defaults());
  }

  @Test
  void aTableTurnsUpsertModeOnOrOffForItself() {
    Map<String, String> props = twoTables();
    props.put("iceberg.table.shop.orders.upsert-mode-enabled", "true");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    assertThat(errors(props)).isEmpty();
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThat(config.tableConfig("shop.orders").upsert()).isPresent();
    assertThat(config.tableConfig("shop.audit").upsert()).isEmpty();

    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.table.shop.audit.upsert-mode-enabled", "FALSE");
    assertThat(errors(props)).isEmpty();
    config = new FloeSinkConfig(props);
    assertThat(config.tableConfig("shop.orders").upsert()).isPresent();
    assertThat(config.tableConfig("shop.audit").upsert()).isEmpty();
  }

  @Test
  void aTableInUpsertModeNeedsNoIdColumnsItsKeyComesFromTheRecordKey() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    assertThat(errors(props)).isEmpty();
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThat(config.tableConfig("shop.orders").idColumns()).containsExactly("id");
    assertThat(config.tableConfig("shop.audit").idColumns()).isEmpty();
    assertThat(config.tableConfig("shop.audit").upsert()).isPresent();
  }

  @Test
  void upsertModeAndTheKafkaMetadataColumnGoTogether() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.tables.kafka-metadata-column", "_kafka");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    props.put("iceberg.table.shop.audit.id-columns", "id");
    assertThat(errors(props)).isEmpty();
  }

  @Test
  void invalidValuesAreReportedOnTheirOwnKeys() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.cdc-format", "debezium");
    props.put("iceberg.tables.cdc-field", "__deleted");
    props.put("iceberg.tables.cdc-unavailable-value-placeholder", "");
    props.put("iceberg.table.shop.orders.upsert-mode-enabled", "yes");
    assertThat(errors(props))
        .containsOnlyKeys(
            "iceberg.tables.cdc-format",
            "iceberg.tables.cdc-field",
            "iceberg.tables.cdc-unavailable-value-placeholder",
            "iceberg.table.shop.orders.upsert-mode-enabled");
    props.remove("iceberg.table.shop.orders.upsert-mode-enabled");
    assertThatThrownBy(() -> new FloeSinkConfig(props)).isInstanceOf(ConfigException.class);
  }

  @Test
  void anInvalidPerTableModeNamesItsKeyWhenParsed() {
    Map<String, String> props = twoTables();
    props.put("iceberg.table.shop.orders.upsert-mode-enabled", "yes");
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThatThrownBy(() -> config.tableConfig("shop.orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("iceberg.table.shop.orders.upsert-mode-enabled: ");
  }

  @Test
  void aKeyIndexIsOffUnlessTurnedOnAndOnlyForTablesInUpsertMode() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    props.put("iceberg.table.shop.audit.id-columns", "id");
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThat(config.upsertKeyIndexEnabled("shop.orders")).isFalse();
    assertThat(config.upsertKeyIndexMaxBytes()).isEqualTo(256L * 1024 * 1024);

    props.put("iceberg.tables.upsert-key-index-enabled", "true");
    props.put("iceberg.table.shop.audit.upsert-key-index-enabled", "false");
    props.put("iceberg.tables.upsert-key-index-max-memory-mb", "64");
    assertThat(errors(props)).isEmpty();
    config = new FloeSinkConfig(props);
    assertThat(config.upsertKeyIndexEnabled("shop.orders")).isTrue();
    assertThat(config.upsertKeyIndexEnabled("shop.audit")).isFalse();
    assertThat(config.upsertKeyIndexMaxBytes()).isEqualTo(64L * 1024 * 1024);

    props.put("iceberg.table.shop.orders.upsert-mode-enabled", "false");
    assertThat(new FloeSinkConfig(props).upsertKeyIndexEnabled("shop.orders")).isFalse();
  }

  @Test
  void aTableTurnsItsKeyIndexOnForItself() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    props.put("iceberg.table.shop.orders.id-columns", "id");
    props.put("iceberg.table.shop.audit.id-columns", "id");
    props.put("iceberg.table.shop.orders.upsert-key-index-enabled", "TRUE");
    assertThat(errors(props)).isEmpty();
    FloeSinkConfig config = new FloeSinkConfig(props);
    assertThat(config.upsertKeyIndexEnabled("shop.orders")).isTrue();
    assertThat(config.upsertKeyIndexEnabled("shop.audit")).isFalse();
  }

  @Test
  void keyIndexSettingsSayWhatToFix() {
    Map<String, String> props = twoTables();
    props.put("iceberg.tables.upsert-key-index-max-memory-mb", "0");
    props.put("iceberg.table.shop.orders.upsert-key-index-enabled", "on");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors)
        .containsOnlyKeys(
            "iceberg.tables.upsert-key-index-max-memory-mb",
            "iceberg.table.shop.orders.upsert-key-index-enabled");
    assertThat(errors.get("iceberg.tables.upsert-key-index-max-memory-mb").get(0))
        .contains("at least 1")
        .contains("iceberg.tables.upsert-key-index-enabled=false");
    assertThat(errors.get("iceberg.table.shop.orders.upsert-key-index-enabled").get(0))
        .contains("'on' is neither true nor false");
  }
}
