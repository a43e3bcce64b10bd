/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 */
final class SimSource {
  static final String TOPIC = "orders";
  static final Schema VALUE =
      SchemaBuilder.struct()
          .field("topic", Schema.STRING_SCHEMA)
          .field("partition", Schema.INT32_SCHEMA)
          .field("offset", Schema.INT64_SCHEMA)
          .build();

  private final List<TopicPartition> partitions = new ArrayList<>();
  private final Map<TopicPartition, List<Long>> timestamps = new HashMap<>();

  SimSource(int partitionCount) {
    for (int p = 0; p < partitionCount; p++) {
      TopicPartition partition = new TopicPartition(TOPIC, p);
      partitions.add(partition);
      timestamps.put(partition, new ArrayList<>());
    }
  }

  List<TopicPartition> partitions() {
    return partitions;
  }

  void produce(TopicPartition partition, int count, long timestampMs) {
    List<Long> log = timestamps.get(partition);
    for (int i = 0; i < count; i++) {
      log.add(timestampMs);
    }
  }

  /** The offset the next record of the partition gets. */
  long end(TopicPartition partition) {
    return timestamps.get(partition).size();
  }

  SinkRecord record(TopicPartition partition, long offset) {
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
        timestamps.get(partition).get((int) offset),
        TimestampType.CREATE_TIME);
  }
}
