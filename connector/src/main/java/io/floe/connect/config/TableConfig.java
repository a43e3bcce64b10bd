/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.cdc.CdcOptions;
import io.floe.connect.contract.Contract;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * @param idColumns the columns that make up the table's Iceberg identifier fields (full names,
 *     dotted for a field of a struct), in the configured order: the table's own {@code id-columns},
 *     else {@code iceberg.tables.default-id-columns}; empty to leave them as they are
 * @param upsert how the table reads changes from its records, present only if the table is in
 *     upsert mode ({@code upsert-mode-enabled}, its own or the connector's)
 * @param upsertKeyIndex whether the coordinator keeps a key index for the table, when it is in
 *     upsert mode ({@code upsert-key-index-enabled}, its own or the connector's)
 * @param maintained whether the coordinator maintains the table ({@code maintenance-enabled}, its
 *     own or the connector's)
 * @param commitBranch the branch the table's commits go to ({@code commit-branch}, its own or the
 *     connector's {@code iceberg.tables.default-commit-branch}), {@code main} by default
 * @param contract the table's data contract ({@code contract}), if it has one
 * @param rejectsTable the quarantine table the records the contract refuses are written to, present
 *     only when {@code contract-rejects=table} ({@link ContractRejects})
 */
public record TableConfig(
    String table,
    Optional<Pattern> routeRegex,
    PartitionBy partitionBy,
    List<String> idColumns,
    Optional<CdcOptions> upsert,
    boolean upsertKeyIndex,
    boolean maintained,
    String commitBranch,
    Optional<Contract> contract,
    Optional<String> rejectsTable) {

  public static final String PREFIX = "iceberg.table.";
  public static final String ROUTE_REGEX = "route-regex";
  public static final String PARTITION_BY = "partition-by";
  public static final String ID_COLUMNS = "id-columns";
  public static final String UPSERT_MODE_ENABLED = "upsert-mode-enabled";
  public static final String UPSERT_KEY_INDEX_ENABLED = "upsert-key-index-enabled";
  public static final String CDC_TRUNCATE_ENABLED = "cdc-truncate-enabled";
  public static final String MAINTENANCE_ENABLED = "maintenance-enabled";

  /** The branch the table's commits go to, as the Apache Iceberg sink's key says. */
  public static final String COMMIT_BRANCH = "commit-branch";

  /** The table's data contract: a file's path, or the contract itself (YAML or JSON). */
  public static final String CONTRACT = "contract";

  /** Every per-table setting Floe knows; any other {@code iceberg.table.<t>.*} key is an error. */
  public static final List<String> SETTINGS =
      List.of(
          ROUTE_REGEX,
          PARTITION_BY,
          ID_COLUMNS,
          UPSERT_MODE_ENABLED,
          UPSERT_KEY_INDEX_ENABLED,
          CDC_TRUNCATE_ENABLED,
          MAINTENANCE_ENABLED,
          COMMIT_BRANCH,
          CONTRACT,
          ContractRejects.REJECTS,
          ContractRejects.REJECTS_TABLE);

  /** Copies the identifier columns. */
  public TableConfig {
    idColumns = List.copyOf(idColumns);
  }

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
      String table,
      Map<String, String> props,
      TableKeys tables,
      UpsertKeys upsert,
      MaintenanceKeys maintenance) {
    Optional<Pattern> regex =
        Optional.ofNullable(props.get(key(table, ROUTE_REGEX))).map(r -> compile(table, r));
    String partitionBy = props.get(key(table, PARTITION_BY));
    PartitionBy spec;
    try {
      spec = partitionBy == null ? tables.defaultPartitionBy() : PartitionBy.parse(partitionBy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(table, PARTITION_BY) + ": " + e.getMessage(), e);
    }
    String idColumns = props.get(key(table, ID_COLUMNS));
    List<String> ids;
    try {
      ids = idColumns == null ? tables.defaultIdColumns() : parseIdColumns(idColumns);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(table, ID_COLUMNS) + ": " + e.getMessage(), e);
    }
    TableKeys.branchProblem(props.get(key(table, COMMIT_BRANCH)))
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(key(table, COMMIT_BRANCH) + ": " + problem);
            });
    String upsertMode = props.get(key(table, UPSERT_MODE_ENABLED));
    boolean upsertEnabled;
    try {
      upsertEnabled = upsertMode == null ? upsert.enabled() : parseBoolean(upsertMode);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          key(table, UPSERT_MODE_ENABLED) + ": " + e.getMessage(), e);
    }
    boolean keyIndex =
        upsertEnabled && flag(table, props, UPSERT_KEY_INDEX_ENABLED, upsert.keyIndexEnabled());
    Optional<CdcOptions> options = Optional.empty();
    if (upsertEnabled) {
      boolean truncates =
          flag(table, props, CDC_TRUNCATE_ENABLED, upsert.options().truncateEnabled());
      options = Optional.of(upsert.options().withTruncateEnabled(truncates));
    }
    boolean maintained = flag(table, props, MAINTENANCE_ENABLED, maintenance.enabled());
    String branch = props.get(key(table, COMMIT_BRANCH));
    String contract = props.get(key(table, CONTRACT));
    return new TableConfig(
        table,
        regex,
        spec,
        ids,
        options,
        keyIndex,
        maintained,
        branch == null || branch.isBlank() ? tables.defaultCommitBranch() : branch,
        contract == null ? Optional.empty() : Optional.of(readContract(table, contract)),
        ContractRejects.parse(table, props));
  }

  /**
   * Reads a table's contract.
   *
   * @throws IllegalArgumentException naming the key, and saying what to fix
   */
  static Contract readContract(String table, String value) {
    try {
      return Contract.read(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(table, CONTRACT) + ": " + e.getMessage(), e);
    }
  }

  /** The table's own value of a true-or-false setting, or the connector's. */
  private static boolean flag(
      String table, Map<String, String> props, String setting, boolean connectorValue) {
    String own = props.get(key(table, setting));
    try {
      return own == null ? connectorValue : parseBoolean(own);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(table, setting) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses {@code true} or {@code false}, in any case, as Kafka's {@code ConfigDef} does.
   *
   * @throws IllegalArgumentException for any other value
   */
  static boolean parseBoolean(String value) {
    String trimmed = value.trim();
    if (trimmed.equalsIgnoreCase("true")) {
      return true;
    }
    if (trimmed.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("'" + value + "' is neither true nor false");
  }

  /**
   * Parses a comma-separated list of column names, each a full name with dots between the names of
   * nested struct fields ({@code id, customer.id}).
   *
   * @throws IllegalArgumentException if the list is empty, a name is malformed or one repeats
   */
  static List<String> parseIdColumns(String value) {
    List<String> columns = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      String column = part.trim();
      if (column.isEmpty()
          || column.startsWith(".")
          || column.endsWith(".")
          || column.contains("..")
          || column.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException(
            "'"
                + column
                + "' is not a column name: list column names separated by commas, with dots"
                + " between the names of nested struct fields (e.g. id, customer.id)");
      }
      columns.add(column);
    }
    if (new LinkedHashSet<>(columns).size() != columns.size()) {
      throw new IllegalArgumentException("a column is listed twice in '" + value + "'");
    }
    return List.copyOf(columns);
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
