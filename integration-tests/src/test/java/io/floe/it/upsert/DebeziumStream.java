/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.upsert;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A Debezium-shaped change stream of one table, {@code customers(id, name, version)}, as
 * JsonConverter with schemas writes it, and the source table's state it leaves behind (the oracle).
 *
 * <p>It starts with snapshot reads ({@code r}), then mixes updates ({@code u}), deletes ({@code d}
 * followed by a tombstone), creates ({@code c}) and primary-key changes (a {@code d} with header
 * {@code __debezium.newkey}, then a {@code c} of the new key). Like Debezium, it keys every record
 * by the primary key, and each key stays in one partition ({@code id % partitions}).
 */
final class DebeziumStream {
  private static final String ROW_FIELDS =
      "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"version\",\"type\":\"int64\",\"optional\":false}";
  private static final String ROW_SCHEMA =
      "{\"type\":\"struct\",\"name\":\"dbserver1.inventory.customers.Value\",\"optional\":true,"
          + "\"fields\":["
          + ROW_FIELDS
          + "]}";
  private static final String ENVELOPE_SCHEMA =
      "{\"type\":\"struct\",\"name\":\"dbserver1.inventory.customers.Envelope\",\"optional\":false,"
          + "\"fields\":["
          + ROW_SCHEMA.replace("{\"type\"", "{\"field\":\"before\",\"type\"")
          + ","
          + ROW_SCHEMA.replace("{\"type\"", "{\"field\":\"after\",\"type\"")
          + ",{\"field\":\"source\",\"type\":\"struct\",\"optional\":false,"
          + "\"name\":\"io.debezium.connector.postgresql.Source\",\"fields\":["
          + "{\"field\":\"db\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"lsn\",\"type\":\"int64\",\"optional\":true}]},"
          + "{\"field\":\"op\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"ts_ms\",\"type\":\"int64\",\"optional\":true}]}";
  private static final String KEY_SCHEMA =
      "{\"type\":\"struct\",\"name\":\"dbserver1.inventory.customers.Key\",\"optional\":false,"
          + "\"fields\":[{\"field\":\"id\",\"type\":\"int64\",\"optional\":false}]}";

  /** A live row of the source table. */
  record Row(long id, String name, long version) {}

  private final String topic;
  private final int partitions;
  private final Random random;
  private final Map<Long, Row> live = new TreeMap<>();
  private long lsn;
  private long nextId;

  DebeziumStream(String topic, int partitions, long seed) {
    this.topic = topic;
    this.partitions = partitions;
    this.random = new Random(seed);
  }

  /** The snapshot: {@code rows} reads ({@code op=r}) of keys 0 to rows - 1. */
  List<ProducerRecord<String, String>> snapshot(int rows) {
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (long id = 0; id < rows; id++) {
      Row row = new Row(id, "customer-" + id, 0);
      live.put(id, row);
      records.add(change(id, "r", null, row));
    }
    nextId = rows;
    return records;
  }

  /**
   * A part of a snapshot too large to hold at once: reads of keys {@code from} to {@code to - 1}.
   * Call it for consecutive ranges from 0, before any change.
   */
  List<ProducerRecord<String, String>> snapshot(long from, long to) {
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (long id = from; id < to; id++) {
      Row row = new Row(id, "customer-" + id, 0);
      live.put(id, row);
      records.add(change(id, "r", null, row));
    }
    nextId = Math.max(nextId, to);
    return records;
  }

  /** {@code count} changes after the snapshot; deletes come with their tombstones. */
  List<ProducerRecord<String, String>> changes(int count) {
    List<ProducerRecord<String, String>> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long id = (long) random.nextInt((int) nextId + 5);
      Row old = live.get(id);
      int dice = random.nextInt(100);
      if (old == null) {
        Row row = new Row(id, "created-" + id + "-" + i, 0);
        live.put(id, row);
        nextId = Math.max(nextId, id + 1);
        records.add(change(id, "c", null, row));
      } else if (dice < 60) {
        Row row = new Row(id, "updated-" + id + "-" + i, old.version() + 1);
        live.put(id, row);
        records.add(change(id, "u", old, row));
      } else if (dice < 90) {
        live.remove(id);
        records.add(change(id, "d", old, null));
        records.add(tombstone(id));
      } else {
        long newId = nextId++;
        Row moved = new Row(newId, old.name(), old.version() + 1);
        live.remove(id);
        live.put(newId, moved);
        ProducerRecord<String, String> delete = change(id, "d", old, null);
        delete.headers().add(new RecordHeader("__debezium.newkey", key(newId).getBytes()));
        records.add(delete);
        records.add(tombstone(id));
        ProducerRecord<String, String> create = change(newId, "c", null, moved);
        create.headers().add(new RecordHeader("__debezium.oldkey", key(id).getBytes()));
        records.add(create);
      }
    }
    return records;
  }

  /**
   * A truncate ({@code op=t}), as Debezium sends it: no key, no row images, on one partition of the
   * topic. It empties the source table.
   */
  ProducerRecord<String, String> truncate(int partition) {
    live.clear();
    String payload =
        "{\"before\":null,\"after\":null,\"source\":{\"db\":\"inventory\",\"lsn\":"
            + (++lsn)
            + "},\"op\":\"t\",\"ts_ms\":"
            + (1_700_000_000_000L + lsn)
            + "}";
    return new ProducerRecord<>(
        topic, partition, null, "{\"schema\":" + ENVELOPE_SCHEMA + ",\"payload\":" + payload + "}");
  }

  /** The source table now: its live rows by key. */
  Map<Long, Row> live() {
    return Map.copyOf(live);
  }

  private ProducerRecord<String, String> change(long id, String op, Row before, Row after) {
    String payload =
        "{\"before\":"
            + json(before)
            + ",\"after\":"
            + json(after)
            + ",\"source\":{\"db\":\"inventory\",\"lsn\":"
            + (++lsn)
            + "},\"op\":\""
            + op
            + "\",\"ts_ms\":"
            + (1_700_000_000_000L + lsn)
            + "}";
    return new ProducerRecord<>(
        topic,
        partition(id),
        key(id),
        "{\"schema\":" + ENVELOPE_SCHEMA + ",\"payload\":" + payload + "}");
  }

  private ProducerRecord<String, String> tombstone(long id) {
    return new ProducerRecord<>(topic, partition(id), key(id), null);
  }

  private int partition(long id) {
    return (int) (id % partitions);
  }

  private static String key(long id) {
    return "{\"schema\":" + KEY_SCHEMA + ",\"payload\":{\"id\":" + id + "}}";
  }

  private static String json(Row row) {
    if (row == null) {
      return "null";
    }
    return "{\"id\":"
        + row.id()
        + ",\"name\":\""
        + row.name()
        + "\",\"version\":"
        + row.version()
        + "}";
  }
}
