/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open data files of all tables of a task, least recently written first, with the estimate of
 * the heap they hold and the counters.
 *
 * <p>When the estimate passes the memory budget, or a file is about to open beyond the open-file
 * limit, the least recently written files are closed until the estimate is down to three quarters
 * of the budget, or the open files to three quarters of the limit. Closing in batches keeps a
 * steady stream of new partitions from closing one file per record. A closed file's data files stay
 * pending until the next hand-over; the next record of that partition opens a new file. Early
 * closes are logged at INFO at most every {@link #REPORT_INTERVAL}, with counts.
 */
final class OpenFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OpenFiles.class);
  static final Duration REPORT_INTERVAL = Duration.ofSeconds(10);

  private enum Reason {
    MEMORY,
    OPEN_FILES
  }

  private final WriterPoolOptions options;
  private final Clock clock;
  private final LinkedHashMap<PartitionFile, PartitionFile> leastRecentFirst =
      new LinkedHashMap<>(16, 0.75f, true);
  private PartitionFile lastWritten;
  private long estimate;
  private long closedForMemory;
  private long closedForOpenFiles;
  private long records;
  private long filesWritten;
  private long bytesWritten;
  private long pendingFiles;
  private long unreportedForMemory;
  private long unreportedForOpenFiles;
  private Instant lastReport;
  private RuntimeException failure;

  OpenFiles(WriterPoolOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
  }

  boolean shouldCloseForBudget(long estimatedBytes) {
    return estimatedBytes > options.memoryBudgetBytes();
  }

  boolean shouldCloseForOpenFiles(int openFiles) {
    return openFiles >= options.maxOpenFiles();
  }

  private boolean backWithinLimits(Reason reason) {
    return reason == Reason.MEMORY
        ? estimate <= options.memoryBudgetBytes() / 4 * 3
        : leastRecentFirst.size()
            <= Math.min(options.maxOpenFiles() - 1, options.maxOpenFiles() * 3 / 4);
  }

  /** Makes room before a file opens. */
  void beforeOpen() {
    if (shouldCloseForOpenFiles(leastRecentFirst.size())) {
      closeLeastRecentlyUsed(Reason.OPEN_FILES);
    }
  }

  void opened(PartitionFile file) {
    leastRecentFirst.put(file, file);
    lastWritten = file;
  }

  /** Accounts for a row written to a file; may close files to stay within the budget. */
  void written(PartitionFile file, long estimateDelta) {
    records++;
    estimate += estimateDelta;
    if (file != lastWritten) {
      leastRecentFirst.get(file);
      lastWritten = file;
    }
    if (shouldCloseForBudget(estimate)) {
      closeLeastRecentlyUsed(Reason.MEMORY);
    }
  }

  /** Closes a file and hands its data files to its group. */
  List<DataFile> close(PartitionFile file) {
    return close(file, true);
  }

  /**
   * Closes a file whose data is being abandoned: a failure to close it leaves the other files
   * usable.
   */
  List<DataFile> closeAbandoned(PartitionFile file) {
    return close(file, false);
  }

  private List<DataFile> close(PartitionFile file, boolean failureIsFatal) {
    if (leastRecentFirst.remove(file) != null) {
      estimate -= file.estimate();
    }
    if (lastWritten == file) {
      lastWritten = null;
    }
    List<DataFile> dataFiles;
    try {
      dataFiles = file.close();
    } catch (RuntimeException e) {
      if (failureIsFatal) {
        failed(e);
      }
      throw e;
    }
    pendingFiles += dataFiles.size();
    for (DataFile dataFile : dataFiles) {
      filesWritten++;
      bytesWritten += dataFile.fileSizeInBytes();
      LOG.debug(
          "Closed data file {} of table {} ({} rows, {} bytes)",
          dataFile.location(),
          file.group().table(),
          dataFile.recordCount(),
          dataFile.fileSizeInBytes());
    }
    file.group().closed(file, dataFiles);
    return dataFiles;
  }

  private void closeLeastRecentlyUsed(Reason reason) {
    long estimateBefore = estimate;
    int openBefore = leastRecentFirst.size();
    long closed = 0;
    while (!leastRecentFirst.isEmpty() && !backWithinLimits(reason)) {
      close(leastRecentFirst.keySet().iterator().next());
      closed++;
    }
    if (reason == Reason.MEMORY) {
      closedForMemory += closed;
      unreportedForMemory += closed;
    } else {
      closedForOpenFiles += closed;
      unreportedForOpenFiles += closed;
    }
    LOG.debug(
        "Closed {} files for the {} limit: {} -> {} open, {} -> {} estimated bytes",
        closed,
        reason,
        openBefore,
        leastRecentFirst.size(),
        estimateBefore,
        estimate);
    report();
  }

  private void report() {
    Instant now = clock.instant();
    if (lastReport != null && Duration.between(lastReport, now).compareTo(REPORT_INTERVAL) < 0) {
      return;
    }
    LOG.info(
        "Closed {} open data files early for the writer memory budget of {} bytes and {} for the"
            + " limit of {} open files{}; {} files stay open, holding an estimated {} bytes",
        unreportedForMemory,
        options.memoryBudgetBytes(),
        unreportedForOpenFiles,
        options.maxOpenFiles(),
        lastReport == null
            ? ""
            : " in the last " + Duration.between(lastReport, now).toSeconds() + " s",
        leastRecentFirst.size(),
        estimate);
    unreportedForMemory = 0;
    unreportedForOpenFiles = 0;
    lastReport = now;
  }

  /** Finished files that were handed over or abandoned, so no longer pending. */
  void released(int dataFiles) {
    pendingFiles -= dataFiles;
  }

  /**
   * Makes the writers usable again after a failure, once every file was abandoned (see {@link
   * WriterPool#reset}).
   */
  void recover() {
    if (!leastRecentFirst.isEmpty()) {
      throw new IllegalStateException(
          leastRecentFirst.size() + " files are still open; abandon them before recovering");
    }
    failure = null;
    lastWritten = null;
    estimate = 0;
    pendingFiles = 0;
  }

  /** Marks the writers unusable: a file may hold a partly written row. */
  void failed(RuntimeException cause) {
    if (failure == null) {
      failure = cause;
    }
  }

  void checkUsable() {
    if (failure != null) {
      throw new IllegalStateException(
          "The task's writers failed earlier and hold files that must not be committed; abandon"
              + " them: "
              + failure,
          failure);
    }
  }

  WriterPoolStats stats() {
    return new WriterPoolStats(
        leastRecentFirst.size(),
        estimate,
        pendingFiles,
        closedForMemory,
        closedForOpenFiles,
        records,
        filesWritten,
        bytesWritten);
  }
}
