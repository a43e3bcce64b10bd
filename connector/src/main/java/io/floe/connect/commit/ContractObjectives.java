/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.contract.Contract;
import io.floe.connect.contract.Objectives;
import io.floe.connect.metrics.TableMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks each commit of a table against its contract's objectives: the rows the commit appended
 * against the volume objective, the age of the table's watermark after it against the freshness
 * objective. A breach is logged once when it begins (WARN) and once when it ends (INFO); the
 * table's metrics show it meanwhile.
 *
 * <p>A table whose cycles have all timed out so far has no watermark: a partition that did not
 * answer may hold records of any age. Its commits still bound the watermark from above, by the
 * newest timestamp every answering partition reached, so a table whose answering partitions are
 * already older than the latency breaches it for certain, and is reported so; whether it meets it
 * is only known from its first complete cycle.
 */
final class ContractObjectives {
  private static final Logger LOG = LoggerFactory.getLogger(ContractObjectives.class);

  private ContractObjectives() {}

  /**
   * @param rows the rows the commit appended
   * @param validThroughMs the table's watermark after the commit, null if it has none
   * @param watermarkAtMostMs for a table without a watermark, what the commit's partial cycle
   *     bounds it by (the newest timestamp every partition that answered reached), else null
   * @param nowMs the time of the check
   */
  static void check(
      String table,
      Contract contract,
      TableMetrics metrics,
      long rows,
      Long validThroughMs,
      Long watermarkAtMostMs,
      long nowMs) {
    Objectives objectives = contract.objectives();
    if (objectives.hasVolume()) {
      boolean breached = !objectives.volumeHolds(rows);
      if (metrics.volumeObjective(breached)) {
        report(
            table,
            contract,
            breached,
            "volume",
            objectives.describeVolume(),
            "its commit appended " + rows + " rows");
      }
    }
    if (objectives.latencyMs().isEmpty()) {
      return;
    }
    long latencyMs = objectives.latencyMs().getAsLong();
    if (validThroughMs != null) {
      long ageMs = Math.max(0, nowMs - validThroughMs);
      boolean breached = ageMs > latencyMs;
      if (metrics.freshnessObjective(breached)) {
        report(
            table,
            contract,
            breached,
            "freshness",
            objectives.describeLatency(),
            "its newest committed record is " + ageMs + " ms old");
      }
    } else if (watermarkAtMostMs != null
        && nowMs - watermarkAtMostMs > latencyMs
        && metrics.freshnessObjective(true)) {
      report(
          table,
          contract,
          true,
          "freshness",
          objectives.describeLatency(),
          "its newest committed record is at least "
              + (nowMs - watermarkAtMostMs)
              + " ms old (it has no watermark yet: every cycle so far timed out before all"
              + " partitions answered, and those that answered are that old)");
    }
  }

  /** Logs that a breach of an objective began (WARN) or ended (INFO). */
  private static void report(
      String table,
      Contract contract,
      boolean breached,
      String objective,
      String expected,
      String measured) {
    if (breached) {
      LOG.warn(
          "Table {} breaches the {} objective of its contract {} ({}): {}",
          table,
          objective,
          contract.describe(),
          expected,
          measured);
    } else {
      LOG.info(
          "Table {} meets the {} objective of its contract {} ({}) again: {}",
          table,
          objective,
          contract.describe(),
          expected,
          measured);
    }
  }
}
