/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.TableConfig;
import io.floe.connect.config.TableKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads tables, and creates missing ones when {@code iceberg.tables.auto-create-enabled} is on:
 * with the table's partition spec, identifier fields ({@code id-columns}) and {@code
 * auto-create-props.*} (format version 2, or 3 for a table in upsert mode, unless they set one), in
 * a namespace created when missing ({@link Namespaces}). Tasks creating the same table at once
 * converge: the loser of the race loads the winner's table.
 */
public final class TableProvider {
  private static final Logger LOG = LoggerFactory.getLogger(TableProvider.class);

  /**
   * Table format version of auto-created tables unless {@code auto-create-props} says otherwise.
   */
  static final String DEFAULT_FORMAT_VERSION = "2";

  /**
   * Format version of auto-created tables in upsert mode unless {@code auto-create-props} says
   * otherwise: the version with deletion vectors.
   */
  static final String UPSERT_FORMAT_VERSION = "3";

  /**
   * How many times a table is created whose metadata is gone when read back after its creation (see
   * {@link #create}).
   */
  private static final int MAX_CREATIONS = 3;

  private final Catalog catalog;
  private final FloeSinkConfig config;

  public TableProvider(Catalog catalog, FloeSinkConfig config) {
    this.catalog = catalog;
    this.config = config;
  }

  /** The table, if it exists. */
  public Optional<Table> load(String table) {
    try {
      return Optional.of(catalog.loadTable(TableIdentifier.parse(table)));
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
  }

  /**
   * The table, created from {@code schema} when missing and auto-create is on.
   *
   * @throws ConnectException when the table is missing and auto-create is off, or the table's
   *     partition spec or identifier columns do not fit the schema: these need the operator, not a
   *     retry
   */
  public Table loadOrCreate(String table, Schema schema) {
    return loadOrCreate(table, schema, config.tableConfig(table).idColumns());
  }

  /**
   * {@link #loadOrCreate(String, Schema)}, creating the table with {@code idColumns} as its
   * identifier fields.
   */
  public Table loadOrCreate(String table, Schema schema, List<String> idColumns) {
    Optional<Table> existing = load(table);
    if (existing.isPresent()) {
      return existing.get();
    }
    if (!config.autoCreateEnabled()) {
      throw new ConnectException(
          "Table "
              + table
              + " does not exist in catalog '"
              + catalog.name()
              + "': create it, or set "
              + TableKeys.TABLES_AUTO_CREATE_ENABLED
              + "=true.");
    }
    return create(TableIdentifier.parse(table), schema, config.tableConfig(table), idColumns);
  }

  /**
   * A table of a schema and partition spec Floe sets (a quarantine table of contract rejects):
   * loaded, or created when missing whether or not auto-create is on, with {@code
   * auto-create-props} (format version 2 unless they set one).
   */
  public Table loadOrCreateFixed(String table, Schema schema, PartitionSpec spec) {
    Optional<Table> existing = load(table);
    if (existing.isPresent()) {
      return existing.get();
    }
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.FORMAT_VERSION, DEFAULT_FORMAT_VERSION);
    props.putAll(config.autoCreateProperties());
    return create(TableIdentifier.parse(table), schema, spec, spec.fields(), props);
  }

  private Table create(
      TableIdentifier id, Schema recordSchema, TableConfig tableConfig, List<String> idColumns) {
    Schema schema = IdentifierColumns.on(id.toString(), recordSchema, idColumns);
    PartitionSpec spec;
    try {
      spec = tableConfig.partitionBy().toSpec(schema);
    } catch (IllegalArgumentException e) {
      throw new ConnectException(
          "Cannot create table "
              + id
              + ": "
              + e.getMessage()
              + ". Fix "
              + TableConfig.key(tableConfig.table(), TableConfig.PARTITION_BY)
              + " or "
              + TableKeys.TABLES_DEFAULT_PARTITION_BY
              + ".",
          e);
    }
    Map<String, String> props = new HashMap<>();
    props.put(
        TableProperties.FORMAT_VERSION,
        tableConfig.upsert().isPresent() ? UPSERT_FORMAT_VERSION : DEFAULT_FORMAT_VERSION);
    props.putAll(config.autoCreateProperties());
    return create(id, schema, spec, tableConfig.partitionBy(), props);
  }

  /**
   * Creates the table in its namespace, created first when missing, and reads it back from the
   * catalog: a creation of the namespace failing at the same moment in another worker can take the
   * new table's metadata with it (a Hive Metastore deletes the folder of a database whose creation
   * lost a race, recursively), leaving the table registered and unreadable. Such a table, created
   * by this call and holding nothing yet, is unregistered (its files kept) and created again.
   *
   * @param partitioning the partitioning as the log tells it
   */
  private Table create(
      TableIdentifier id,
      Schema schema,
      PartitionSpec spec,
      Object partitioning,
      Map<String, String> props) {
    Namespaces.createMissing(catalog, id.namespace());
    for (int creation = 1; ; creation++) {
      Optional<Table> created = createOrNone(id, schema, spec, props);
      if (created.isEmpty()) {
        LOG.info("Table {} was created concurrently; loading it", id);
        return catalog.loadTable(id);
      }
      LOG.info(
          "Created table {} (partitioned by {}, identifier fields {}) with schema {}",
          id,
          partitioning,
          created.get().schema().identifierFieldNames(),
          created.get().schema().asStruct());
      try {
        return catalog.loadTable(id);
      } catch (NotFoundException e) {
        if (creation >= MAX_CREATIONS) {
          throw e;
        }
        LOG.warn(
            "Table {} lost its metadata just after it was created ({}): the folder of its"
                + " namespace was deleted, as a Hive Metastore does when a creation of the"
                + " namespace fails at the same moment. The table holds nothing yet; creating it"
                + " again.",
            id,
            config.secrets().mask(e.getMessage()));
        catalog.dropTable(id, false);
      }
    }
  }

  /** The table created, or none when it was created concurrently. */
  private Optional<Table> createOrNone(
      TableIdentifier id, Schema schema, PartitionSpec spec, Map<String, String> props) {
    try {
      return Optional.of(
          catalog.buildTable(id, schema).withPartitionSpec(spec).withProperties(props).create());
    } catch (RuntimeException e) {
      // AlreadyExistsException from most catalogs; some (JDBC) fail on their unique key instead
      if (e instanceof AlreadyExistsException || catalog.tableExists(id)) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
