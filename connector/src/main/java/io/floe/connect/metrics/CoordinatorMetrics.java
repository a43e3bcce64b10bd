/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The coordinator's metrics, MBean {@code io.floe:type=coordinator-metrics,connector=<c>}, and the
 * {@link TableMetrics} of every table it committed or tried to. They exist in the one task that
 * runs the coordinator, and go with it. Updated on the coordinator thread, read from any.
 */
public final class CoordinatorMetrics implements AutoCloseable {
  static final String TYPE = "coordinator-metrics";

  private final MetricsRegistry registry;
  private final Clock clock;
  private final MetricsRegistry.Registration registration;
  private final Map<String, TableMetrics> tables = new ConcurrentHashMap<>();
  private volatile long cyclesStarted;
  private volatile long cyclesCompleted;
  private volatile long cyclesTimedOut;
  private volatile long workersAnswered;
  private volatile long partitionsAnswered;
  private volatile long partitionsExpected;
  private volatile long controlTopicLag;
  private volatile boolean closed;

  public CoordinatorMetrics(MetricsRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    GaugeSet gauges =
        new GaugeSet()
            .add("cycles-started", "Commit cycles started", () -> cyclesStarted)
            .add(
                "cycles-completed",
                "Commit cycles every source partition answered",
                () -> cyclesCompleted)
            .add(
                "cycles-timed-out",
                "Commit cycles that timed out before every partition answered",
                () -> cyclesTimedOut)
            .add(
                "last-cycle-workers-answered",
                "Workers (tasks) that answered the last finished cycle",
                () -> workersAnswered)
            .add(
                "last-cycle-partitions-answered",
                "Source partitions answered in the last finished cycle",
                () -> partitionsAnswered)
            .add(
                "last-cycle-partitions-expected",
                "Source partitions the last finished cycle waited for",
                () -> partitionsExpected)
            .add(
                "control-topic-lag",
                "Committed control-topic records the coordinator has not read yet",
                () -> controlTopicLag);
    this.registration =
        registry.register(
            TYPE, Map.of(), Map.of(), "Floe coordinator of " + registry.connector(), gauges);
  }

  public void cycleStarted() {
    cyclesStarted++;
  }

  /**
   * A cycle ended and is being committed.
   *
   * @param timedOut whether it timed out before every partition answered
   */
  public void cycleFinished(boolean timedOut, int workers, int answered, int expected) {
    if (timedOut) {
      cyclesTimedOut++;
    } else {
      cyclesCompleted++;
    }
    workersAnswered = workers;
    partitionsAnswered = answered;
    partitionsExpected = expected;
  }

  public void controlTopicLag(long records) {
    controlTopicLag = records;
  }

  /** The metrics of a table, registered on first use. */
  public TableMetrics table(String name) {
    TableMetrics table = tables.get(name);
    if (table == null) {
      table = new TableMetrics(registry, name, clock);
      tables.put(name, table);
      if (closed) {
        table.close();
      }
    }
    return table;
  }

  /** Unregisters these metrics and every table's. */
  @Override
  public void close() {
    closed = true;
    registration.close();
    tables.values().forEach(TableMetrics::close);
    tables.clear();
  }
}
