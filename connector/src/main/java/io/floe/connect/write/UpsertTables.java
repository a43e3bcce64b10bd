/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.cdc.BadChangeException;
import io.floe.connect.cdc.Change;
import io.floe.connect.cdc.ChangeCounts;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.TableConfig;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.write.TableStates.TableState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What the task's tables in upsert mode do with their records and at the hand-over
 * (ARCHITECTURE.md, "Upsert commits"). A table's records are changes of keys, read and converted
 * when they come, their images written through the table's writer and the changes folded by the
 * table's {@link UpsertBuffer} (made at its first record) until the hand-over, which writes the
 * retired keys to a key file and the superseded images' positions beside it ({@link KeyFiles}).
 * When no table is in upsert mode this holds nothing.
 *
 * <p>Not thread-safe: used under the {@link SinkWriter}'s caller's lock.
 */
final class UpsertTables {
  private final FloeSinkConfig config;
  private final ConvertOptions convertOptions;
  private final TableStates states;
  private final KeyColumns keyColumns;
  private final Map<String, Optional<UpsertBuffer>> upserts = new LinkedHashMap<>();

  UpsertTables(
      FloeSinkConfig config,
      ConvertOptions convertOptions,
      TableStates states,
      KeyColumns keyColumns) {
    this.config = config;
    this.convertOptions = convertOptions;
    this.states = states;
    this.keyColumns = keyColumns;
  }

  /**
   * A change read and converted, to write and fold in once every table of the record took it.
   *
   * @param writer the table's writer, for an upsert; else null
   */
  record FoldedChange(
      UpsertBuffer buffer,
      Change change,
      TableWriter writer,
      Record row,
      Record key,
      int schemaId) {
    void fold() {
      buffer.add(change, writer, row, key, schemaId);
    }
  }

  /**
   * A table's key files of a hand-over (its key file, and the file of the rows it superseded if
   * any), and the sources of its changes.
   */
  record KeyHandOver(List<DeleteFile> keyFiles, ChangeSources sources) {}

  /** The table's upsert buffer, or null if the table appends. */
  UpsertBuffer buffer(String table) {
    Optional<UpsertBuffer> upsert = upserts.get(table);
    if (upsert == null) {
      TableConfig tableConfig = config.tableConfig(table);
      upsert =
          tableConfig
              .upsert()
              .map(
                  options ->
                      new UpsertBuffer(
                          tableConfig.table(), options, tableConfig.idColumns(), convertOptions));
      upserts.put(table, upsert);
    }
    return upsert.orElse(null);
  }

  /**
   * Reads the change {@code record} makes to an upsert table and converts its image and key; null
   * for a delete or a truncate of a table that does not exist.
   *
   * @throws BadChangeException if the record makes no change (a bad record)
   * @throws org.apache.kafka.connect.errors.DataException if the image or key does not fit the
   *     table (a bad record)
   */
  FoldedChange read(String table, UpsertBuffer upsert, SinkRecord record) {
    Change change = upsert.read(record);
    keyColumns.learn(table, change, record);
    switch (change.kind()) {
      case UPSERT -> {
        TableState state = states.state(table, change.record());
        Record row = state.convert(change.record());
        Schema schema = state.writer().schema();
        Record key = UpsertBuffer.keyOf(row, state.keySchema());
        return new FoldedChange(upsert, change, state.writer(), row, key, schema.schemaId());
      }
      case DELETE -> {
        TableState state = states.existingState(table);
        if (state == null) {
          return null; // no table yet, so no row to delete
        }
        Schema schema = state.writer().schema();
        Record key = upsert.keyOfDelete(change, state.keySchema());
        return new FoldedChange(upsert, change, null, null, key, schema.schemaId());
      }
      case TRUNCATE -> {
        // without the table there is nothing committed to remove, and nothing folded either (an
        // upsert would have created it)
        return states.existingState(table) == null
            ? null
            : new FoldedChange(upsert, change, null, null, null, -1);
      }
      case SKIP -> {
        return new FoldedChange(upsert, change, null, null, null, -1);
      }
      default -> throw new IllegalStateException("a " + change.kind() + " in table " + table);
    }
  }

  /** Whether no table of the task was found in upsert mode yet. */
  boolean isEmpty() {
    return upserts.isEmpty();
  }

