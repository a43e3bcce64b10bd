/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.errors;

import io.floe.connect.write.SinkWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a record that cannot be routed, converted or written: with {@code
 * errors.tolerance=all} and a runtime that gives an {@link ErrantRecordReporter}, it goes to
 * Connect's dead-letter path (and Connect's error log); otherwise the task fails with a message
 * naming topic, partition, offset, table and the cause (never the value).
 *
 * <p>Reports are asynchronous; {@link #awaitReported()} blocks until every report so far is
 * acknowledged, and the worker calls it before the records' offsets enter its Kafka transaction, so
 * an offset is never committed for a record whose dead letter was lost.
 *
 * <p>Per-record data errors only: systemic failures (catalog, object store, registry, auth) are
 * exceptions of their own kind and never reach this policy.
 */
public final class BadRecordPolicy implements SinkWriter.RecordOutcomes {
  private static final Logger LOG = LoggerFactory.getLogger(BadRecordPolicy.class);

  /** How long a dead-letter report may take before the task gives up on it. */
  static final long REPORT_TIMEOUT_MS = 120_000;

  private final ErrantRecordReporter reporter;
  private final boolean failOnTombstones;
  private final List<Pending> pending = new ArrayList<>();
  private final AtomicLong tombstones = new AtomicLong();
  private final AtomicLong deadLettered = new AtomicLong();

  /**
   * Creates the policy.
   *
   * @param reporter Connect's reporter when the connector tolerates errors and the runtime has one;
   *     null makes every bad record fail the task
   * @param failOnTombstones whether a tombstone is a bad record rather than skipped
   */
  public BadRecordPolicy(ErrantRecordReporter reporter, boolean failOnTombstones) {
    this.reporter = reporter;
    this.failOnTombstones = failOnTombstones;
  }

  @Override
  public void tombstone(SinkRecord record) {
    if (failOnTombstones) {
      failed(
          record,
          null,
          new DataException("the value is null (a tombstone) and iceberg.tables.tombstones=fail"));
    } else {
      tombstones.incrementAndGet();
    }
  }

  @Override
  public void failed(SinkRecord record, String table, RuntimeException cause) {
    String message = describe(record, table, cause);
    if (reporter == null) {
      throw new ConnectException(message, cause);
    }
    LOG.warn("Dead-lettering a bad record. {}", message);
    Future<Void> report = reporter.report(record, new DataException(message, cause));
    synchronized (pending) {
      pending.add(new Pending(report, message));
    }
    deadLettered.incrementAndGet();
  }

  /**
   * Blocks until Connect has acknowledged every dead-letter report made so far.
   *
   * @throws ConnectException if a report failed or took too long: the record was not saved, so the
   *     task must not commit past it
   */
  public void awaitReported() {
    List<Pending> reports;
    synchronized (pending) {
      reports = new ArrayList<>(pending);
      pending.clear();
    }
    for (Pending report : reports) {
      try {
        report.future.get(REPORT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectException("Interrupted while dead-lettering. " + report.message, e);
      } catch (ExecutionException | TimeoutException e) {
        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        throw new ConnectException(
            "Could not dead-letter a bad record, so its offset is not committed ("
                + cause
                + "). "
                + report.message,
            cause);
      }
    }
  }

  /** Tombstones skipped so far. */
  public long tombstones() {
    return tombstones.get();
  }

  /** Bad records sent to the dead-letter path so far. */
  public long deadLettered() {
    return deadLettered.get();
  }

  static String describe(SinkRecord record, String table, RuntimeException cause) {
    return String.format(
        "Cannot write the record at topic %s, partition %d, offset %d%s: %s",
        record.originalTopic(),
        record.originalKafkaPartition(),
        record.originalKafkaOffset(),
        table == null ? "" : " to table " + table,
        cause.getMessage());
  }

  private record Pending(Future<Void> future, String message) {}
}
