/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record that carries no change Floe can apply: a bad record, for the bad-record policy (a {@link
 * DataException}, as the write path's other bad records are). The message names the record's origin
 * (topic, partition, offset) and the field at fault, never a value.
 */
public final class BadChangeException extends DataException {
  private static final long serialVersionUID = 1L;

  /** The field shown when the record key as a whole is at fault. */
  public static final String RECORD_KEY = "(record key)";

  private final String field;

  BadChangeException(SinkRecord record, String field, String reason) {
    super(
        String.format(
            "Cannot read a change from the record at topic %s, partition %d, offset %d:"
                + " field '%s' %s",
            record.originalTopic(),
            record.originalKafkaPartition(),
            record.originalKafkaOffset(),
            field,
            reason));
    this.field = field;
  }

  /** The field at fault: a dotted path, or {@link #RECORD_KEY}. */
  public String field() {
    return field;
  }
}
