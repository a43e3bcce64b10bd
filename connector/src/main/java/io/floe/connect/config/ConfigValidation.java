/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Rules that span several keys. Each error is attached to the key the user has to change, so the
 * Connect REST {@code /config/validate} answer points at the right field.
 */
public final class ConfigValidation {

  private ConfigValidation() {}

  /**
   * Adds cross-field errors to {@code config}, the result of validating each key on its own. Rules
   * that read a key whose own validation failed are skipped; that key already carries an error.
   */
  public static Config addCrossFieldErrors(Config config, Map<String, String> props) {
    return addCrossFieldErrors(config, props, WorkerKafka.ofThisProcess());
  }

  static Config addCrossFieldErrors(Config config, Map<String, String> props, WorkerKafka worker) {
    Map<String, ConfigValue> values =
        config.configValues().stream()
            .collect(
                Collectors.toMap(
                    ConfigValue::name, Function.identity(), (a, b) -> a, LinkedHashMap::new));
    values.values().forEach(ConfigValidation::dropFollowOnNullError);
    checkTableNames(values);
    checkRouting(values);
    PerTableValidation.check(values, props);
    checkCatalog(values);
    checkCommitTiming(values, props);
    checkControlClients(values, props, worker);
    UnknownKeys.check(values, props);
    return new Config(new ArrayList<>(values.values()));
  }

  private static void checkTableNames(Map<String, ConfigValue> values) {
    if (!valid(values, FloeSinkConfig.TABLES)) {
      return;
    }
    for (Object table : (List<?>) values.get(FloeSinkConfig.TABLES).value()) {
      String name = String.valueOf(table);
      if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
        error(
            values,
            FloeSinkConfig.TABLES,
            "'" + name + "' is not a table name: use namespace.table, e.g. db.events.");
      }
    }
  }

  private static void checkRouting(Map<String, ConfigValue> values) {
    if (!valid(values, FloeSinkConfig.TABLES, FloeSinkConfig.TABLES_DYNAMIC_ENABLED)) {
      return;
    }
    List<?> tables = (List<?>) values.get(FloeSinkConfig.TABLES).value();
    boolean hasTables = tables != null && !tables.isEmpty();
    boolean dynamic =
        Boolean.TRUE.equals(values.get(FloeSinkConfig.TABLES_DYNAMIC_ENABLED).value());
    if (hasTables && dynamic) {
      error(
          values,
          FloeSinkConfig.TABLES_DYNAMIC_ENABLED,
          "Dynamic routing and a static table list are both set: remove "
              + FloeSinkConfig.TABLES
              + " or set "
              + FloeSinkConfig.TABLES_DYNAMIC_ENABLED
              + "=false.");
    } else if (!hasTables && !dynamic) {
      error(
          values,
          FloeSinkConfig.TABLES,
          "No table to write to: list the tables in "
              + FloeSinkConfig.TABLES
              + ", or set "
              + FloeSinkConfig.TABLES_DYNAMIC_ENABLED
              + "=true with "
              + FloeSinkConfig.TABLES_ROUTE_FIELD
              + ".");
    }
    if (dynamic
        && valid(values, FloeSinkConfig.TABLES_ROUTE_FIELD)
        && values.get(FloeSinkConfig.TABLES_ROUTE_FIELD).value() == null) {
      error(
          values,
          FloeSinkConfig.TABLES_ROUTE_FIELD,
          "Dynamic routing needs the field that names each record's table: set "
              + FloeSinkConfig.TABLES_ROUTE_FIELD
              + ".");
    }
  }

  private static void checkCatalog(Map<String, ConfigValue> values) {
    if (!valid(values, FloeSinkConfig.CATALOG_TYPE, FloeSinkConfig.CATALOG_IMPL)) {
      return;
    }
    Object type = values.get(FloeSinkConfig.CATALOG_TYPE).value();
    Object impl = values.get(FloeSinkConfig.CATALOG_IMPL).value();
    if (type == null && impl == null) {
      error(
          values,
          FloeSinkConfig.CATALOG_TYPE,
          "No catalog configured: set "
              + FloeSinkConfig.CATALOG_TYPE
              + " (one of "
              + FloeSinkConfig.CatalogType.names()
              + ") or "
              + FloeSinkConfig.CATALOG_IMPL
              + ".");
    } else if (type != null && impl != null) {
      error(
          values,
          FloeSinkConfig.CATALOG_IMPL,
          "Both "
              + FloeSinkConfig.CATALOG_TYPE
              + " and "
              + FloeSinkConfig.CATALOG_IMPL
              + " are set: keep only one.");
    }
  }

  /** An explicit timeout must be below the interval; an unset one is derived from it. */
  private static void checkCommitTiming(
      Map<String, ConfigValue> values, Map<String, String> props) {
    if (!props.containsKey(FloeSinkConfig.COMMIT_TIMEOUT_MS)
        || !valid(values, FloeSinkConfig.COMMIT_INTERVAL_MS, FloeSinkConfig.COMMIT_TIMEOUT_MS)) {
      return;
    }
    long interval = (Long) values.get(FloeSinkConfig.COMMIT_INTERVAL_MS).value();
    long timeout = (Long) values.get(FloeSinkConfig.COMMIT_TIMEOUT_MS).value();
    if (timeout >= interval) {
      error(
          values,
          FloeSinkConfig.COMMIT_TIMEOUT_MS,
          "The commit timeout ("
              + timeout
              + " ms) must be shorter than the commit interval ("
              + interval
              + " ms), or cycles would overlap.");
    }
  }

  private static void checkControlClients(
      Map<String, ConfigValue> values, Map<String, String> props, WorkerKafka worker) {
    if (valid(values, FloeSinkConfig.KAFKA_BOOTSTRAP_SERVERS)
        && values.get(FloeSinkConfig.KAFKA_BOOTSTRAP_SERVERS).value() == null
        && worker.find().isEmpty()) {
      error(
          values,
          FloeSinkConfig.KAFKA_BOOTSTRAP_SERVERS,
          "Required here: it is "
              + FloeSinkConfig.MISSING_BOOTSTRAP_SERVERS
              + " The control topic and the offset commits go there.");
    }
    String jaasKey = FloeSinkConfig.KAFKA_PREFIX + SaslLoginModules.JAAS_CONFIG;
    String jaas = props.get(jaasKey);
    if (jaas != null) {
      SaslLoginModules.problem(jaas).ifPresent(problem -> error(values, jaasKey, problem));
    }
    SourceConsumer.problems(props).forEach((key, problem) -> error(values, key, problem));
  }

  /**
   * A value that does not parse is also reported by Kafka's validator as "Invalid value null ...
   * must be non-null"; keep only the message about what the user wrote.
   */
  private static void dropFollowOnNullError(ConfigValue value) {
    List<String> messages = value.errorMessages(); // Kafka's own, mutable list
    String followOn = "Invalid value null for configuration " + value.name() + ":";
    if (messages.stream().anyMatch(m -> !m.startsWith(followOn))) {
      messages.removeIf(m -> m.startsWith(followOn));
    }
  }

  static boolean valid(Map<String, ConfigValue> values, String... names) {
    for (String name : names) {
      ConfigValue value = values.get(name);
      if (value == null || !value.errorMessages().isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Adds an error to a key, creating a value entry for keys outside the ConfigDef. */
  static void error(Map<String, ConfigValue> values, String name, String message) {
    values.computeIfAbsent(name, ConfigValue::new).addErrorMessage(message);
  }
}
