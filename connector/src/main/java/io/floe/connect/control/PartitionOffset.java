/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * A source partition's position as a worker reports it in {@link DataComplete}. Topic and partition
 * are the record's origin ({@code originalTopic()}, {@code originalKafkaPartition()}), so that
 * topic-renaming transforms do not break exactly-once.
 *
 * <p>Avro schema (an item of {@code DataComplete.assignments}): {@code record PartitionOffset {
 * string topic; int partition; union {null, long} offset = null; union {null, long} maxTimestampMs
 * = null; }}
 *
 * @param topic the source topic
 * @param partition the source partition
 * @param offset the next offset to consume, i.e. the last written offset + 1; {@code null} when the
 *     worker has consumed nothing from the partition yet
 * @param maxTimestampMs the largest record timestamp seen in the partition, for the event-time
 *     watermark; {@code null} when none was seen or the records carry no timestamp
 */
public record PartitionOffset(String topic, int partition, Long offset, Long maxTimestampMs) {

  public PartitionOffset {
    Require.nonEmpty(topic, "topic");
    Require.nonNegative(partition, "partition");
    Require.nonNegativeOrNull(offset, "offset");
    Require.nonNegativeOrNull(maxTimestampMs, "maxTimestampMs");
  }
}