  /**
   * Writes every upsert table's retired keys to a key file, and the rows its changes superseded to
   * a file of their positions; a table that was truncated gets a key file even without retired
   * keys, as it is the key file's manifest that tells the coordinator of the truncate. Call before
   * the writers complete their files.
   */
  Map<TableIdentifier, KeyHandOver> flush() {
    Map<TableIdentifier, KeyHandOver> keyFiles = new HashMap<>();
    for (Map.Entry<String, Optional<UpsertBuffer>> entry : upserts.entrySet()) {
      UpsertBuffer upsert = entry.getValue().orElse(null);
      if (upsert == null) {
        continue;
      }
      if (upsert.isEmpty()) {
        upsert.drop();
        continue;
      }
      TableState state = states.loaded(entry.getKey());
      boolean truncated = upsert.truncated();
      ChangeSources sources = upsert.changeSources();
      TableWriter writer = state.writer();
      UpsertBuffer.Flushed flushed = upsert.flush(writer);
      try {
        if (flushed.anyRetired() || truncated || !flushed.superseded().isEmpty()) {
          Schema schema = writer.schema();
          List<DeleteFile> files = new ArrayList<>(2);
          files.add(
              KeyFiles.write(
                  state.table(),
                  UpsertBuffer.keySchema(schema),
                  schema.identifierFieldIds(),
                  flushed.retired(),
                  config.taskIndex()));
          if (!flushed.superseded().isEmpty()) {
            files.add(
                KeyFiles.writeSuperseded(state.table(), flushed.superseded(), config.taskIndex()));
          }
          keyFiles.put(writer.identifier(), new KeyHandOver(files, sources));
        }
      } finally {
        upsert.drop();
      }
    }
    return keyFiles;
  }

  /** The tables' written files with their key files, and the tables with key files only. */
  static List<WrittenFiles> withKeyFiles(
      List<WrittenFiles> written, Map<TableIdentifier, KeyHandOver> keyFiles) {
    Map<TableIdentifier, KeyHandOver> left = new HashMap<>(keyFiles);
    List<WrittenFiles> all = new ArrayList<>(written.size() + keyFiles.size());
    for (WrittenFiles files : written) {
      KeyHandOver keys = left.remove(files.table());
      all.add(keys == null ? files : files.withKeyFiles(keys.keyFiles(), keys.sources()));
    }
    left.forEach(
        (table, keys) ->
            all.add(new WrittenFiles(table, List.of(), keys.keyFiles(), Map.of(), keys.sources())));
    return all;
  }

  /**
   * Drops the fold of every table that holds a change of one of {@code sources}, and adds the
   * source partitions of each fold dropped to {@code sources} and to {@code dropped}.
   */
  void dropSharing(Set<TopicPartition> sources, Set<TopicPartition> dropped) {
    for (Optional<UpsertBuffer> upsert : upserts.values()) {
      UpsertBuffer buffer = upsert.orElse(null);
      if (buffer != null && !Collections.disjoint(buffer.sources(), sources)) {
        dropped.addAll(buffer.sources());
        sources.addAll(buffer.sources());
        buffer.drop();
      }
    }
  }

  /** Drops every table's folded changes. */
  void dropAll() {
    upserts.values().forEach(upsert -> upsert.ifPresent(UpsertBuffer::drop));
  }

  /** The estimated heap of every table's folded changes. */
  long heldBytes() {
    long bytes = 0;
    for (Optional<UpsertBuffer> upsert : upserts.values()) {
      bytes += upsert.map(UpsertBuffer::heldBytes).orElse(0L);
    }
    return bytes;
  }

  /** The changes an upsert table's records carried, from the creation of these tables. */
  Optional<ChangeCounts> counts(String table) {
    return upserts.getOrDefault(table, Optional.empty()).map(UpsertBuffer::counts);
  }

  /** The changes of each upsert table, from the creation of these tables. */
  List<ChangeCounts> counts() {
    List<ChangeCounts> counts = new ArrayList<>();
    for (Optional<UpsertBuffer> upsert : upserts.values()) {
      upsert.ifPresent(buffer -> counts.add(buffer.counts()));
    }
    return counts;
  }

  void clear() {
    upserts.clear();
  }
}
