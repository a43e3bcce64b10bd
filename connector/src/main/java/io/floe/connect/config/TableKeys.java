/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

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
 */
public record TableKeys(
    boolean autoCreateEnabled,
    boolean evolveSchemaEnabled,
    PartitionBy defaultPartitionBy,
    Optional<String> kafkaMetadataColumn,
    Map<String, String> autoCreateProperties) {
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
      "Name of a struct column (topic, partition, offset, timestamp, key) that records where each"
          + " row came from; empty for none. Added to auto-created tables and, with schema"
          + " evolution, to existing ones.";
  public static final String KAFKA_METADATA_COLUMN_DEFAULT = "";

  /** {@code iceberg.tables.auto-create-props.*}: table properties of auto-created tables. */
  public static final String AUTO_CREATE_PROPS_PREFIX = "iceberg.tables.auto-create-props.";

  static TableKeys parse(AbstractConfig config) {
    String column = config.getString(KAFKA_METADATA_COLUMN);
    return new TableKeys(
        config.getBoolean(TABLES_AUTO_CREATE_ENABLED),
        config.getBoolean(TABLES_EVOLVE_SCHEMA_ENABLED),
        PartitionBy.parse(config.getString(TABLES_DEFAULT_PARTITION_BY)),
        column == null || column.isBlank() ? Optional.empty() : Optional.of(column.trim()),
        PrefixedKeys.strip(config.originals(), AUTO_CREATE_PROPS_PREFIX));
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
    return order;
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
