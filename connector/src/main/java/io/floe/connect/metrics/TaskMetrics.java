/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The metrics of one task, MBean {@code io.floe:type=task-metrics,connector=<c>,task=<n>}.
 *
 * <p>Cheap on the record path: the task thread adds a batch's size to a field and publishes the
 * writers' {@link WriterCounts} once per batch and once per hand-over; readers (JMX, Connect) see
 * the last published values.
 */
public final class TaskMetrics implements AutoCloseable {
  static final String TYPE = "task-metrics";

  private final MetricsRegistry.Registration registration;
  private volatile long recordsReceived;
  private volatile WriterCounts writers = WriterCounts.NONE;

  /**
   * Registers the metrics of a task.
   *
   * @param taskIndex the task's number
   * @param memoryBudgetBytes the writers' memory budget
   * @param skipped records skipped so far (tombstones); thread-safe
   * @param deadLettered records sent to the dead-letter path so far; thread-safe
   */
  public TaskMetrics(
      MetricsRegistry registry,
      int taskIndex,
      long memoryBudgetBytes,
      LongSupplier skipped,
      LongSupplier deadLettered) {
    GaugeSet gauges =
        new GaugeSet()
            .add("records-received", "Records Connect passed to the task", () -> recordsReceived)
            .add(
                "records-written",
                "Rows written to data files (a record for two tables counts twice)",
                () -> writers.recordsWritten())
            .add("records-skipped", "Tombstones skipped", skipped)
            .add("records-dead-lettered", "Bad records sent to the dead-letter path", deadLettered)
            .add(
                "conversion-errors",
                "Records that could not be converted to a table's row",
                () -> writers.conversionErrors())
            .add(
                "contract-violations",
                "Records whose row broke a rule of its table's contract",
                () -> writers.contractViolations())
            .add(
                "contract-rejects-quarantined",
                "Records whose row broke a rule of its table's contract, written to the table's"
                    + " quarantine table",
                () -> writers.contractRejectsQuarantined())
            .add(
                "schema-changes",
                "Times a table writer moved to a new table schema",
                () -> writers.schemaChanges())
            .add("bytes-written", "Bytes of finished data files", () -> writers.bytesWritten())
            .add("open-files", "Data files open now", () -> writers.openFiles())
            .add(
                "buffered-bytes",
                "Estimated heap the open data files hold now",
                () -> writers.bufferedBytes())
            .add("memory-budget-bytes", "The writers' memory budget", () -> memoryBudgetBytes)
            .add(
                "files-closed-for-memory",
                "Data files closed early to keep within the memory budget",
                () -> writers.filesClosedForMemory())
            .add(
                "files-closed-for-open-files",
                "Data files closed early to keep within the open-file limit",
                () -> writers.filesClosedForOpenFiles())
            .add(
                "changes-upserted",
                "Records of upsert tables read as an insert or update of a key",
                () -> writers.changesUpserted())
            .add(
                "changes-deleted",
                "Records of upsert tables read as a delete of a key, tombstones included",
                () -> writers.changesDeleted())
            .add(
                "changes-skipped",
                "Records of upsert tables that change no row (Debezium messages, heartbeats,"
                    + " schema-change and transaction records)",
                () -> writers.changesSkipped())
            .add(
                "changes-truncated",
                "Records of upsert tables read as a truncate of the table",
                () -> writers.changesTruncated());
    this.registration =
        registry.register(
            TYPE,
            Map.of("task", Integer.toString(taskIndex)),
            Map.of(),
            "Floe sink task " + registry.connector() + "-" + taskIndex,
            gauges);
  }

  /** Task thread: Connect passed a batch of this many records. */
  public void received(int records) {
    recordsReceived += records;
  }

  /** The writers' owner: publishes their counters. */
  public void writers(WriterCounts counts) {
    writers = counts;
  }

  @Override
  public void close() {
    registration.close();
  }
}
