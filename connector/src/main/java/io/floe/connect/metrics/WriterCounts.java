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
 * @param schemaChanges times a writer moved to a new table schema
 */
public record WriterCounts(
    long recordsWritten,
    long bytesWritten,
    int openFiles,
    long bufferedBytes,
    long filesClosedForMemory,
    long filesClosedForOpenFiles,
    long conversionErrors,
    long schemaChanges) {

  /** Nothing written yet. */
  public static final WriterCounts NONE = new WriterCounts(0, 0, 0, 0, 0, 0, 0, 0);
}
