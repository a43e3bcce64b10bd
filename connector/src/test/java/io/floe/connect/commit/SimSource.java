/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The source topic: partitions whose logs grow as the schedule produces records. Each record's
 * value names where it came from (topic, partition, offset), so the tables show each record's
 * origin; its timestamp is the time it was produced.
 *
 * <p>A changing source ({@link #changes}) is a table's change stream instead, as Debezium's {@code
 * ExtractNewRecordState} flattens it: every record is keyed by a {@code key} that lives in one
 * partition only, and is an insert or update ({@code __op} {@code c}, {@code r} or {@code u}) or a
 * delete ({@code d}), now and then followed by a tombstone. Its final state ({@link #finalState})
 * is what a table in upsert mode must mirror.
 */
final class SimSource {
  static final String TOPIC = "orders";
  static final Schema VALUE =
      SchemaBuilder.struct()
          .field("topic", Schema.STRING_SCHEMA)
          .field("partition", Schema.INT32_SCHEMA)
          .field("offset", Schema.INT64_SCHEMA)
          .build();
  static final Schema KEY = SchemaBuilder.struct().field("key", Schema.INT64_SCHEMA).build();
  static final Schema CHANGE =
      SchemaBuilder.struct()
          .field("topic", Schema.STRING_SCHEMA)
          .field("partition", Schema.INT32_SCHEMA)
          .field("offset", Schema.INT64_SCHEMA)
          .field("key", Schema.INT64_SCHEMA)
          .field("__op", Schema.STRING_SCHEMA)
          .build();

  /** A change record: its key, and its op ({@code null} for a tombstone). */
  private record Change(long key, String op) {}

  /** The key field of a truncate, which has no record key. */
  private static final long TRUNCATED = -1;

  private final List<TopicPartition> partitions = new ArrayList<>();
  private final Map<TopicPartition, List<Long>> timestamps = new HashMap<>();
  private final Map<TopicPartition, List<Change>> changes;
  private final int keysPerPartition;

  private final boolean truncates;

  private SimSource(int partitionCount, int keysPerPartition, boolean truncates) {
    this.truncates = truncates;
    for (int p = 0; p < partitionCount; p++) {
      TopicPartition partition = new TopicPartition(TOPIC, p);
      partitions.add(partition);
      timestamps.put(partition, new ArrayList<>());
    }
    this.keysPerPartition = keysPerPartition;
    this.changes = keysPerPartition > 0 ? new HashMap<>() : null;
    if (changes != null) {
      partitions.forEach(partition -> changes.put(partition, new ArrayList<>()));
    }
  }

  /** A source of plain records, each its own row. */
  SimSource(int partitionCount) {
    this(partitionCount, 0, false);
  }

  /**
   * A change stream over {@code keysPerPartition} keys in each partition, now and then with a
   * truncate ({@code __op} {@code t}, no key) if {@code truncates}.
   */
  static SimSource changes(int partitionCount, int keysPerPartition, boolean truncates) {
    return new SimSource(partitionCount, keysPerPartition, truncates);
  }

  boolean changing() {
    return changes != null;
  }

  /**
   * Whether a truncate may have removed rows of other partitions' keys that are still live at the
   * source: the source has truncates and more than one partition.
   */
  boolean truncatesAcrossPartitions() {
    return truncates && partitions.size() > 1;
  }

  List<TopicPartition> partitions() {
    return partitions;
  }

  void produce(TopicPartition partition, int count, long timestampMs, Random random) {
    List<Long> log = timestamps.get(partition);
    for (int i = 0; i < count; i++) {
      log.add(timestampMs);
      if (changes != null) {
        List<Change> stream = changes.get(partition);
        long key =
            (long) random.nextInt(keysPerPartition) * partitions.size() + partition.partition();
        Change last = stream.isEmpty() ? null : stream.get(stream.size() - 1);
        if (truncates && random.nextInt(100) < 3) {
          stream.add(new Change(TRUNCATED, "t"));
          continue;
        }
        int roll = random.nextInt(100);
        if (last != null && "d".equals(last.op()) && roll < 40) {
          stream.add(new Change(last.key(), null)); // the tombstone after a delete
        } else if (roll < 22) {
          stream.add(new Change(key, "d"));
        } else if (roll < 25) {
          stream.add(new Change(key, null)); // a tombstone alone deletes the key too
        } else {
          stream.add(new Change(key, roll < 35 ? "r" : roll < 65 ? "c" : "u"));
        }
      }
    }
  }

  /** The offset the next record of the partition gets. */
  long end(TopicPartition partition) {
    return timestamps.get(partition).size();
  }

  SinkRecord record(TopicPartition partition, long offset) {
    long timestamp = timestamps.get(partition).get((int) offset);
    if (changes == null) {
      Struct value =
          new Struct(VALUE)
              .put("topic", partition.topic())
              .put("partition", partition.partition())
              .put("offset", offset);
      return new SinkRecord(
          partition.topic(),
          partition.partition(),
          null,
          null,
          VALUE,
          value,
          offset,
          timestamp,
          TimestampType.CREATE_TIME);
    }
    Change change = changes.get(partition).get((int) offset);
    Struct value =
        change.op() == null
            ? null
            : new Struct(CHANGE)
                .put("topic", partition.topic())
                .put("partition", partition.partition())
                .put("offset", offset)
                .put("key", change.key())
                .put("__op", change.op());
    return new SinkRecord(
        partition.topic(),
        partition.partition(),
        KEY,
        "t".equals(change.op()) ? null : new Struct(KEY).put("key", change.key()),
        value == null ? null : CHANGE,
        value,
        offset,
        timestamp,
        TimestampType.CREATE_TIME);
  }

  /**
   * What a table mirroring a changing source holds once every record is applied: each live key with
   * the partition and offset of its last change; a truncate removes the keys of its own partition.
   */
  Map<Long, TopicPartitionOffset> finalState() {
    Map<Long, TopicPartitionOffset> state = new LinkedHashMap<>();
    for (TopicPartition partition : partitions) {
      List<Change> stream = changes.get(partition);
      for (int offset = 0; offset < stream.size(); offset++) {
        Change change = stream.get(offset);
        if ("t".equals(change.op())) {
          // the partition's own keys: those of others may or may not outlive it (the order of a
          // truncate against other partitions' changes is unknown)
          state.values().removeIf(last -> last.partition().equals(partition));
        } else if (change.op() == null || change.op().equals("d")) {
          state.remove(change.key());
        } else {
          state.put(change.key(), new TopicPartitionOffset(partition, offset));
        }
      }
    }
    return state;
  }

  /** Where a row came from. */
  record TopicPartitionOffset(TopicPartition partition, long offset) {
    @Override
    public String toString() {
      return partition + "@" + offset;
    }
  }
}
