/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.ControlTopic;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * A table was last committed through another control topic than the current one of the same name:
 * the control topic (or the Kafka cluster) was recreated, so positions stored in the table mean
 * nothing here (ARCHITECTURE.md, "Never healthy while not committing").
 */
public final class ControlTopicChangedException extends ConnectException {
  private static final long serialVersionUID = 1L;

  ControlTopicChangedException(String table, ControlTopic current, String storedTopicId) {
    super(
        "Table "
            + table
            + " was last committed by this connector through control topic id "
            + storedTopicId
            + ", but control topic "
            + current.name()
            + " now has id "
            + current.id()
            + ": the control topic or the Kafka cluster was recreated, so the positions stored"
            + " in the table do not apply to it. Events reported on the old topic and not yet"
            + " committed cannot be recovered from it. Compare the table with the source topics;"
            + " to go on, run the connector under a new name (its marks are kept per Connect"
            + " group) with consumer offsets set where the table ends");
  }
}
