/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

/**
 * The figures of one run. {@code outcome} is "ok" or what went wrong (a failed task, a worker out
 * of memory, a timeout); {@code facts} is null for the no-op sink.
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
    long peakRssBytes,
    long peakHeapBytes,
    String heapLimit,
    TableFacts facts,
    String outcome) {

  double recordsPerSecond() {
    return records / seconds;
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
