/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.catalog.TableProvider;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.ContractChecker;
import io.floe.connect.contract.UniqueKeys;
import io.floe.connect.convert.AbsentField;
import io.floe.connect.convert.ConnectSchemas;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.ConverterCache;
import io.floe.connect.convert.FormerNames;
import io.floe.connect.convert.KafkaMetadataColumn;
import io.floe.connect.convert.RecordConverter;
import io.floe.connect.convert.RecordConverters;
import io.floe.connect.convert.SchemaInference;
import io.floe.connect.schema.AddColumn;
import io.floe.connect.schema.ColumnNames;
import io.floe.connect.schema.SchemaChange;
import io.floe.connect.schema.SchemaDiff;
import io.floe.connect.schema.SchemaEvolver;
import io.floe.connect.schema.SetIdentifierFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables a task writes, each as a {@link TableState}: the table as loaded (or created for its
 * first record), its writer, and the converters of its current schema. A record that brings fields
 * or types the table lacks evolves it (ARCHITECTURE.md, "Writing"): the table's schema is updated,
 * its writer closes its open files and reopens on the new schema, and the record is converted on
 * it.
 *
 * <p>Not thread-safe: used under the {@link SinkWriter}'s caller's lock.
 */
final class TableStates {
  private static final Logger LOG = LoggerFactory.getLogger(TableStates.class);
  private final TableProvider tables;
  private final WriterPool pool;
  private final ConvertOptions convertOptions;
  private final Optional<String> metadataColumn;
  private final boolean evolveSchemas;
  private final KeyColumns keyColumns;
  private final Function<String, Optional<Contract>> contracts;
  private final Map<String, TableState> states = new HashMap<>();
  private long schemaChanges;

  /**
   * @param metadataColumn the Kafka metadata column every table gets, if any
   * @param evolveSchemas whether records may add and widen the tables' columns
   * @param keyColumns the tables' key columns, which become their identifier fields
   * @param contracts each table's contract, by its name, if it has one
   */
  TableStates(
      TableProvider tables,
      WriterPool pool,
      ConvertOptions convertOptions,
      Optional<String> metadataColumn,
      boolean evolveSchemas,
      KeyColumns keyColumns,
      Function<String, Optional<Contract>> contracts) {
    this.tables = tables;
    this.contracts = contracts;
    this.pool = pool;
    this.convertOptions = convertOptions;
    this.metadataColumn = metadataColumn;
    this.evolveSchemas = evolveSchemas;
    this.keyColumns = keyColumns;
  }

  /** The state of table {@code name}, which is loaded, or created for {@code record}'s schema. */
  TableState state(String name, SinkRecord record) {
    TableState state = states.get(name);
    if (state == null) {
      state =
          newState(
              name,
              tables
                  .load(name)
                  .orElseGet(
                      () ->
                          tables.loadOrCreate(name, schemaFor(name, record), keyColumns.of(name))));
    }
    return state;
  }

  /**
   * The state of a table whose schema and partition spec Floe sets (a quarantine table): loaded, or
   * created with them. It gets neither the Kafka metadata column nor identifier fields. A loaded
   * table that lacks an optional top-level column of {@code schema} (one a later version of Floe
   * added) gets it.
   */
  TableState fixed(String name, Schema schema, PartitionSpec spec) {
    TableState state = states.get(name);
    if (state == null) {
      Table table = tables.loadOrCreateFixed(name, schema, spec);
      state = new TableState(name, table, pool.writerFor(TableIdentifier.parse(name), id -> table));
      state.evolve(current -> missingOptionalColumns(schema, current));
      states.put(name, state);
    }
    return state;
  }

  private static List<SchemaChange> missingOptionalColumns(Schema wanted, Schema current) {
    List<SchemaChange> missing = new ArrayList<>();
    for (Types.NestedField column : wanted.columns()) {
      if (column.isOptional() && current.findField(column.name()) == null) {
        missing.add(new AddColumn(null, column.name(), column.type(), column.doc()));
      }
    }
    return missing;
  }

  /** The state of a table that exists, or null. */
  TableState existingState(String name) {
    TableState state = states.get(name);
    if (state == null) {
      Optional<Table> table = tables.load(name);
      state = table.isPresent() ? newState(name, table.get()) : null;
    }
    return state;
  }

