/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.write.SinkWriter;
import org.apache.kafka.connect.sink.SinkRecord;

/** Record outcomes for tests whose every record is good: a bad one fails the test. */
final class NoBadRecords implements SinkWriter.RecordOutcomes {
  @Override
  public void tombstone(SinkRecord record) {
    throw new AssertionError("unexpected tombstone " + record);
  }

  @Override
  public void failed(SinkRecord record, String table, RuntimeException cause) {
    throw new AssertionError("unexpected bad record " + record, cause);
  }
}
