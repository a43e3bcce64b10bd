/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

/**
 * A task's writer counters at one moment, published by the thread that owns the writers (the
 * writers themselves are not thread-safe). Counts run from the task's start.
 *
 * @param recordsWritten rows written to data files (a record routed to two tables counts twice)
 * @param bytesWritten bytes of finished data files
 * @param openFiles data files open now
 * @param bufferedBytes estimated heap the open files hold now
 * @param filesClosedForMemory files closed early to keep within the memory budget
 * @param filesClosedForOpenFiles files closed early to keep within the open-file limit
 * @param conversionErrors records that could not be converted to a table's row
 * @param contractViolations records refused because their row broke a rule of the table's contract
 * @param contractRejectsQuarantined of those, the records written to the table's quarantine table
 * @param schemaChanges times a writer moved to a new table schema
 * @param changesUpserted records of upsert tables read as an insert or update of a key
 * @param changesDeleted records of upsert tables read as a delete of a key (tombstones included)
 * @param changesSkipped records of upsert tables that change no row (Debezium messages, heartbeats,
 *     schema-change and transaction records)
 * @param changesTruncated records of upsert tables read as a truncate of the table
 */
public record WriterCounts(
    long recordsWritten,
    long bytesWritten,
    int openFiles,
    long bufferedBytes,
    long filesClosedForMemory,
    long filesClosedForOpenFiles,
    long conversionErrors,
    long contractViolations,
    long contractRejectsQuarantined,
    long schemaChanges,
    long changesUpserted,
    long changesDeleted,
    long changesSkipped,
    long changesTruncated) {

  /** Nothing written yet. */
  public static final WriterCounts NONE =
      new WriterCounts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
