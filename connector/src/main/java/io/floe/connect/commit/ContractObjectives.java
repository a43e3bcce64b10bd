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
 */
final class ContractObjectives {
  private static final Logger LOG = LoggerFactory.getLogger(ContractObjectives.class);

  private ContractObjectives() {}

  /**
   * @param rows the rows the commit appended
   * @param validThroughMs the table's watermark after the commit, null if it has none
   * @param nowMs the time of the check
   */
  static void check(
      String table,
      Contract contract,
      TableMetrics metrics,
      long rows,
      Long validThroughMs,
      long nowMs) {
    Objectives objectives = contract.objectives();
    if (objectives.hasVolume()) {
      boolean breached = !objectives.volumeHolds(rows);
      if (metrics.volumeObjective(breached)) {
        if (breached) {
          LOG.warn(
              "Table {} breaches the volume objective of its contract {} ({}): its commit appended"
                  + " {} rows",
              table,
              contract.describe(),
              objectives.describeVolume(),
              rows);
        } else {
          LOG.info(
              "Table {} meets the volume objective of its contract {} ({}) again: its commit"
                  + " appended {} rows",
              table,
              contract.describe(),
              objectives.describeVolume(),
              rows);
        }
      }
    }
    if (objectives.latencyMs().isPresent() && validThroughMs != null) {
      long ageMs = Math.max(0, nowMs - validThroughMs);
      boolean breached = ageMs > objectives.latencyMs().getAsLong();
      if (metrics.freshnessObjective(breached)) {
        if (breached) {
          LOG.warn(
              "Table {} breaches the freshness objective of its contract {} ({}): its newest"
                  + " committed record is {} ms old",
              table,
              contract.describe(),
              objectives.describeLatency(),
              ageMs);
        } else {
          LOG.info(
              "Table {} meets the freshness objective of its contract {} ({}) again: its newest"
                  + " committed record is {} ms old",
              table,
              contract.describe(),
              objectives.describeLatency(),
              ageMs);
        }
      }
    }
  }
}
