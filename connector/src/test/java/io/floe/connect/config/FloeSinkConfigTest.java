/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class FloeSinkConfigTest {

  @Test
  void passesCatalogPropertiesWithoutThePrefix() {
    FloeSinkConfig config =
        new FloeSinkConfig(
            Map.of(
                "iceberg.tables", "db.t",
                "iceberg.catalog", "lake",
                "iceberg.catalog.type", "rest",
                "iceberg.catalog.uri", "http://rest:8181",
                "iceberg.catalog.s3.endpoint", "http://s3:9000",
                "iceberg.control.topic", "ctl"));
    assertThat(config.catalogName()).isEqualTo("lake");
    assertThat(config.catalogType()).contains(CatalogType.REST);
    assertThat(config.catalogProperties())
        .containsEntry("uri", "http://rest:8181")
        .containsEntry("s3.endpoint", "http://s3:9000")
        .containsEntry("type", "rest")
        .doesNotContainKey("iceberg.catalog.uri");
    assertThat(config.controlTopic()).isEqualTo("ctl");
  }

  @Test
  void hasSafeDefaults() {
    FloeSinkConfig config =
        new FloeSinkConfig(Map.of("iceberg.tables", "db.t", "iceberg.catalog.type", "jdbc"));
    assertThat(config.commitInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.commitTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.controlTopic()).isEqualTo("floe-control");
    assertThat(config.catalogName()).isEqualTo("iceberg");
    assertThat(config.dynamicTablesEnabled()).isFalse();
    assertThat(config.routeField()).isEmpty();
    assertThat(config.tables()).containsExactly("db.t");
    assertThat(config.writerFilePerSourcePartition())
        .as("files shared by source partitions")
        .isFalse();
  }

  @Test
  void hiveIsABundledCatalogTypeAndNessieIsNot() {
    assertThat(CatalogType.parse("hive")).isEqualTo(CatalogType.HIVE);
    assertThat(CatalogType.HIVE.icebergName()).isEqualTo("hive");
    assertThatThrownBy(() -> CatalogType.parse("nessie"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("must be one of rest, jdbc, glue, hive, hadoop");
  }

  @Test
  void everyKeyIsDocumentedAndGrouped() {
    FloeSinkConfig.CONFIG_DEF
        .configKeys()
        .values()
        .forEach(
            key -> {
              assertThat(key.documentation).as("doc of %s", key.name).isNotBlank();
              assertThat(key.group).as("group of %s", key.name).isNotBlank();
              assertThat(key.displayName).as("display name of %s", key.name).isNotBlank();
            });
  }
}