  /** The state of a table this task loaded already, or null. */
  TableState loaded(String name) {
    return states.get(name);
  }

  private TableState newState(String name, Table table) {
    TableWriter writer = pool.writerFor(TableIdentifier.parse(name), id -> table);
    TableState state = new TableState(name, table, writer);
    if (evolveSchemas && metadataColumn.isPresent()) {
      state.addMetadataColumn(metadataColumn.get());
    }
    List<String> idColumns = keyColumns.of(name);
    state.evolve(schema -> SetIdentifierFields.toMatch(name, schema, idColumns));
    states.put(name, state);
    return state;
  }

  private Schema schemaFor(String name, SinkRecord record) {
    Schema schema =
        record.valueSchema() != null
            ? ConnectSchemas.toIcebergSchema(record.valueSchema(), convertOptions)
            : SchemaInference.inferSchema(record.value());
    ColumnNames.checkNew(name, null, schema);
    return metadataColumn.map(column -> KafkaMetadataColumn.addTo(schema, column)).orElse(schema);
  }

  /**
   * The table a hand-over's files of table {@code id} were written to: the state's of that name,
   * else the one whose writer writes {@code id}.
   */
  Table table(TableIdentifier id) {
    TableState named = states.get(id.toString());
    if (named != null) {
      return named.table;
    }
    for (TableState state : states.values()) {
      if (state.writer.identifier().equals(id)) {
        return state.table;
      }
    }
    throw new IllegalStateException("no writer state for table " + id);
  }

  /** Takes every table's writer from the pool again, after the pool was reset. */
  void reopenWriters() {
    for (TableState state : states.values()) {
      state.writer = pool.writerFor(TableIdentifier.parse(state.name), id -> state.table);
    }
  }

  /** The schema changes the records made, from the creation of these states. */
  long schemaChanges() {
    return schemaChanges;
  }

  void clear() {
    states.clear();
  }

  /**
   * Forgets the values of unique fields written so far: the rule holds within one hand-over (a
   * commit cycle), and the writes since the last one are handed over or dropped.
   */
  void forgetUniqueValues() {
    for (TableState state : states.values()) {
      if (state.uniqueKeys != null) {
        state.uniqueKeys.clear();
      }
    }
  }

  /** The heap the values of unique fields written since the last hand-over take. */
  long uniqueValueBytes() {
    long bytes = 0;
    for (TableState state : states.values()) {
      if (state.uniqueKeys != null) {
        bytes += state.uniqueKeys.heldBytes();
      }
    }
    return bytes;
  }

  /** A table as this task writes it: its writer and the converters for its current schema. */
  final class TableState {
    private final String name;
    private final Table table;
    private TableWriter writer;
    private final ConverterCache converters;
    private final Contract contract;
    private ContractChecker checker;
    private final UniqueKeys uniqueKeys;
    private KafkaMetadataColumn metadata;
    private int boundSchemaId = -1;
    private Schema keySchema;
    private int keySchemaOf = -1;
    private final Map<org.apache.kafka.connect.data.Schema, Integer> compatibleAt =
        new IdentityHashMap<>();

    TableState(String name, Table table, TableWriter writer) {
      this.name = name;
      this.table = table;
      this.writer = writer;
      this.converters =
          new ConverterCache(
              ConverterCache.DEFAULT_MAX_ENTRIES,
              RecordConverters.factory(convertOptions, this::formerNames));
      this.contract = contracts.apply(name).orElse(null);
      UniqueKeys keys = contract == null ? null : new UniqueKeys(name, contract);
      this.uniqueKeys = keys != null && keys.any() ? keys : null;
    }

    Table table() {
      return table;
    }

    TableWriter writer() {
      return writer;
    }

    /**
     * The writer's schema narrowed to its identifier fields, built once per schema: every key of
     * the table is a row of it (a schema built per record would also fill Iceberg's per-type caches
     * of generic records).
     */
    Schema keySchema() {
      Schema schema = writer.schema();
      if (keySchema == null || keySchemaOf != schema.schemaId()) {
        keySchema = UpsertBuffer.keySchema(schema);
        keySchemaOf = schema.schemaId();
      }
      return keySchema;
    }

