/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.errors;

import io.floe.connect.write.SinkWriter;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/** Skips tombstones and fails the task on any record that cannot be written. */
public final class FailFastOutcomes implements SinkWriter.RecordOutcomes {
  private long tombstones;

  @Override
  public void tombstone(SinkRecord record) {
    tombstones++;
  }

  @Override
  public void failed(SinkRecord record, String table, RuntimeException cause) {
    throw new ConnectException(
        String.format(
            "Cannot write the record at topic %s, partition %d, offset %d%s: %s",
            record.originalTopic(),
            record.originalKafkaPartition(),
            record.originalKafkaOffset(),
            table == null ? "" : " to table " + table,
            cause.getMessage()),
        cause);
  }

  public void awaitReported() {}

  public long tombstones() {
    return tombstones;
  }
}
