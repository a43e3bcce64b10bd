/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The Apache Iceberg sink's keys for mechanisms Floe runs its own way, accepted so that an Apache
 * sink configuration deploys with only {@code connector.class} changed. Each is mapped onto Floe's
 * equivalent where one exists ({@code iceberg.coordinator.transactional.prefix}), checked against
 * what Floe does where a different value would send data or offsets elsewhere ({@code
 * iceberg.connect.group-id}), or else accepted with one warning at connector start saying what Floe
 * does instead. The Apache sink's other keys are Floe's own (same name, same meaning).
 */
final class ApacheSinkKeys {
  static final String GROUP = "Apache Iceberg sink compatibility";

  static final String CONTROL_GROUP_ID_PREFIX = "iceberg.control.group-id-prefix";
  static final String COMMIT_THREADS = "iceberg.control.commit.threads";
  static final String COMMIT_MAX_CONSECUTIVE_FAILURES =
      "iceberg.control.commit.max-consecutive-failures";
  static final String CONNECT_GROUP_ID = "iceberg.connect.group-id";
  static final String TRANSACTIONAL_PREFIX = "iceberg.coordinator.transactional.prefix";
  static final String TRANSACTIONAL_SUFFIX = "iceberg.coordinator.transactional.suffix";
  static final String EXECUTOR_KEEP_ALIVE_TIMEOUT_MS =
      "iceberg.coordinator-executor-keep-alive-timeout-ms";

  /** Connect's consumer-group override of a connector's consumer. */
  static final String CONSUMER_GROUP_OVERRIDE = "consumer.override.group.id";

  /** The Apache key mapped onto Floe's, and Floe's. */
  static final Map<String, String> MAPPED =
      Map.of(TRANSACTIONAL_PREFIX, CommitKeys.TRANSACTIONAL_ID_PREFIX);

  /** What Floe does instead of what each accepted-and-ignored key sets, for the warning. */
  static final Map<String, String> INSTEAD = instead();

  private static Map<String, String> instead() {
    Map<String, String> instead = new LinkedHashMap<>();
    instead.put(
        CONTROL_GROUP_ID_PREFIX,
        "the workers' control-topic consumers use no consumer group, and the coordinator keeps"
            + " its control-topic position in the group floe-<connector name>-coordinator (grant"
            + " READ on it)");
    instead.put(
        COMMIT_THREADS,
        "Floe commits each cycle's tables on the coordinator's thread, in one multi-table"
            + " transaction on a REST catalog");
    instead.put(
        COMMIT_MAX_CONSECUTIVE_FAILURES,
        "Floe retries a failing commit for "
            + CommitKeys.COMMIT_RETRY_TIMEOUT_MS
            + " and then fails the task");
    instead.put(
        TRANSACTIONAL_SUFFIX,
        "Floe's transactional ids are stable per connector and task (with "
            + CommitKeys.TRANSACTIONAL_ID_PREFIX
            + " in front); the Apache connector sets this key on its tasks itself");
    instead.put(
        EXECUTOR_KEEP_ALIVE_TIMEOUT_MS,
        "Floe's coordinator runs no commit thread pool whose threads could be kept alive");
    return Map.copyOf(instead);
  }

