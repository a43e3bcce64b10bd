/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.IcebergSinkConnector;
import java.util.HashMap;
import java.util.Map;

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
}
