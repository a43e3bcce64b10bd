/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;

/** Record outcomes that keep each failed record with its table and cause, and skip tombstones. */
final class FailedRecords implements SinkWriter.RecordOutcomes {
  /** A record that could not be written to {@code table}, and why. */
  record Failure(SinkRecord record, String table, RuntimeException cause) {}

  private final List<Failure> failures = new ArrayList<>();

  @Override
  public void tombstone(SinkRecord record) {}

  @Override
  public void failed(SinkRecord record, String table, RuntimeException cause) {
    failures.add(new Failure(record, table, cause));
  }

  /** The failures so far, in the order they came. */
  List<Failure> failures() {
    return failures;
  }
}
