/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.cdc.Change;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.TableConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The key columns of the task's tables: a table's {@code id-columns}, else the fields of the record
 * keys of its changes (Debezium's key struct names the primary key columns), as the first change
 * read told them. They become the table's identifier fields ({@link TableStates}).
 */
final class KeyColumns {
  private final FloeSinkConfig config;
  // key columns learnt from the record keys of upsert tables without id-columns
  private final Map<String, List<String>> learnt = new HashMap<>();

  KeyColumns(FloeSinkConfig config) {
    this.config = config;
  }

  /** The key columns of {@code table}: configured, learnt, or none. */
  List<String> of(String table) {
    List<String> configured = config.tableConfig(table).idColumns();
    return configured.isEmpty() ? learnt.getOrDefault(table, List.of()) : configured;
  }

  /**
   * Learns a table's key columns from a change's key when {@code id-columns} does not give them.
   *
   * @throws org.apache.kafka.connect.errors.DataException (a bad record) if the key has other
   *     fields than the table's earlier changes had
   */
  void learn(String table, Change change, SinkRecord record) {
    if (change.key() == null || !config.tableConfig(table).idColumns().isEmpty()) {
      return;
    }
    List<String> columns = change.key().columns();
    List<String> known = learnt.putIfAbsent(table, columns);
    if (known != null && !known.equals(columns)) {
      throw new org.apache.kafka.connect.errors.DataException(
          "The record key of the record at "
              + record.topic()
              + "-"
              + record.kafkaPartition()
              + " offset "
              + record.kafkaOffset()
              + " has the fields "
              + columns
              + ", while the key columns of table "
              + table
              + " are "
              + known
              + " (from the keys of its earlier changes); set "
              + TableConfig.key(table, TableConfig.ID_COLUMNS)
              + " to read the key from the row instead");
    }
  }
}
