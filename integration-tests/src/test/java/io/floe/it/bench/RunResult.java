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
 * over that time by group of threads (WorkerGauge#cpuByGroup). {@code steady} is the same from the
 * moment Connect had handed the sink a given share of the records (half by default) to the end of
 * the run, or null if no sample fell there.
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
    Steady steady,
    TableFacts facts,
    String outcome) {

  /**
   * The worker's CPU over the records handed to the sink after the window started, to the end of
   * the run (for Floe, its last commit: the files of those records closed and committed): a worker
   * past its first minutes, its code compiled and its first commits made.
   */
  record Steady(
      long records, double cpuSeconds, double taskCpuSeconds, Map<String, Double> cpuByThreads) {

    double cpuMicrosPerRecord() {
      return cpuSeconds * 1e6 / records;
    }

    double taskCpuMicrosPerRecord() {
      return taskCpuSeconds * 1e6 / records;
    }

    double jitSeconds() {
      return RunResult.jitSeconds(cpuByThreads);
    }
  }

  /** The worker's CPU per record in the steady window, in µs; NaN without one. */
  double steadyCpuMicrosPerRecord() {
    return steady == null ? Double.NaN : steady.cpuMicrosPerRecord();
  }

  /**
   * The worker's CPU per record in the steady window without its JIT compiler threads, in µs; NaN
   * without one.
   */
  double steadyCpuMicrosPerRecordWithoutJit() {
    return steady == null
        ? Double.NaN
        : (steady.cpuSeconds() - steady.jitSeconds()) * 1e6 / steady.records();
  }

  /** The task threads' CPU per record in the steady window, in µs; NaN without one. */
  double steadyTaskCpuMicrosPerRecord() {
    return steady == null ? Double.NaN : steady.taskCpuMicrosPerRecord();
  }

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
    return jitSeconds(cpuByThreads);
  }

  private static double jitSeconds(Map<String, Double> cpuByThreads) {
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
