/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.util.Map;

/**
 * The figures of one run. {@code outcome} is "ok" or what went wrong (a failed task, a worker out
 * of memory, a timeout); {@code facts} is null for the no-op sink. {@code seconds} runs until the
 * table shows every record, {@code deliveredSeconds} until Connect had handed every record to the
 * sink (the rest is the wait for the next commit). {@code workerCpuSeconds} is the CPU the whole
 * worker process used from the connector's creation until the run ended, {@code taskCpuSeconds}
 * that of the connector's task threads alone, and {@code cpuByThreads} the worker's CPU seconds
 * over that time by group of threads (WorkerGauge#cpuByGroup).
 */
record RunResult(
    String workload,
    Contender contender,
    Encoding encoding,
    int tasks,
    int repeat,
    long records,
    double megabytes,
    double seconds,
    double deliveredSeconds,
    long peakRssBytes,
    long peakHeapBytes,
    String heapLimit,
    double workerCpuSeconds,
    double taskCpuSeconds,
    Map<String, Double> cpuByThreads,
    TableFacts facts,
    String outcome) {

  double recordsPerSecond() {
    return records / seconds;
  }

  /** Records/s handed to the sink's {@code put}, whatever its commits wait for; NaN if unknown. */
  double deliveredPerSecond() {
    return records / deliveredSeconds;
  }

  /** The worker's CPU per record, in µs. */
  double cpuMicrosPerRecord() {
    return workerCpuSeconds * 1e6 / records;
  }

  /**
   * The worker's CPU per record without its JIT compiler threads, in µs: the steady state's, as the
   * compilation of the code a fresh worker runs is a cost of its first minutes, not of each record.
   */
  double cpuMicrosPerRecordWithoutJit() {
    return (workerCpuSeconds - jitSeconds()) * 1e6 / records;
  }

  /** The CPU seconds of the worker's JIT compiler threads ({@code C1/C2 CompilerThread}). */
  double jitSeconds() {
    if (cpuByThreads == null) {
      return Double.NaN;
    }
    return cpuByThreads.entrySet().stream()
        .filter(e -> e.getKey().contains("CompilerThre"))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  /** The task threads' CPU per record, in µs. */
  double taskCpuMicrosPerRecord() {
    return taskCpuSeconds * 1e6 / records;
  }

  double recordsPerSecondPerTask() {
    return recordsPerSecond() / tasks;
  }

  double megabytesPerSecond() {
    return megabytes / seconds;
  }

  boolean ok() {
    return "ok".equals(outcome);
  }

  String label() {
    return contender == Contender.FLOE ? "Floe, tasks.max=" + tasks : contender.title();
  }
}
