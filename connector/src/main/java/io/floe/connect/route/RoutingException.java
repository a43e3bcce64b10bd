/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.route;

import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record that cannot be routed to any table: a bad record, for the bad-record policy. The message
 * names the record's origin (topic, partition, offset) and the route field, never the record's
 * content.
 */
public class RoutingException extends DataException {

  RoutingException(SinkRecord record, String reason) {
    super(
        String.format(
            "Cannot route the record at topic %s, partition %d, offset %d: %s",
            record.originalTopic(),
            record.originalKafkaPartition(),
            record.originalKafkaOffset(),
            reason));
  }
}
