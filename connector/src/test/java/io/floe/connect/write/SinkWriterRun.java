/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.config.FloeSinkConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A {@link SinkWriter} on Iceberg's in-memory catalog, as the task wires it, with a recording
 * bad-record outcome: write records, hand over, commit the files, read the tables back.
 */
final class SinkWriterRun implements AutoCloseable {
  static final String TOPIC = "events";

  /** A record the writer refused: its offset, the table (null if none) and the message. */
  record Refused(long offset, String table, String message) {}

  private final InMemoryCatalog catalog = new InMemoryCatalog();
  private final FloeSinkConfig config;
  private final List<Refused> refused = new ArrayList<>();
  private final List<Long> tombstones = new ArrayList<>();
  private HandOver lastHandOver;

  /** A run with auto-create and schema evolution on, writing {@code db.t} unless told otherwise. */
  SinkWriterRun(Map<String, String> settings) {
    catalog.initialize("mem", Map.of("warehouse", "mem://" + UUID.randomUUID()));
    catalog.createNamespace(Namespace.of("db"));
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.tables", "db.t");
    props.put("iceberg.tables.auto-create-enabled", "true");
    props.put("iceberg.tables.evolve-schema-enabled", "true");
    props.put("iceberg.catalog.type", "rest");
    props.putAll(settings);
    config = new FloeSinkConfig(props);
  }

  SinkWriterRun() {
    this(Map.of());
  }

  /** Creates {@code db.<name>} with this schema before anything is written. */
  Table createTable(String name, Schema schema) {
    return catalog.createTable(
        TableIdentifier.of("db", name), schema, PartitionSpec.unpartitioned(), Map.of());
  }

  /** Writes the records in one batch, hands over, and commits every table's files. */
  SinkWriterRun write(List<SinkRecord> records) {
    SinkWriter.RecordOutcomes outcomes =
        new SinkWriter.RecordOutcomes() {
          @Override
          public void tombstone(SinkRecord record) {
            tombstones.add(record.kafkaOffset());
          }

          @Override
          public void failed(SinkRecord record, String table, RuntimeException cause) {
            refused.add(new Refused(record.kafkaOffset(), table, cause.getMessage()));
          }
        };
    try (SinkWriter writer = SinkWriter.forTask(config, catalog, outcomes)) {
      writer.write(records);
      lastHandOver = writer.handOver();
    }
    for (TableFiles files : lastHandOver.tables()) {
      Table table = catalog.loadTable(files.files().table());
      AppendFiles append = table.newAppend();
      files.files().dataFiles().forEach(append::appendFile);
      append.commit();
    }
    return this;
  }

  /** A value record at {@code offset} of partition 0, without key. */
  static SinkRecord record(long offset, org.apache.kafka.connect.data.Schema schema, Object value) {
    return new SinkRecord(TOPIC, 0, null, null, schema, value, offset);
  }

  /** A schemaless record at {@code offset}. */
  static SinkRecord schemaless(long offset, Map<String, Object> value) {
    return record(offset, null, value);
  }

  /** The rows of {@code db.<name>}. */
  List<Record> rows(String name) {
    return rows(name, Expressions.alwaysTrue());
  }

  /** The rows of {@code db.<name>} that match {@code filter}. */
  List<Record> rows(String name, Expression filter) {
    Table table = table(name);
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> scan = IcebergGenerics.read(table).where(filter).build()) {
      scan.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The rows of {@code db.<name>} by the value of their {@code id} column. */
  Map<Long, Record> rowsById(String name) {
    Map<Long, Record> byId = new TreeMap<>();
    for (Record row : rows(name)) {
      byId.put(((Number) row.getField("id")).longValue(), row);
    }
    return byId;
  }

  Table table(String name) {
    return catalog.loadTable(TableIdentifier.of("db", name));
  }

  List<Refused> refused() {
    return refused;
  }

  List<Long> tombstones() {
    return tombstones;
  }

  /** The next offset to read of partition 0 after the last hand-over. */
  long nextOffset() {
    return lastHandOver.positions().get(new TopicPartition(TOPIC, 0)).nextOffset();
  }

  @Override
  public void close() throws IOException {
    catalog.close();
  }
}