  private ApacheSinkKeys() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        TRANSACTIONAL_PREFIX,
        Type.STRING,
        null,
        Importance.LOW,
        "The Apache Iceberg sink's prefix of its transactional ids: Floe takes it as "
            + CommitKeys.TRANSACTIONAL_ID_PREFIX
            + " when that is not set (setting both to different values is an error).",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Apache: transactional prefix");
    def.define(
        CONNECT_GROUP_ID,
        Type.STRING,
        null,
        Importance.LOW,
        "The Apache Iceberg sink's name of the connector's consumer group. Floe commits the source"
            + " offsets to the group of the connector's own consumer (connect-<name>, or "
            + CONSUMER_GROUP_OVERRIDE
            + "), so it is accepted only when it names that group.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Apache: Connect group id");
    defineIgnored(def, CONTROL_GROUP_ID_PREFIX, Type.STRING, ++order, "Apache: control group");
    defineIgnored(def, COMMIT_THREADS, Type.INT, ++order, "Apache: commit threads");
    defineIgnored(def, COMMIT_MAX_CONSECUTIVE_FAILURES, Type.INT, ++order, "Apache: max failures");
    defineIgnored(
        def, EXECUTOR_KEEP_ALIVE_TIMEOUT_MS, Type.LONG, ++order, "Apache: executor keep-alive");
    defineIgnored(def, TRANSACTIONAL_SUFFIX, Type.STRING, ++order, "Apache: transactional suffix");
  }

  private static void defineIgnored(
      ConfigDef def, String name, Type type, int order, String displayName) {
    def.define(
        name,
        type,
        null,
        Importance.LOW,
        "Accepted from Apache Iceberg sink configurations and not used, with a warning at start: "
            + INSTEAD.get(name)
            + ".",
        GROUP,
        order,
        Width.SHORT,
        displayName);
  }

  /**
   * The transactional id prefix: Floe's key when set, else the Apache sink's, else Floe's default.
   */
  static String transactionalIdPrefix(Map<String, ?> originals, String floeValue) {
    if (originals.containsKey(CommitKeys.TRANSACTIONAL_ID_PREFIX)
        || originals.get(TRANSACTIONAL_PREFIX) == null) {
      return floeValue;
    }
    return String.valueOf(originals.get(TRANSACTIONAL_PREFIX));
  }

  /** The mapped keys agree with Floe's; the Connect group is the connector's own. */
  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    String floe = props.get(CommitKeys.TRANSACTIONAL_ID_PREFIX);
    String apache = props.get(TRANSACTIONAL_PREFIX);
    if (floe != null && apache != null && !floe.equals(apache)) {
      ConfigValidation.error(
          values,
          TRANSACTIONAL_PREFIX,
          "Contradicts "
              + CommitKeys.TRANSACTIONAL_ID_PREFIX
              + " ('"
              + floe
              + "' against '"
              + apache
              + "'): both set Floe's transactional id prefix. Keep one of "
              + TRANSACTIONAL_PREFIX
              + " and "
              + CommitKeys.TRANSACTIONAL_ID_PREFIX
              + ".");
    }
    problems(props).forEach((key, problem) -> ConfigValidation.error(values, key, problem));
  }

  /** What is wrong with the Apache keys of {@code props} for Floe, by key; empty when nothing. */
  static Map<String, String> problems(Map<String, String> props) {
    String group = props.get(CONNECT_GROUP_ID);
    String name = props.get(ConnectKeys.NAME);
    if (group == null || group.isBlank() || name == null || name.isBlank()) {
      return Map.of();
    }
    String own = props.getOrDefault(CONSUMER_GROUP_OVERRIDE, "connect-" + name.trim()).trim();
    if (Objects.equals(group.trim(), own)) {
      return Map.of();
    }
    return Map.of(
        CONNECT_GROUP_ID,
        "Names the consumer group '"
            + group.trim()
            + "', but this connector's consumer is in '"
            + own
            + "': Floe reads and commits the source offsets there only. Remove the key, or set "
            + CONSUMER_GROUP_OVERRIDE
            + " to the group if the connector must keep the offsets of that group.");
  }

  /** One warning for each accepted key {@code props} sets that Floe does not use. */
  static List<String> warnings(Map<String, String> props) {
    List<String> warnings = new ArrayList<>();
    INSTEAD.keySet().stream()
        .sorted()
        .filter(props::containsKey)
        .forEach(
            key ->
                warnings.add(
                    key
                        + " is an Apache Iceberg sink setting Floe does not use: "
                        + INSTEAD.get(key)
                        + ". Remove it to silence this warning."));
    return warnings;
  }
}
