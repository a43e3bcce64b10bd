/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The keys of the commit protocol: the control topic, the pace of commit cycles, how long failures
 * are retried and the transactional ids. The control clients' Kafka keys ({@link KafkaKeys}) share
 * the group.
 *
 * @param controlTopic the topic the workers and the coordinator exchange commit events on
 * @param commitInterval how often a commit cycle starts
 * @param commitTimeout how long a cycle waits for every answer: as set, or derived from the
 *     interval when unset
 * @param commitBufferBytes pending bytes at which a worker asks for an early cycle
 * @param commitRetryTimeout how long retriable failures are retried
 * @param commitMaxSilentCycles consecutive cycles without an answer for a partition that fail the
 *     coordinator (0: never)
 * @param transactionalIdPrefix prefix of the Kafka transactional ids
 */
public record CommitKeys(
    String controlTopic,
    Duration commitInterval,
    Duration commitTimeout,
    long commitBufferBytes,
    Duration commitRetryTimeout,
    int commitMaxSilentCycles,
    String transactionalIdPrefix) {
  public static final String GROUP = "Commit";

  public static final String CONTROL_TOPIC = "iceberg.control.topic";
  public static final String CONTROL_TOPIC_DOC =
      "Kafka topic the workers and the coordinator exchange commit events on. Several connectors"
          + " may share it. It must have exactly one partition (a missing topic is created so); a"
          + " task refuses a topic of more at start.";
  public static final String CONTROL_TOPIC_DEFAULT = "floe-control";

  public static final String COMMIT_INTERVAL_MS = "iceberg.control.commit.interval-ms";
  public static final String COMMIT_INTERVAL_MS_DOC =
      "How often, in milliseconds, the coordinator starts a commit cycle.";
  public static final long COMMIT_INTERVAL_MS_DEFAULT = 60_000L;

  public static final String COMMIT_TIMEOUT_MS = "iceberg.control.commit.timeout-ms";
  public static final String COMMIT_TIMEOUT_MS_DOC =
      "How long, in milliseconds, the coordinator waits for every worker's answer before it"
          + " commits what arrived; late answers join the next cycle. Must be below the interval;"
          + " when unset, the default or half the interval, whichever is shorter.";
  public static final long COMMIT_TIMEOUT_MS_DEFAULT = 30_000L;

  public static final String COMMIT_BUFFER_BYTES = "iceberg.control.commit.buffer-bytes";
  public static final String COMMIT_BUFFER_BYTES_DOC =
      "A worker asks for an early commit cycle when it holds this many bytes of data files not yet"
          + " handed over, counting the changes upsert tables hold in memory (an estimate of their"
          + " heap) and the values of unique contract fields it holds; the coordinator then starts"
          + " the cycle before the interval ends.";
  public static final long COMMIT_BUFFER_BYTES_DEFAULT = 256L * 1024 * 1024;

  public static final String COMMIT_RETRY_TIMEOUT_MS = "iceberg.control.commit.retry-timeout-ms";
  public static final String COMMIT_RETRY_TIMEOUT_MS_DOC =
      "How long, in milliseconds, the coordinator retries a commit, and a task retries writing and"
          + " handing over its files, when they fail for a retriable reason (catalog or object store"
          + " unreachable, conflicting commit) before the task fails with the cause.";
  public static final long COMMIT_RETRY_TIMEOUT_MS_DEFAULT = 300_000L;

  public static final String COMMIT_MAX_SILENT_CYCLES = "iceberg.control.commit.max-silent-cycles";
  public static final String COMMIT_MAX_SILENT_CYCLES_DOC =
      "The coordinator fails its task, naming the partitions, when no worker has answered for a"
          + " source partition in this many consecutive commit cycles, and for at least "
          + COMMIT_RETRY_TIMEOUT_MS
          + ": nothing of such a partition is committed (its task failed, hangs or cannot hand"
          + " over). 0 turns the check off.";
  public static final int COMMIT_MAX_SILENT_CYCLES_DEFAULT = 10;

  public static final String TRANSACTIONAL_ID_PREFIX = "iceberg.control.transactional-id-prefix";
  public static final String TRANSACTIONAL_ID_PREFIX_DOC =
      "Prefix of the Kafka transactional ids of the workers and the coordinator, for clusters"
          + " whose ACLs grant transactional ids by prefix.";
  public static final String TRANSACTIONAL_ID_PREFIX_DEFAULT = "";

  static CommitKeys parse(AbstractConfig config) {
    long interval = config.getLong(COMMIT_INTERVAL_MS);
    return new CommitKeys(
        config.getString(CONTROL_TOPIC),
        Duration.ofMillis(interval),
        Duration.ofMillis(
            config.originals().containsKey(COMMIT_TIMEOUT_MS)
                ? config.getLong(COMMIT_TIMEOUT_MS)
                : derivedTimeoutMs(interval)),
        config.getLong(COMMIT_BUFFER_BYTES),
        Duration.ofMillis(config.getLong(COMMIT_RETRY_TIMEOUT_MS)),
        config.getInt(COMMIT_MAX_SILENT_CYCLES),
        ApacheSinkKeys.transactionalIdPrefix(
            config.originals(), config.getString(TRANSACTIONAL_ID_PREFIX)));
  }

  /**
   * The timeout when none is set: the default, shortened to half the interval when that is shorter
   * (so an interval of 30 s or less needs no timeout of its own). Always below the interval.
   */
  private static long derivedTimeoutMs(long intervalMs) {
    return Math.min(COMMIT_TIMEOUT_MS_DEFAULT, Math.max(1, intervalMs / 2));
  }

  /** Defines the keys from order 1 of the group; returns the last order used. */
  static int define(ConfigDef def) {
    int order = 0;
    def.define(
        CONTROL_TOPIC,
        Type.STRING,
        CONTROL_TOPIC_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        CONTROL_TOPIC_DOC,
        GROUP,
        ++order,
        Width.MEDIUM,
        "Control topic");
    def.define(
        COMMIT_INTERVAL_MS,
        Type.LONG,
        COMMIT_INTERVAL_MS_DEFAULT,
        ConfigDef.Range.atLeast(100),
        Importance.MEDIUM,
        COMMIT_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Commit interval (ms)");
    def.define(
        COMMIT_TIMEOUT_MS,
        Type.LONG,
        COMMIT_TIMEOUT_MS_DEFAULT,
        ConfigDef.Range.atLeast(100),
        Importance.MEDIUM,
        COMMIT_TIMEOUT_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Commit timeout (ms)");
    def.define(
        COMMIT_BUFFER_BYTES,
        Type.LONG,
        COMMIT_BUFFER_BYTES_DEFAULT,
        ConfigDef.Range.atLeast(1024 * 1024),
        Importance.LOW,
        COMMIT_BUFFER_BYTES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Early commit at (bytes)");
    def.define(
        COMMIT_RETRY_TIMEOUT_MS,
        Type.LONG,
        COMMIT_RETRY_TIMEOUT_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        COMMIT_RETRY_TIMEOUT_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Commit retry timeout (ms)");
    def.define(
        COMMIT_MAX_SILENT_CYCLES,
        Type.INT,
        COMMIT_MAX_SILENT_CYCLES_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        COMMIT_MAX_SILENT_CYCLES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Most silent cycles");
    def.define(
        TRANSACTIONAL_ID_PREFIX,
        Type.STRING,
        TRANSACTIONAL_ID_PREFIX_DEFAULT,
        Importance.LOW,
        TRANSACTIONAL_ID_PREFIX_DOC,
        GROUP,
        ++order,
        Width.MEDIUM,
        "Transactional id prefix");
    return order;
  }

  /** An explicit timeout must be below the interval; an unset one is derived from it. */
  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    if (!props.containsKey(COMMIT_TIMEOUT_MS)
        || !ConfigValidation.valid(values, COMMIT_INTERVAL_MS, COMMIT_TIMEOUT_MS)) {
      return;
    }
    long interval = (Long) values.get(COMMIT_INTERVAL_MS).value();
    long timeout = (Long) values.get(COMMIT_TIMEOUT_MS).value();
    if (timeout >= interval) {
      ConfigValidation.error(
          values,
          COMMIT_TIMEOUT_MS,
          "The commit timeout ("
              + timeout
              + " ms) must be shorter than the commit interval ("
              + interval
              + " ms), or cycles would overlap.");
    }
  }
}
