/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.IcebergSinkConnector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigValidationTest {

  private static Map<String, String> valid() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("topics", "events");
    config.put(FloeSinkConfig.TABLES, "db.events");
    config.put(FloeSinkConfig.CATALOG_TYPE, "jdbc");
    config.put("iceberg.catalog.uri", "jdbc:sqlite:/tmp/catalog.db");
    return config;
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    Config result = new IcebergSinkConnector().validate(config);
    return result.configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void acceptsAMinimalStaticConfig() {
    assertThat(errors(valid())).isEmpty();
  }

  @Test
  void requiresATableListOrDynamicRouting() {
    Map<String, String> config = valid();
    config.remove(FloeSinkConfig.TABLES);
    assertThat(errors(config))
        .containsOnlyKeys(FloeSinkConfig.TABLES)
        .extractingByKey(FloeSinkConfig.TABLES, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("No table to write to");
  }

  @Test
  void rejectsStaticAndDynamicRoutingTogetherOnTheDynamicKey() {
    Map<String, String> config = valid();
    config.put(FloeSinkConfig.TABLES_DYNAMIC_ENABLED, "true");
    config.put(FloeSinkConfig.TABLES_ROUTE_FIELD, "table");
    assertThat(errors(config)).containsOnlyKeys(FloeSinkConfig.TABLES_DYNAMIC_ENABLED);
  }

  @Test
  void dynamicRoutingNeedsARouteField() {
    Map<String, String> config = valid();
    config.remove(FloeSinkConfig.TABLES);
    config.put(FloeSinkConfig.TABLES_DYNAMIC_ENABLED, "true");
    assertThat(errors(config))
        .containsOnlyKeys(FloeSinkConfig.TABLES_ROUTE_FIELD)
        .extractingByKey(
            FloeSinkConfig.TABLES_ROUTE_FIELD, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("set iceberg.tables.route-field");
  }

  @Test
  void requiresACatalogTypeOrImplementation() {
    Map<String, String> config = valid();
    config.remove(FloeSinkConfig.CATALOG_TYPE);
    assertThat(errors(config)).containsOnlyKeys(FloeSinkConfig.CATALOG_TYPE);

    config.put(FloeSinkConfig.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
    assertThat(errors(config)).isEmpty();

    config.put(FloeSinkConfig.CATALOG_TYPE, "rest");
    assertThat(errors(config)).containsOnlyKeys(FloeSinkConfig.CATALOG_IMPL);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jbdc", "nessie", "", "hive"})
  void rejectsUnknownCatalogTypes(String type) {
    Map<String, String> config = valid();
    config.put(FloeSinkConfig.CATALOG_TYPE, type);
    assertThat(errors(config)).containsOnlyKeys(FloeSinkConfig.CATALOG_TYPE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"REST", "Jdbc", " glue ", "hadoop"})
  void catalogTypesAreCaseInsensitive(String type) {
    Map<String, String> config = valid();
    config.put(FloeSinkConfig.CATALOG_TYPE, type);
    assertThat(errors(config)).isEmpty();
  }

  @Test
  void commitTimeoutMustBeShorterThanTheInterval() {
    Map<String, String> config = valid();
    config.put(FloeSinkConfig.COMMIT_INTERVAL_MS, "10000");
    config.put(FloeSinkConfig.COMMIT_TIMEOUT_MS, "10000");
    assertThat(errors(config))
        .containsOnlyKeys(FloeSinkConfig.COMMIT_TIMEOUT_MS)
        .extractingByKey(
            FloeSinkConfig.COMMIT_TIMEOUT_MS, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("10000 ms");

    config.put(FloeSinkConfig.COMMIT_TIMEOUT_MS, "9999");
    assertThat(errors(config)).isEmpty();
  }

  @Test
  void aKeyThatFailsItsOwnValidationGetsNoCrossFieldNoise() {
    Map<String, String> config = valid();
    config.put(FloeSinkConfig.COMMIT_INTERVAL_MS, "soon");
    assertThat(errors(config))
        .containsOnlyKeys(FloeSinkConfig.COMMIT_INTERVAL_MS)
        .extractingByKey(
            FloeSinkConfig.COMMIT_INTERVAL_MS, InstanceOfAssertFactories.list(String.class))
        .hasSize(1);
  }
}
