/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.WriterKeys;

/**
 * Limits shared by all table writers of one task.
 *
 * <p>{@code memoryBudgetBytes} bounds the estimated heap held by open data files (see {@link
 * MemoryModel} for how it is estimated). The default, 128 MiB, equals Iceberg's default Parquet
 * row-group size, so one busy partition can still fill a whole row group, and eight tasks fit in
 * Kafka Connect's default 2 GiB worker heap with room left for consumer fetch buffers and the
 * records of a {@code put}.
 *
 * <p>{@code maxOpenFiles} bounds the files open at once, whatever their size: each holds an output
 * stream (a file handle, or an object-store upload) and, for Parquet, about 2 MiB of fixed buffers.
 * The default, 64, is where the fixed buffers of a default Parquet table alone reach the default
 * memory budget; it binds first for formats with small buffers such as Avro.
 *
 * <p>{@code shareFilesAcrossSourcePartitions} chooses what a file holds. Off, each file holds the
 * rows of one source partition: a revoked partition's unreported files are dropped and nothing
 * else, at the price of a file per source partition and table partition in every commit (with four
 * source partitions per task, four times the files, and in the benchmark about half the
 * throughput). On (the default), the rows of all source partitions share a file per table
 * partition, as in Iceberg's own fan-out writers; revoking a partition then also drops the
 * unreported data of every partition that shares files with it, and those must be rewound (see
 * {@link WriterPool#abandon}). With eager rebalancing every partition is revoked at once, so
 * sharing costs nothing there. The connector shares files unless {@code
 * iceberg.tables.writer.file-per-source-partition} is set, and so do {@link #defaults()} and the
 * constructor without the flag.
 *
 * @param memoryBudgetBytes estimated bytes the open files of a task may hold, above zero
 * @param maxOpenFiles open files a task may hold, at least one
 * @param shareFilesAcrossSourcePartitions whether rows of several source partitions share files
 */
public record WriterPoolOptions(
    long memoryBudgetBytes, int maxOpenFiles, boolean shareFilesAcrossSourcePartitions) {
  public static final long DEFAULT_MEMORY_BUDGET_BYTES =
      WriterKeys.WRITER_MEMORY_BUDGET_BYTES_DEFAULT;
  public static final int DEFAULT_MAX_OPEN_FILES = WriterKeys.WRITER_MAX_OPEN_FILES_DEFAULT;

  public WriterPoolOptions {
    if (memoryBudgetBytes <= 0) {
      throw new IllegalArgumentException(
          "memoryBudgetBytes must be above zero, got " + memoryBudgetBytes);
    }
    if (maxOpenFiles < 1) {
      throw new IllegalArgumentException("maxOpenFiles must be at least 1, got " + maxOpenFiles);
    }
  }

  /** Limits with the default layout: files shared by source partitions. */
  public WriterPoolOptions(long memoryBudgetBytes, int maxOpenFiles) {
    this(memoryBudgetBytes, maxOpenFiles, true);
  }

  /** The connector's defaults: 128 MiB, 64 open files, files shared by source partitions. */
  public static WriterPoolOptions defaults() {
    return new WriterPoolOptions(DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_MAX_OPEN_FILES);
  }

  /** The options a connector's config sets. */
  public static WriterPoolOptions of(FloeSinkConfig config) {
    return new WriterPoolOptions(
        config.writerMemoryBudgetBytes(),
        config.writerMaxOpenFiles(),
        !config.writerFilePerSourcePartition());
  }

  public WriterPoolOptions withSharedFiles(boolean shared) {
    return new WriterPoolOptions(memoryBudgetBytes, maxOpenFiles, shared);
  }
}
