/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.stack.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.iceberg.catalog.Catalog;

/**
 * The connector of the exactly-once tests: JSON {@link OrderEvents} routed by their {@code kind} to
 * the tables {@code db.<name>_a} and {@code db.<name>_b}, with the Kafka metadata column the {@link
 * TableOracle} reads.
 */
final class TwoTableConnector {
  private TwoTableConnector() {}

  /** The configuration; the tests add what they vary. */
  static Map<String, String> config(
      String name,
      String topic,
      int tasks,
      Map<String, String> catalogProperties,
      String bootstrapServers,
      long intervalMs) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.floe.connect.IcebergSinkConnector");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables", "db." + name + "_a,db." + name + "_b");
    config.put("iceberg.tables.route-field", "kind");
    config.put("iceberg.table.db." + name + "_a.route-regex", "a");
    config.put("iceberg.table.db." + name + "_b.route-regex", "b");
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.kafka-metadata-column", "_kafka");
    catalogProperties.forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.kafka.bootstrap.servers", bootstrapServers);
    config.put("iceberg.control.commit.interval-ms", Long.toString(intervalMs));
    config.put("iceberg.control.commit.timeout-ms", "1500");
    return config;
  }

  /** The oracle of both tables of connector {@code name}. */
  static TableOracle oracle(Catalog catalog, String name) {
    return new TableOracle(catalog, List.of("db." + name + "_a", "db." + name + "_b"));
  }

  /** Waits until {@code actual} reaches {@code expected}, then asserts it is exactly that. */
  static void await(String what, LongSupplier actual, long expected, Duration timeout)
      throws InterruptedException {
    long last = Await.untilAtLeast(what, timeout, actual::getAsLong, expected);
    assertThat(last).as(what).isEqualTo(expected);
  }
}
