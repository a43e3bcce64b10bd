/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

/**
 * Counters of a task's writers; the counts run from the pool's creation.
 *
 * @param openFiles data files open now
 * @param bufferedBytesEstimate estimated heap the open files hold now
 * @param pendingDataFiles finished data files waiting for the next hand-over
 * @param filesClosedForMemory open files closed early to stay within the memory budget
 * @param filesClosedForOpenFiles open files closed early to stay within the open-file limit
 * @param recordsWritten records written
 * @param filesWritten data files finished (handed over or not)
 * @param bytesWritten bytes of the finished data files
 */
public record WriterPoolStats(
    int openFiles,
    long bufferedBytesEstimate,
    long pendingDataFiles,
    long filesClosedForMemory,
    long filesClosedForOpenFiles,
    long recordsWritten,
    long filesWritten,
    long bytesWritten) {}
