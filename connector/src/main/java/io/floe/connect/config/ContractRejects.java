/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Where the records a table's contract refuses go: {@code iceberg.table.<table>.contract-rejects}
 * is {@value #DEAD_LETTER} (the bad-record policy, the default) or {@value #TABLE} (the table's
 * quarantine table, {@code iceberg.table.<table>.contract-rejects-table}, by default the table's
 * name with {@value #SUFFIX} appended). Defines the two per-table settings, parses them and checks
 * the rules that span them, each error on the key to change.
 *
 * <p>The settings' names hold no dot: a per-table key's setting is what follows its last dot
 * ({@link TableConfig#split}), since table names hold dots.
 */
public final class ContractRejects {
  /** Where the records the table's contract refuses go. */
  public static final String REJECTS = "contract-rejects";

  /** The quarantine table of the records the table's contract refuses. */
  public static final String REJECTS_TABLE = "contract-rejects-table";

  /** {@link #REJECTS}: a refused record is a bad record (dead-lettered, or failing the task). */
  public static final String DEAD_LETTER = "dead-letter";

  /** {@link #REJECTS}: a refused record is written to the table's quarantine table. */
  public static final String TABLE = "table";

  /** What the name of a table's quarantine table adds to the table's name by default. */
  public static final String SUFFIX = "__rejected";

  /** Every value {@link #REJECTS} takes. */
  static final List<String> MODES = List.of(DEAD_LETTER, TABLE);

  private ContractRejects() {}

  /** The default quarantine table of {@code table}: in its namespace, its name plus the suffix. */
  public static String defaultTable(String table) {
    return table + SUFFIX;
  }

  /**
   * The quarantine table of {@code table}, present when its contract's rejects go to one.
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  static Optional<String> parse(String table, Map<String, String> props) {
    String mode = props.get(TableConfig.key(table, REJECTS));
    if (mode == null || mode(mode).equals(DEAD_LETTER)) {
      return Optional.empty();
    }
    if (!mode(mode).equals(TABLE)) {
      throw new IllegalArgumentException(
          TableConfig.key(table, REJECTS) + ": " + unknownMode(mode));
    }
    return Optional.of(quarantineTable(table, props));
  }

  private static String quarantineTable(String table, Map<String, String> props) {
    String own = props.get(TableConfig.key(table, REJECTS_TABLE));
    return own == null ? defaultTable(table) : own.trim();
  }

  private static String mode(String value) {
    return value.trim();
  }

  private static String unknownMode(String value) {
    return "'"
        + value
        + "' is not where rejects go: use "
        + String.join(" or ", MODES)
        + (MODES.contains(value.trim().toLowerCase(Locale.ROOT)) ? " (in lower case)" : "");
  }

  /**
   * Checks the rejects settings of every table that has one: a known mode, a contract to refuse
   * records with, a quarantine table setting only with {@value #TABLE}, a name that is one, and a
   * quarantine table that is none of the tables records are routed to.
   *
   * @param routed the tables of {@code iceberg.tables}
   * @param dynamic whether routing is dynamic (any table may be routed to, none is listed)
   */
  static void check(
      Map<String, ConfigValue> values,
      Map<String, String> props,
      Set<String> routed,
      boolean dynamic) {
    Set<String> tables = new TreeSet<>();
    for (String key : props.keySet()) {
      TableConfig.split(key)
          .filter(
              parts -> parts.getValue().equals(REJECTS) || parts.getValue().equals(REJECTS_TABLE))
          .ifPresent(parts -> tables.add(parts.getKey()));
    }
    for (String table : tables) {
      if (dynamic || routed.contains(table)) { // else told that the table is not listed
        check(values, props, routed, table);
      }
    }
  }

  private static void check(
      Map<String, ConfigValue> values,
      Map<String, String> props,
      Set<String> routed,
      String table) {
    String modeKey = TableConfig.key(table, REJECTS);
    String tableKey = TableConfig.key(table, REJECTS_TABLE);
    String mode = props.get(modeKey);
    String own = props.get(tableKey);
    if (mode != null && !MODES.contains(mode(mode))) {
      ConfigValidation.error(values, modeKey, "Invalid value: " + unknownMode(mode) + ".");
      return;
    }
    boolean toTable = mode != null && mode(mode).equals(TABLE);
    if (own != null && !toTable) {
      ConfigValidation.error(
          values,
          tableKey,
          "A quarantine table is used only when "
              + modeKey
              + "="
              + TABLE
              + ": set that, or remove this key.");
      return;
    }
    if (!toTable) {
      return;
    }
    if (props.get(TableConfig.key(table, TableConfig.CONTRACT)) == null) {
      ConfigValidation.error(
          values,
          modeKey,
          "Table "
              + table
              + " has no contract, so it refuses no record: set "
              + TableConfig.key(table, TableConfig.CONTRACT)
              + ", or remove this key.");
      return;
    }
    if (own != null && (own.isBlank() || own.trim().chars().anyMatch(Character::isWhitespace))) {
      ConfigValidation.error(
          values,
          tableKey,
          "'" + own + "' is not a table name: give namespace.table, without whitespace.");
      return;
    }
    String quarantine = quarantineTable(table, props);
    boolean isRouted =
        table.equalsIgnoreCase(quarantine)
            || routed.stream().anyMatch(other -> other.equalsIgnoreCase(quarantine));
    if (isRouted) {
      ConfigValidation.error(
          values,
          own != null ? tableKey : modeKey,
          "The quarantine table "
              + quarantine
              + " is a table records are routed to, and a quarantine table holds rejects"
              + " only: name another with "
              + tableKey
              + ".");
    }
  }
}
