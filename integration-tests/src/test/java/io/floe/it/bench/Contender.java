/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import io.floe.it.stack.ApacheSinkPlugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sink the benchmark runs, and its connector configuration. Floe and the Apache Iceberg sink get
 * the same catalog, commit interval, commit timeout and converter; they differ only where their
 * keys do.
 */
enum Contender {
  FLOE("Floe", "io.floe.connect.IcebergSinkConnector"),
  APACHE("Apache Iceberg sink 1.12.0", ApacheSinkPlugin.CONNECTOR_CLASS),
  NOOP("no-op sink (ceiling)", NoopSinkConnector.class.getName());

  static final long COMMIT_INTERVAL_MS = 10_000;
  static final long COMMIT_TIMEOUT_MS = 5_000;

  private final String title;
  private final String connectorClass;

  Contender(String title, String connectorClass) {
    this.title = title;
    this.connectorClass = connectorClass;
  }

  String title() {
    return title;
  }

  boolean writesTables() {
    return this != NOOP;
  }

  /** What a run of this contender is given besides its encoding and tables. */
  record Setup(
      String topic,
      int tasks,
      Map<String, String> converter,
      Map<String, String> catalog,
      String bootstrapServers,
      String controlTopic) {}

  /**
   * The connector configuration writing {@code tables}; with several tables, records are routed by
   * their {@code country} to the table whose name ends in it.
   */
  Map<String, String> config(Setup setup, List<String> tables) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", connectorClass);
    config.put("tasks.max", Integer.toString(setup.tasks()));
    config.put("topics", setup.topic());
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.putAll(setup.converter());
    if (this == NOOP) {
      return config;
    }
    config.put("iceberg.tables", String.join(",", tables));
    config.put("iceberg.tables.auto-create-enabled", "true");
    if (tables.size() > 1) {
      config.put("iceberg.tables.route-field", "country");
      for (String table : tables) {
        config.put(
            "iceberg.table." + table + ".route-regex",
            table.substring(table.lastIndexOf('_') + 1).toUpperCase(java.util.Locale.ROOT));
      }
    }
    setup.catalog().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.control.topic", setup.controlTopic());
    config.put("iceberg.control.commit.interval-ms", Long.toString(COMMIT_INTERVAL_MS));
    config.put("iceberg.control.commit.timeout-ms", Long.toString(COMMIT_TIMEOUT_MS));
    if (this == FLOE) {
      config.put("iceberg.kafka.bootstrap.servers", setup.bootstrapServers());
    }
    return config;
  }
}
