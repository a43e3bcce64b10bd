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
import org.apache.kafka.common.config.ConfigException;

/**
 * The keys that shape the tables themselves: whether they are created and evolved, how new ones are
 * partitioned, and the Kafka metadata column. The writer keys ({@link WriterKeys}) share their
 * group.
 *
 * @param autoCreateEnabled whether missing tables are created
 * @param evolveSchemaEnabled whether table schemas follow the records
 * @param defaultPartitionBy the partition spec of auto-created tables
 * @param kafkaMetadataColumn the name of the Kafka metadata column, if rows get one
 * @param autoCreateProperties table properties of auto-created tables
 * @param defaultIdColumns the identifier columns of a table that sets no {@code id-columns}
 * @param defaultCommitBranch the branch the commits of a table that sets no {@code commit-branch}
 *     go to
 */
public record TableKeys(
    boolean autoCreateEnabled,
    boolean evolveSchemaEnabled,
    PartitionBy defaultPartitionBy,
    Optional<String> kafkaMetadataColumn,
    Map<String, String> autoCreateProperties,
    List<String> defaultIdColumns,
    String defaultCommitBranch) {
  public static final String GROUP = "Tables";

  public static final String TABLES_AUTO_CREATE_ENABLED = "iceberg.tables.auto-create-enabled";
  public static final String TABLES_AUTO_CREATE_ENABLED_DOC =
      "When true, a table that does not exist is created from the first record's schema.";
  public static final boolean TABLES_AUTO_CREATE_ENABLED_DEFAULT = false;

  public static final String TABLES_EVOLVE_SCHEMA_ENABLED = "iceberg.tables.evolve-schema-enabled";
  public static final String TABLES_EVOLVE_SCHEMA_ENABLED_DOC =
      "When true, new fields, safe type widening and renames by Avro alias are applied to the"
          + " table's schema as records need them.";
  public static final boolean TABLES_EVOLVE_SCHEMA_ENABLED_DEFAULT = false;

  public static final String TABLES_DEFAULT_PARTITION_BY = "iceberg.tables.default-partition-by";
  public static final String TABLES_DEFAULT_PARTITION_BY_DOC =
      "Partition spec of auto-created tables, as comma-separated terms: a column name (identity),"
          + " year(c), month(c), day(c), hour(c), bucket(c, N) or truncate(c, W).";
  public static final String TABLES_DEFAULT_PARTITION_BY_DEFAULT = "";

  public static final String KAFKA_METADATA_COLUMN = "iceberg.tables.kafka-metadata-column";
  public static final String KAFKA_METADATA_COLUMN_DOC =
      "Name of an optional struct column that records where each row came from: topic,"
          + " partition and offset (as Kafka gave them, before any topic-renaming transform),"
          + " timestamp, key (a string, number, boolean or UUID key as text) and key_bytes (a bytes"
          + " key); empty for none. Added to auto-created tables and, with schema evolution, to"
          + " existing ones; a table without it fails the task when schema evolution is off.";
  public static final String KAFKA_METADATA_COLUMN_DEFAULT = "";

  public static final String TABLES_DEFAULT_ID_COLUMNS = "iceberg.tables.default-id-columns";
  public static final String TABLES_DEFAULT_ID_COLUMNS_DOC =
      "Identifier columns of every table that sets no iceberg.table.<table>.id-columns of its own,"
          + " comma-separated, dotted for a field of a struct; empty for none. A table's own"
          + " id-columns wins.";
  public static final String TABLES_DEFAULT_ID_COLUMNS_DEFAULT = "";

  public static final String TABLES_DEFAULT_COMMIT_BRANCH = "iceberg.tables.default-commit-branch";
  public static final String TABLES_DEFAULT_COMMIT_BRANCH_DOC =
      "The branch the commits of every table that sets no iceberg.table.<table>.commit-branch go"
          + " to: its data, deletes and the connector's marks, from which a restarted connector"
          + " reads its position. A missing branch is created by its first commit from main's"
          + " current snapshot; main is left as it is until it is fast-forwarded. Such a table's"
          + " maintenance only expires snapshots and removes orphan files. Empty for main. A tag's"
          + " name fails the table's commit.";

  /** The branch commits go to unless configured otherwise. */
  public static final String MAIN_BRANCH = "main";

  /** {@code iceberg.tables.auto-create-props.*}: table properties of auto-created tables. */
  public static final String AUTO_CREATE_PROPS_PREFIX = "iceberg.tables.auto-create-props.";

  static TableKeys parse(AbstractConfig config) {
    String column = config.getString(KAFKA_METADATA_COLUMN);
    return new TableKeys(
        config.getBoolean(TABLES_AUTO_CREATE_ENABLED),
        config.getBoolean(TABLES_EVOLVE_SCHEMA_ENABLED),
        PartitionBy.parse(config.getString(TABLES_DEFAULT_PARTITION_BY)),
        column == null || column.isBlank() ? Optional.empty() : Optional.of(column.trim()),
        PrefixedKeys.strip(config.originals(), AUTO_CREATE_PROPS_PREFIX),
        idColumns(config.getString(TABLES_DEFAULT_ID_COLUMNS)),
        branch(config.getString(TABLES_DEFAULT_COMMIT_BRANCH)));
  }

  /** Defines the keys from order 1 of the group; returns the last order used. */
  static int define(ConfigDef def) {
    int order = 0;
    def.define(
        TABLES_AUTO_CREATE_ENABLED,
        Type.BOOLEAN,
        TABLES_AUTO_CREATE_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_AUTO_CREATE_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Auto-create tables");
    def.define(
        TABLES_EVOLVE_SCHEMA_ENABLED,
        Type.BOOLEAN,
        TABLES_EVOLVE_SCHEMA_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_EVOLVE_SCHEMA_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Evolve schemas");
    def.define(
        TABLES_DEFAULT_PARTITION_BY,
        Type.STRING,
        TABLES_DEFAULT_PARTITION_BY_DEFAULT,
        new PartitionByValidator(),
        Importance.LOW,
        TABLES_DEFAULT_PARTITION_BY_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Default partitioning");
    def.define(
        KAFKA_METADATA_COLUMN,
        Type.STRING,
        KAFKA_METADATA_COLUMN_DEFAULT,
        Importance.LOW,
        KAFKA_METADATA_COLUMN_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Kafka metadata column");
    def.define(
        TABLES_DEFAULT_ID_COLUMNS,
        Type.STRING,
        TABLES_DEFAULT_ID_COLUMNS_DEFAULT,
        new IdColumnsValidator(),
        Importance.LOW,
        TABLES_DEFAULT_ID_COLUMNS_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Default identifier columns");
    def.define(
        TABLES_DEFAULT_COMMIT_BRANCH,
        Type.STRING,
        null,
        new BranchNameValidator(),
        Importance.LOW,
        TABLES_DEFAULT_COMMIT_BRANCH_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Commit branch");
    return order;
  }

  private static String branch(String value) {
    return value == null || value.isBlank() ? MAIN_BRANCH : value;
  }

  private static List<String> idColumns(String value) {
    return value == null || value.isBlank() ? List.of() : TableConfig.parseIdColumns(value);
  }

  /**
   * Why {@code branch} cannot name the branch commits go to, or empty; unset (null or blank) is
   * main. Iceberg takes any string as a ref's name, so only what is surely a mistake is refused:
   * whitespace (a stray space commits to a branch nobody reads, and SQL names a branch as an
   * identifier, {@code branch_<name>}) and control characters. Whether the name is a tag's only the
   * table can tell: the table's commit fails then ({@code CommitBranchException}).
   */
  static Optional<String> branchProblem(String branch) {
    if (branch == null || branch.isBlank()) {
      return Optional.empty();
    }
    if (branch.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
      return Optional.of(
          "'"
              + branch
              + "' is not a branch name Floe commits to: it holds whitespace or control"
              + " characters. Name the branch without them (e.g. audit, or staging-2026), or"
              + " leave the key empty for main.");
    }
    return Optional.empty();
  }

  /** An empty list, or a list of identifier column names. */
  static final class IdColumnsValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        idColumns((String) value);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "empty, or comma-separated column names";
    }
  }

  /** No branch (main), or a branch's name. */
  static final class BranchNameValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      branchProblem((String) value)
          .ifPresent(
              problem -> {
                throw new ConfigException(name, value, problem);
              });
    }

    @Override
    public String toString() {
      return "a branch name, without whitespace; empty for main";
    }
  }

  /** Checks the syntax of a partition spec. */
  static final class PartitionByValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        PartitionBy.parse((String) value);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "comma-separated terms: column, year(c), month(c), day(c), hour(c), bucket(c, N),"
          + " truncate(c, W)";
    }
  }
}
