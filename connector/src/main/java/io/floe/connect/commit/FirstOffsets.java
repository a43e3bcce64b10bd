/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/** Where a dropped batch is read again from. */
public final class FirstOffsets {
  private FirstOffsets() {}

  /**
   * Each source partition of the batch with its first offset in it. Records are placed by their
   * original topic, partition and offset, which transformations cannot change and which are what
   * Connect seeks.
   */
  public static Map<TopicPartition, Long> of(Collection<SinkRecord> records) {
    Map<TopicPartition, Long> first = new HashMap<>();
    for (SinkRecord record : records) {
      first.merge(
          new TopicPartition(record.originalTopic(), record.originalKafkaPartition()),
          record.originalKafkaOffset(),
          Math::min);
    }
    return first;
  }
}
