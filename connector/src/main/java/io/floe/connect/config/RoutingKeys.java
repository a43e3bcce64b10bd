/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The keys that say which tables a record goes to: a static list, or dynamic routing by a field.
 *
 * @param tables the listed tables
 * @param dynamicEnabled whether the route field's value names each record's table
 * @param routeField dotted path of the field that routes records, if set
 */
public record RoutingKeys(
    List<String> tables, boolean dynamicEnabled, Optional<String> routeField) {
  public static final String GROUP = "Routing";

  public static final String TABLES = "iceberg.tables";
  public static final String TABLES_DOC =
      "Comma-separated list of the tables to write (namespace.table). Every record goes to every"
          + " listed table unless per-table route rules are set. Leave empty with dynamic routing.";
  public static final String TABLES_DEFAULT = "";

  public static final String TABLES_DYNAMIC_ENABLED = "iceberg.tables.dynamic-enabled";
  public static final String TABLES_DYNAMIC_ENABLED_DOC =
      "When true, the value of the route field names the table each record goes to.";
  public static final boolean TABLES_DYNAMIC_ENABLED_DEFAULT = false;

  public static final String TABLES_ROUTE_FIELD = "iceberg.tables.route-field";
  public static final String TABLES_ROUTE_FIELD_DOC =
      "Dotted path of the record field whose value routes the record (a table name with dynamic"
          + " routing, or the value matched by iceberg.table.<t>.route-regex).";

  public RoutingKeys {
    tables = List.copyOf(tables);
  }

  static RoutingKeys parse(AbstractConfig config) {
    return new RoutingKeys(
        config.getList(TABLES),
        config.getBoolean(TABLES_DYNAMIC_ENABLED),
        Optional.ofNullable(config.getString(TABLES_ROUTE_FIELD)));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        TABLES,
        Type.LIST,
        TABLES_DEFAULT,
        Importance.HIGH,
        TABLES_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Tables");
    def.define(
        TABLES_DYNAMIC_ENABLED,
        Type.BOOLEAN,
        TABLES_DYNAMIC_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_DYNAMIC_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Dynamic routing");
    def.define(
        TABLES_ROUTE_FIELD,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        TABLES_ROUTE_FIELD_DOC,
        GROUP,
        ++order,
        Width.MEDIUM,
        "Route field");
  }

  /** Table names, and exactly one way of routing: a table list, or dynamic with a route field. */
  static void check(Map<String, ConfigValue> values) {
    checkTableNames(values);
    checkRouting(values);
  }

  private static void checkTableNames(Map<String, ConfigValue> values) {
    if (!ConfigValidation.valid(values, TABLES)) {
      return;
    }
    for (Object table : (List<?>) values.get(TABLES).value()) {
      String name = String.valueOf(table);
      if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
        ConfigValidation.error(
            values,
            TABLES,
            "'" + name + "' is not a table name: use namespace.table, e.g. db.events.");
      }
    }
  }

  private static void checkRouting(Map<String, ConfigValue> values) {
    if (!ConfigValidation.valid(values, TABLES, TABLES_DYNAMIC_ENABLED)) {
      return;
    }
    List<?> tables = (List<?>) values.get(TABLES).value();
    boolean hasTables = tables != null && !tables.isEmpty();
    boolean dynamic = Boolean.TRUE.equals(values.get(TABLES_DYNAMIC_ENABLED).value());
    if (hasTables && dynamic) {
      ConfigValidation.error(
          values,
          TABLES_DYNAMIC_ENABLED,
          "Dynamic routing and a static table list are both set: remove "
              + TABLES
              + " or set "
              + TABLES_DYNAMIC_ENABLED
              + "=false.");
    } else if (!hasTables && !dynamic) {
      ConfigValidation.error(
          values,
          TABLES,
          "No table to write to: list the tables in "
              + TABLES
              + ", or set "
              + TABLES_DYNAMIC_ENABLED
              + "=true with "
              + TABLES_ROUTE_FIELD
              + ".");
    }
    if (dynamic
        && ConfigValidation.valid(values, TABLES_ROUTE_FIELD)
        && values.get(TABLES_ROUTE_FIELD).value() == null) {
      ConfigValidation.error(
          values,
          TABLES_ROUTE_FIELD,
          "Dynamic routing needs the field that names each record's table: set "
              + TABLES_ROUTE_FIELD
              + ".");
    }
  }
}
