/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Checks the {@code iceberg.table.<table>.*} keys: each names a listed table and a known setting
 * with a valid value, and route rules are complete. Errors go on the per-table key itself.
 */
final class PerTableValidation {
  private PerTableValidation() {}

  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    if (!ConfigValidation.valid(
        values,
        RoutingKeys.TABLES,
        RoutingKeys.TABLES_DYNAMIC_ENABLED,
        RoutingKeys.TABLES_ROUTE_FIELD)) {
      return;
    }
    Set<String> tables = new TreeSet<>();
    for (Object table : (List<?>) values.get(RoutingKeys.TABLES).value()) {
      tables.add(String.valueOf(table));
    }
    boolean dynamic = Boolean.TRUE.equals(values.get(RoutingKeys.TABLES_DYNAMIC_ENABLED).value());
    boolean routeField = values.get(RoutingKeys.TABLES_ROUTE_FIELD).value() != null;

    Set<String> tablesWithRegex = new TreeSet<>();
    for (Map.Entry<String, String> prop : props.entrySet()) {
      String key = prop.getKey();
      var parts = TableConfig.split(key);
      if (parts.isEmpty()) {
        continue;
      }
      String table = parts.get().getKey();
      String setting = parts.get().getValue();
      if (!TableConfig.SETTINGS.contains(setting)) {
        ConfigValidation.error(
            values,
            key,
            "Unknown per-table setting '"
                + setting
                + "': iceberg.table.<table>. takes "
                + String.join(", ", TableConfig.SETTINGS)
                + ".");
        continue;
      }
      if (!dynamic && !tables.contains(table)) {
        ConfigValidation.error(
            values,
            key,
            "Table '" + table + "' is not listed in " + RoutingKeys.TABLES + " (a typo?).");
        continue;
      }
      checkValue(values, key, setting, prop.getValue(), dynamic, routeField);
      if (setting.equals(TableConfig.ROUTE_REGEX)) {
        tablesWithRegex.add(table);
      }
    }

    checkUpsertKeys(values, props, tables, dynamic);

    if (!dynamic && routeField && !tablesWithRegex.isEmpty()) {
      List<String> without = new ArrayList<>(tables);
      without.removeAll(tablesWithRegex);
      if (!without.isEmpty()) {
        ConfigValidation.error(
            values,
            RoutingKeys.TABLES,
            "With "
                + RoutingKeys.TABLES_ROUTE_FIELD
                + " and route rules, a table without iceberg.table.<table>.route-regex receives no"
                + " record: add one for "
                + String.join(", ", without)
                + ".");
      }
    }
  }

  /**
   * A table in upsert mode needs id columns: they become its identifier fields, and find the row a
   * change replaces or deletes. Checked for the listed tables, and with dynamic routing for those
   * with settings of their own (other tables are checked when they are first written). The error
   * goes on the key that put the table in upsert mode.
   */
  private static void checkUpsertKeys(
      Map<String, ConfigValue> values,
      Map<String, String> props,
      Set<String> listed,
      boolean dynamic) {
    if (!ConfigValidation.valid(values, UpsertKeys.UPSERT_MODE_ENABLED)) {
      return;
    }
    boolean byDefault = Boolean.TRUE.equals(values.get(UpsertKeys.UPSERT_MODE_ENABLED).value());
    Set<String> tables = new TreeSet<>(listed);
    for (String key : dynamic ? props.keySet() : Set.<String>of()) {
      TableConfig.split(key)
          .filter(parts -> TableConfig.SETTINGS.contains(parts.getValue()))
          .ifPresent(parts -> tables.add(parts.getKey()));
    }
    for (String table : tables) {
      String own = TableConfig.key(table, TableConfig.UPSERT_MODE_ENABLED);
      boolean upsert;
      if (props.containsKey(own)) {
        try {
          upsert = TableConfig.parseBoolean(props.get(own));
        } catch (IllegalArgumentException e) {
          continue; // reported on the key itself
        }
      } else {
        upsert = byDefault;
      }
      if (upsert && !props.containsKey(TableConfig.key(table, TableConfig.ID_COLUMNS))) {
        ConfigValidation.error(
            values,
            props.containsKey(own) ? own : UpsertKeys.UPSERT_MODE_ENABLED,
            "Table '"
                + table
                + "' is in upsert mode and needs "
                + TableConfig.key(table, TableConfig.ID_COLUMNS)
                + ": its key columns become the table's identifier fields and find the rows each"
                + " change replaces or deletes.");
      }
    }
  }

  private static void checkValue(
      Map<String, ConfigValue> values,
      String key,
      String setting,
      String value,
      boolean dynamic,
      boolean routeField) {
    switch (setting) {
      case TableConfig.ROUTE_REGEX -> {
        if (dynamic) {
          ConfigValidation.error(
              values,
              key,
              "Route rules do not apply with dynamic routing, where the route value names the table.");
        } else if (!routeField) {
          ConfigValidation.error(
              values,
              key,
              "A route rule needs the field it matches: set "
                  + RoutingKeys.TABLES_ROUTE_FIELD
                  + ".");
        } else {
          try {
            Pattern.compile(value);
          } catch (PatternSyntaxException e) {
            ConfigValidation.error(
                values, key, "Not a valid regular expression: " + e.getDescription() + ".");
          }
        }
      }
      case TableConfig.PARTITION_BY -> {
        try {
          PartitionBy.parse(value);
        } catch (IllegalArgumentException e) {
          ConfigValidation.error(values, key, "Invalid partition spec: " + e.getMessage() + ".");
        }
      }
      case TableConfig.ID_COLUMNS -> {
        try {
          TableConfig.parseIdColumns(value);
        } catch (IllegalArgumentException e) {
          ConfigValidation.error(
              values, key, "Invalid identifier columns: " + e.getMessage() + ".");
        }
      }
      case TableConfig.UPSERT_MODE_ENABLED, TableConfig.UPSERT_KEY_INDEX_ENABLED -> {
        try {
          TableConfig.parseBoolean(value);
        } catch (IllegalArgumentException e) {
          ConfigValidation.error(values, key, "Invalid value: " + e.getMessage() + ".");
        }
      }
      default -> throw new IllegalStateException("unchecked setting " + setting);
    }
  }
}
