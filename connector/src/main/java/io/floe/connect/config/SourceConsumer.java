/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Overrides of the tasks' source consumer ({@code consumer.override.*}) that break exactly once.
 * Floe alone moves the connector's committed offsets, inside the transaction that hands the data
 * over; a consumer that commits on its own, or that starts a partition without a committed offset
 * anywhere but at its beginning, skips records that never reach a table.
 */
public final class SourceConsumer {
  /** Turns the consumer's own periodic offset commits on or off. */
  public static final String AUTO_COMMIT = "consumer.override.enable.auto.commit";

  /** Where a partition without a committed offset starts. */
  public static final String OFFSET_RESET = "consumer.override.auto.offset.reset";

  /** Another cluster for the source topics than the worker's. */
  public static final String BOOTSTRAP = "consumer.override.bootstrap.servers";

  private SourceConsumer() {}

  /** What is wrong with the connector's consumer overrides, by key; empty when nothing is. */
  public static Map<String, String> problems(Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    SourceIsolation.problem(props).ifPresent(problem -> problems.put(SourceIsolation.KEY, problem));
    if ("true".equals(normalized(props.get(AUTO_COMMIT)))) {
      problems.put(
          AUTO_COMMIT,
          "Must be false (or unset): Floe commits the source offsets itself, in the same Kafka"
              + " transaction that hands the data files over. A consumer that commits on its own"
              + " moves the offsets past records no table holds yet, and a restart skips them.");
    }
    String reset = normalized(props.get(OFFSET_RESET));
    if ("latest".equals(reset) || "none".equals(reset)) {
      problems.put(
          OFFSET_RESET,
          "Must be earliest (or unset): a partition has no committed offset until Floe first"
              + " commits data of it, so with '"
              + reset
              + "' "
              + ("latest".equals(reset)
                  ? "a new or still idle partition starts at its end and the records written to it"
                      + " before are never read."
                  : "a task fails whenever it is given such a partition (a new one, or one still"
                      + " idle at a restart)."));
    }
    return problems;
  }

  /**
   * What is wrong with {@code consumer.override.bootstrap.servers}, if set: the source offsets are
   * committed in the control transaction, on the control cluster, so the source topics must be on
   * it. The two lists must name the same cluster, which a broker address they share tells.
   *
   * @param props the connector's config
   * @param control the control clients' bootstrap servers, set or found from the worker
   * @param controlSource where {@code control} came from, for the message
   */
  static Optional<String> bootstrapProblem(
      Map<String, String> props, String control, String controlSource) {
    Set<String> source = servers(props.get(BOOTSTRAP));
    Set<String> controlServers = servers(control);
    if (source.isEmpty()
        || controlServers.isEmpty()
        || !Collections.disjoint(source, controlServers)) {
      return Optional.empty();
    }
    return Optional.of(
        "The source topics are read from "
            + String.join(",", source)
            + " but the control topic and the offset commits go to "
            + String.join(",", controlServers)
            + " (from "
            + controlSource
            + "), which share no broker: they look like two clusters. Floe commits the source"
            + " offsets inside the Kafka transaction that hands the data over, on the cluster of"
            + " its control topic, so the source topics must be on that cluster: set "
            + KafkaKeys.KAFKA_BOOTSTRAP_SERVERS
            + " to the same servers as "
            + BOOTSTRAP
            + " (and its security settings under iceberg.kafka.*).");
  }

  private static Set<String> servers(String list) {
    Set<String> servers = new TreeSet<>();
    if (list != null && !list.contains("${")) {
      for (String server : list.split(",")) {
        String trimmed = server.trim().toLowerCase(Locale.ROOT);
        if (!trimmed.isEmpty()) {
          servers.add(trimmed.replaceFirst("^[a-z_]+://", ""));
        }
      }
    }
    return servers;
  }

  private static String normalized(String value) {
    return value == null ? null : value.trim().toLowerCase(Locale.ROOT);
  }
}
