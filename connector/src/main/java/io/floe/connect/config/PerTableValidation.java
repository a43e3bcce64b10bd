/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.contract.Contract;
import io.floe.connect.contract.FieldRule;
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
      if (setting.equals(TableConfig.CONTRACT) && upsert(props, table)) {
        uniqueOfUpsertTable(values, key, prop.getValue());
      }
      if (setting.equals(TableConfig.ROUTE_REGEX)) {
        tablesWithRegex.add(table);
      }
    }

    ContractRejects.check(values, props, dynamic ? Set.of() : tables, dynamic);

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

  private static boolean upsert(Map<String, String> props, String table) {
    String value = props.get(TableConfig.key(table, TableConfig.UPSERT_MODE_ENABLED));
    if (value == null) {
      value = props.get(UpsertKeys.UPSERT_MODE_ENABLED);
    }
    return value != null && value.trim().equalsIgnoreCase("true");
  }

  /**
   * An upsert table keeps one row per key already: a unique field of its contract would promise
   * what Floe does not check there.
   */
  private static void uniqueOfUpsertTable(
      Map<String, ConfigValue> values, String key, String value) {
    Contract contract;
    try {
      contract = Contract.read(value);
    } catch (IllegalArgumentException e) {
      return; // told on the key already
    }
    contract.fields().stream()
        .filter(FieldRule::unique)
        .findFirst()
        .ifPresent(
            field ->
                ConfigValidation.error(
                    values,
                    key,
                    "Invalid contract: field "
                        + field.path()
                        + " is unique, and the table is in upsert mode, which keeps one row per"
                        + " key: remove unique (Floe checks it on appending tables only)."));
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
      case TableConfig.UPSERT_MODE_ENABLED,
          TableConfig.UPSERT_KEY_INDEX_ENABLED,
          TableConfig.CDC_TRUNCATE_ENABLED,
          TableConfig.MAINTENANCE_ENABLED -> {
        try {
          TableConfig.parseBoolean(value);
        } catch (IllegalArgumentException e) {
          ConfigValidation.error(values, key, "Invalid value: " + e.getMessage() + ".");
        }
      }
      case TableConfig.COMMIT_BRANCH ->
          TableKeys.branchProblem(value)
              .ifPresent(problem -> ConfigValidation.error(values, key, problem));
      case TableConfig.CONTRACT -> {
        try {
          Contract.read(value);
        } catch (IllegalArgumentException e) {
          ConfigValidation.error(values, key, "Invalid contract: " + e.getMessage() + ".");
        }
      }
      case ContractRejects.REJECTS, ContractRejects.REJECTS_TABLE -> {
        // they span two keys and the contract's: ContractRejects.check
      }
      default -> throw new IllegalStateException("unchecked setting " + setting);
    }
  }
}
