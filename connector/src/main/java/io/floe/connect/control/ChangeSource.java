/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * In upsert mode, a source partition whose changes a hand-over of a table holds, and whether a
 * truncate was read from it. Topic and partition are the record's origin, as in {@link
 * PartitionOffset}.
 *
 * <p>Avro schema (an item of {@code DataWritten.changeSources}, version 2): {@code record
 * ChangeSource { string topic; int partition; union {null, long} truncatedAt = null; }}
 *
 * @param topic the source topic
 * @param partition the source partition
 * @param truncatedAt the offset of the last truncate read from the partition in the hand-over;
 *     {@code null} when none was
 */
public record ChangeSource(String topic, int partition, Long truncatedAt) {

  public ChangeSource {
    Require.nonEmpty(topic, "topic");
    Require.nonNegative(partition, "partition");
    Require.nonNegativeOrNull(truncatedAt, "truncatedAt");
  }

  /** Whether a truncate was read from the partition. */
  public boolean truncated() {
    return truncatedAt != null;
  }

  /** Whether this and {@code other} are the same source partition. */
  public boolean samePartition(ChangeSource other) {
    return topic.equals(other.topic) && partition == other.partition;
  }

  /** {@code topic-partition}, with {@code @offset} of the truncate when it had one. */
  @Override
  public String toString() {
    return topic + "-" + partition + (truncatedAt == null ? "" : "@" + truncatedAt);
  }
}
