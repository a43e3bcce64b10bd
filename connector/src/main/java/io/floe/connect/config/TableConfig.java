/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.catalog.PartitionBy;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The settings of one table, from {@code iceberg.table.<table>.*} over the connector-wide defaults;
 * parsed once, immutable.
 *
 * @param table the table's name as configured ({@code namespace.table})
 * @param routeRegex with a route field: records whose route value matches go to this table
 * @param partitionBy the partition spec used when the table is auto-created
 */
public record TableConfig(String table, Optional<Pattern> routeRegex, PartitionBy partitionBy) {

  public static final String PREFIX = "iceberg.table.";
  public static final String ROUTE_REGEX = "route-regex";
  public static final String PARTITION_BY = "partition-by";

  /** Every per-table setting Floe knows; any other {@code iceberg.table.<t>.*} key is an error. */
  public static final java.util.List<String> SETTINGS =
      java.util.List.of(ROUTE_REGEX, PARTITION_BY);

  /** The property key of one setting of one table. */
  public static String key(String table, String setting) {
    return PREFIX + table + "." + setting;
  }

  /**
   * Parses the table's settings from the connector properties.
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  static TableConfig parse(
      String table, Map<String, String> props, PartitionBy defaultPartitionBy) {
    Optional<Pattern> regex =
        Optional.ofNullable(props.get(key(table, ROUTE_REGEX))).map(r -> compile(table, r));
    String partitionBy = props.get(key(table, PARTITION_BY));
    PartitionBy spec;
    try {
      spec = partitionBy == null ? defaultPartitionBy : PartitionBy.parse(partitionBy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(table, PARTITION_BY) + ": " + e.getMessage(), e);
    }
    return new TableConfig(table, regex, spec);
  }

  private static Pattern compile(String table, String regex) {
    try {
      return Pattern.compile(regex);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new IllegalArgumentException(
          key(table, ROUTE_REGEX) + ": not a valid regular expression: " + e.getDescription(), e);
    }
  }

  /**
   * Splits a per-table key into (table, setting), or returns empty if it is not one. Table names
   * contain dots, so the setting is found at the end.
   */
  public static Optional<Map.Entry<String, String>> split(String key) {
    if (!key.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = key.substring(PREFIX.length());
    int dot = rest.lastIndexOf('.');
    if (dot <= 0 || dot == rest.length() - 1) {
      return Optional.of(Map.entry(rest, ""));
    }
    return Optional.of(Map.entry(rest.substring(0, dot), rest.substring(dot + 1)));
  }
}
