/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How the connector's source consumer must read transactional topics. Kafka consumers, and so the
 * consumers Connect runs for sink tasks, read uncommitted by default: they hand over records of
 * transactions that are later aborted, or still open. Such records must never reach a table, so the
 * consumer must read committed only: {@code consumer.override.isolation.level=read_committed} in
 * the connector's config (allowed by the default {@code connector.client.config.override.policy
 * =All}), or {@code consumer.isolation.level=read_committed} in the worker's properties, which a
 * connector cannot see.
 */
public final class SourceIsolation {
  /** The connector key that sets the isolation level of its tasks' consumers. */
  public static final String KEY = "consumer.override.isolation.level";

  /** The only level Floe accepts. */
  public static final String READ_COMMITTED = "read_committed";

  private SourceIsolation() {}

  /** Whether the connector's config sets {@code read_committed} itself. */
  public static boolean setInConnector(Map<String, String> props) {
    String level = props.get(KEY);
    return level != null && level.trim().toLowerCase(Locale.ROOT).equals(READ_COMMITTED);
  }

  /** What is wrong with an isolation level set in the connector's config, if anything. */
  public static Optional<String> problem(Map<String, String> props) {
    String level = props.get(KEY);
    if (level == null || setInConnector(props)) {
      return Optional.empty();
    }
    return Optional.of(
        "Must be "
            + READ_COMMITTED
            + ": with any other level the tasks read records of aborted Kafka transactions and"
            + " write them to the tables.");
  }

  /** The warning for a connector that leaves the level to the worker. */
  public static String unsetWarning() {
    return "The connector does not set "
        + KEY
        + "="
        + READ_COMMITTED
        + ". Unless the worker sets consumer.isolation.level="
        + READ_COMMITTED
        + ", records of aborted Kafka transactions are written to the tables (Kafka consumers"
        + " read uncommitted by default).";
  }
}
