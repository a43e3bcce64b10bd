/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.avro.AvroConverterConfig;
import io.floe.connect.avro.CompatibilityLevel;
import io.floe.connect.avro.SchemaRegistryClient;
import io.floe.connect.avro.SubjectContractCheck;
import io.floe.connect.avro.SubjectNameStrategy;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.TableConfig;
import io.floe.connect.contract.Contract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the connector's start, the schema registry of its value converter checked against the data
 * contracts of its tables: for each table with a contract and each topic feeding it, the
 * compatibility level of the topic's value subject and its latest schema ({@link
 * SubjectContractCheck}), told once per table and subject, at WARN where they do not protect the
 * contract and at INFO where they do. It only warns: it never fails the connector, waits at most a
 * few seconds per request and does not retry; a registry it cannot use is one WARN.
 *
 * <p>It runs when the connector's own settings name a registry ({@code
 * value.converter.schema.registry.url}, for Floe's converter or another with the same keys) and the
 * subjects are named by {@code TopicNameStrategy}; the other strategies name a subject after the
 * record, which only a record tells.
 */
final class RegistryContractCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryContractCheck.class);

  static final String VALUE_CONVERTER_PREFIX = "value.converter.";

  /** The longest a request of the check waits for the registry. */
  static final Duration MAX_REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /** A table with a contract, and whether it reads change events (upsert mode). */
  private record Target(String table, Contract contract, boolean changeEvents) {}

  private final Map<String, String> converterProps;
  private final List<Target> targets;
  private final List<String> topics;
  private final boolean topicsFeedEveryTable;
  private final boolean ignoreCase;
  private final Optional<String> topicsRegex;

  private RegistryContractCheck(
      Map<String, String> converterProps, List<Target> targets, FloeSinkConfig config) {
    this.converterProps = converterProps;
    this.targets = targets;
    this.topics = config.sourceTopics();
    this.topicsRegex = config.sourceTopicsRegex();
    this.topicsFeedEveryTable = !config.dynamicTablesEnabled() && config.routeField().isEmpty();
    this.ignoreCase = config.convertOptions().caseInsensitive();
  }

  /**
   * The check of this connector configuration; empty when it names no registry for values or no
   * table has a contract.
   */
  static Optional<RegistryContractCheck> of(Map<String, String> props, FloeSinkConfig config) {
    Map<String, String> converter = new HashMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(VALUE_CONVERTER_PREFIX)) {
            converter.put(key.substring(VALUE_CONVERTER_PREFIX.length()), value);
          }
        });
    if (converter.get(AvroConverterConfig.SCHEMA_REGISTRY_URL) == null) {
      return Optional.empty();
    }
    List<Target> targets = new ArrayList<>();
    for (String table : tablesOf(props, config)) {
      TableConfig tableConfig = config.tableConfig(table);
      tableConfig
          .contract()
          .ifPresent(
              contract ->
                  targets.add(new Target(table, contract, tableConfig.upsert().isPresent())));
    }
    return targets.isEmpty()
        ? Optional.empty()
        : Optional.of(new RegistryContractCheck(converter, targets, config));
  }

  /** The listed tables, or with dynamic routing the tables a contract is configured for. */
  private static Set<String> tablesOf(Map<String, String> props, FloeSinkConfig config) {
    if (!config.dynamicTablesEnabled()) {
      return new LinkedHashSet<>(config.tables());
    }
    Set<String> tables = new LinkedHashSet<>();
    props.keySet().stream()
        .sorted()
        .forEach(
            key ->
                TableConfig.split(key)
                    .filter(parts -> parts.getValue().equals(TableConfig.CONTRACT))
                    .ifPresent(parts -> tables.add(parts.getKey())));
    return tables;
  }

  /**
   * Starts the check of this connector configuration, if it has one to make, on a daemon thread of
   * its own; never throws.
   *
   * @return the thread, to interrupt when the connector stops
   */
  static Optional<Thread> startFor(Map<String, String> props, FloeSinkConfig config) {
    try {
      return of(props, config).map(check -> check.start(config.connectorName()));
    } catch (RuntimeException e) {
      LOG.warn(
          "Cannot check the schema registry against the tables' data contracts; the connector"
              + " starts anyway: {}",
          e.getMessage());
      return Optional.empty();
    }
  }

  /** Runs the check on a daemon thread of its own, so that the connector's start does not wait. */
  Thread start(String connector) {
    Thread thread = new Thread(this::run, "floe-registry-check-" + connector);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Checks each table's subjects and logs what it finds; never throws. */
  void run() {
    List<String> tables = targets.stream().map(Target::table).toList();
    try {
      checkAll(tables);
    } catch (RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        // the connector stopped meanwhile
        LOG.debug("The schema registry check of tables {} stopped: {}", tables, e.getMessage());
        return;
      }
      // SchemaRegistryException above all: unreachable, 5xx, 401/403; the check only warns
      LOG.warn(
          "Cannot check the schema registry against the data contracts of tables {}; the"
              + " connector starts anyway, and checks again at its next start: {}",
          tables,
          e.getMessage());
    }
  }

  private void checkAll(List<String> tables) {
    if (topics.isEmpty()) {
      LOG.info(
          "The schema registry is not checked against the data contracts of tables {}: the"
              + " connector reads topics by topics.regex {}, so no topic is known at start",
          tables,
          topicsRegex.orElse("(none)"));
      return;
    }
    AvroConverterConfig registry;
    try {
      registry = quickConfig();
    } catch (ConfigException e) {
      LOG.warn(
          "Cannot check the schema registry against the data contracts of tables {}: its"
              + " settings under {} are not understood ({})",
          tables,
          VALUE_CONVERTER_PREFIX,
          e.getMessage());
      return;
    }
    SubjectNameStrategy strategy = registry.subjectNameStrategy(false);
    if (strategy != SubjectNameStrategy.TOPIC_NAME) {
      LOG.info(
          "The schema registry is not checked against the data contracts of tables {}: {} names"
              + " subjects after the record, which only a record tells",
          tables,
          strategy);
      return;
    }
    SchemaRegistryClient client = SchemaRegistryClient.create(registry);
    Map<String, String> levels = new HashMap<>();
    for (Target target : targets) {
      for (String topic : topics) {
        String subject = strategy.subject(topic, false, null);
        String level = levels.computeIfAbsent(subject, client::compatibilityLevel);
        check(client, target, subject, level);
      }
    }
  }

  /** The converter's registry settings, with a short timeout and no retries. */
  private AvroConverterConfig quickConfig() {
    AvroConverterConfig given = new AvroConverterConfig(converterProps);
    Map<String, String> quick = new HashMap<>(converterProps);
    long timeout = Math.min(given.requestTimeout().toMillis(), MAX_REQUEST_TIMEOUT.toMillis());
    quick.put(AvroConverterConfig.REQUEST_TIMEOUT_MS, Long.toString(timeout));
    quick.put(AvroConverterConfig.RETRIES, "0");
    return new AvroConverterConfig(quick);
  }

  private void check(SchemaRegistryClient client, Target target, String subject, String level) {
    Optional<CompatibilityLevel> known = CompatibilityLevel.forName(level);
    List<String> problems = new ArrayList<>();
    if (known.isEmpty()) {
      problems.add(level + " is a level Floe does not know, so it cannot tell what it protects");
    } else {
      problems.addAll(SubjectContractCheck.levelProblems(known.get(), target.contract()));
    }
    List<String> advice = new ArrayList<>();
    if (!problems.isEmpty()) {
      advice.add("set the subject's compatibility level to FULL_TRANSITIVE or FORWARD_TRANSITIVE");
    }
    String latest = "";
    if (topicsFeedEveryTable) {
      try {
        SchemaRegistryClient.RegisteredSchema schema = client.latest(subject);
        latest = " (latest schema id " + schema.id() + ")";
        List<String> schemaProblems =
            SubjectContractCheck.schemaProblems(
                schema.schema(),
                target.contract(),
                known.orElse(null),
                target.changeEvents(),
                ignoreCase);
        schemaProblems.forEach(
            problem -> problems.add("its latest schema (id " + schema.id() + "): " + problem));
        if (!schemaProblems.isEmpty()) {
          advice.add(
              "register a schema with the contract's required fields non-null, of its types and"
                  + " without defaults, or change the contract");
        }
      } catch (DataException e) {
        // no schema yet, or one Floe cannot read: the level is judged alone
        latest = " (latest schema not read: " + e.getMessage() + ")";
      }
    }
    if (problems.isEmpty()) {
      LOG.info(
          "Subject {} of the schema registry, at compatibility level {}{}, protects the data"
              + " contract {} of table {}",
          subject,
          level,
          latest,
          target.contract().describe(),
          target.table());
      return;
    }
    LOG.warn(
        "Subject {} of the schema registry, at compatibility level {}{}, does not protect the"
            + " data contract {} of table {}: {}. Records that break the contract are bad records"
            + " (dead-lettered, or failing the task): {}",
        subject,
        level,
        latest,
        target.contract().describe(),
        target.table(),
        String.join("; ", problems),
        String.join("; ", advice));
  }
}
