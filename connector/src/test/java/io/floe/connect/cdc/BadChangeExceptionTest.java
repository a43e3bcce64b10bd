/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class BadChangeExceptionTest {
  @Test
  void theMessageNamesTheRecordsOriginAndTheField() {
    SinkRecord record =
        new SinkRecord("renamed", 0, null, null, Schema.STRING_SCHEMA, "secret", 5L)
            .newRecord("routed", 1, null, null, Schema.STRING_SCHEMA, "secret", null);
    BadChangeException e = new BadChangeException(record, "name", "is wrong");
    assertThat(e)
        .isInstanceOf(DataException.class)
        .hasMessage(
            "Cannot read a change from the record at topic renamed, partition 0, offset 5:"
                + " field 'name' is wrong");
    assertThat(e.field()).isEqualTo("name");
  }
}