    Record convert(SinkRecord record) {
      if (evolveSchemas) {
        evolveFor(record);
      }
      Schema schema = writer.schema();
      RecordConverter converter = converters.get(record.valueSchema(), schema);
      Record row = converter.convert(record.value());
      if (metadataColumn.isPresent()) {
        if (boundSchemaId != schema.schemaId() || metadata == null) {
          metadata = KafkaMetadataColumn.bind(schema, metadataColumn.get());
          boundSchemaId = schema.schemaId();
        }
        metadata.fill(row, record);
      }
      if (contract != null) {
        ContractChecker checker = checker(schema);
        checker.check(row);
        if (uniqueKeys != null) {
          checker.checkUnique(row, uniqueKeys);
        }
      }
      return row;
    }

    /** The row {@link #convert} last returned was written: its unique values are taken. */
    void written() {
      if (uniqueKeys != null) {
        uniqueKeys.admit();
      }
    }

    /**
     * The table's contract compiled for the rows of {@code schema}: once per schema, telling once
     * where the table does not match the contract.
     */
    private ContractChecker checker(Schema schema) {
      if (checker == null || checker.schemaId() != schema.schemaId()) {
        checker = ContractChecker.compile(name, contract, schema);
        for (String problem : checker.problems()) {
          LOG.warn(
              "Table {} does not match its contract {}, so every record breaks a rule: {}",
              name,
              contract.describe(),
              problem);
        }
      }
      return checker;
    }

    /**
     * Evolves the table when the record has fields or types it lacks. A record schema found
     * compatible with the current table schema is remembered (by identity), so records of
     * interleaved schema versions cost one map lookup each, and older versions write into the same
     * files once the table holds the union of their fields.
     *
     * @throws io.floe.connect.schema.IncompatibleSchemaException (a bad record) if no safe change
     *     makes the table accept the record; the table is untouched
     */
    private void evolveFor(SinkRecord record) {
      org.apache.kafka.connect.data.Schema valueSchema = record.valueSchema();
      int tableSchemaId = writer.schema().schemaId();
      if (valueSchema == null) {
        List<AbsentField> absent =
            converters.get(null, writer.schema()).absentFromTable(record.value());
        if (!absent.isEmpty()) {
          Object value = record.value();
          evolve(
              schema -> SchemaDiff.additions(converters.get(null, schema).absentFromTable(value)));
        }
        return;
      }
      Integer checkedAt = compatibleAt.get(valueSchema);
      if (checkedAt != null && checkedAt == tableSchemaId) {
        return;
      }
      Schema current = writer.schema();
      if (!SchemaDiff.between(name, valueSchema, current, formerNames(current), convertOptions)
          .isEmpty()) {
        evolve(
            schema ->
                SchemaDiff.between(name, valueSchema, schema, formerNames(schema), convertOptions));
      }
      if (compatibleAt.size() >= ConverterCache.DEFAULT_MAX_ENTRIES) {
        compatibleAt.clear();
      }
      compatibleAt.put(valueSchema, writer.schema().schemaId());
    }

    /**
     * The names the columns of {@code schema} had in the table's earlier schemas, so that records
     * of a version older than a rename write into the renamed column.
     */
    private FormerNames formerNames(Schema schema) {
      return FormerNames.of(table.schemas().values(), schema);
    }

    /** Adds the Kafka metadata column to a table that lacks it. */
    private void addMetadataColumn(String column) {
      if (table.schema().findField(column) != null) {
        return;
      }
      evolve(
          schema ->
              schema.findField(column) != null
                  ? List.of()
                  : List.of(
                      new AddColumn(
                          null,
                          column,
                          KafkaMetadataColumn.addTo(schema, column).findField(column).type(),
                          "Where the row came from in Kafka")));
    }

    private void evolve(Function<Schema, List<SchemaChange>> diff) {
      Schema evolved = SchemaEvolver.evolve(table, diff, pool.secrets()::describe);
      if (evolved.schemaId() != writer.schema().schemaId()) {
        writer.reopen(table);
        schemaChanges++;
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
