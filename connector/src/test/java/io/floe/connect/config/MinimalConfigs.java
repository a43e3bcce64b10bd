/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.IcebergSinkConnector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;

/** The smallest connector configs that validate, for tests to add the keys they are about. */
final class MinimalConfigs {
  private MinimalConfigs() {}

  /**
   * One topic into one table of a JDBC catalog, without {@code iceberg.kafka.bootstrap.servers}
   * (from the worker, or for the test to set); a mutable copy.
   */
  static Map<String, String> withoutBootstrapServers() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("topics", "events");
    config.put(RoutingKeys.TABLES, "db.events");
    config.put(CatalogKeys.CATALOG_TYPE, "jdbc");
    config.put("iceberg.catalog.uri", "jdbc:sqlite:/tmp/catalog.db");
    return config;
  }

  /** The connector's {@code validate} answer to {@code config}: each key's errors, by key. */
  static Map<String, List<String>> errors(Map<String, String> config) {
    return new IcebergSinkConnector()
        .validate(config).configValues().stream()
            .filter(v -> !v.errorMessages().isEmpty())
            .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
