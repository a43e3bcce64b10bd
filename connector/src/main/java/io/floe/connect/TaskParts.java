/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.commit.Committer;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import io.floe.connect.control.ConfiguredKafkaClients;
import io.floe.connect.errors.BadRecordPolicy;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.write.SinkWriter;
import java.time.Clock;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a running task, wired in one place: the bad-record policy, the write path, the
 * metrics and the commit protocol, started over a loaded catalog and closed together.
 */
final class TaskParts implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskParts.class);

  private final Catalog catalog;
  private final Committer committer;
  private final TaskMetrics metrics;
  private final Secrets secrets;

  private TaskParts(Catalog catalog, Committer committer, TaskMetrics metrics, Secrets secrets) {
    this.catalog = catalog;
    this.committer = committer;
    this.metrics = metrics;
    this.secrets = secrets;
  }

  /** Wires and starts a task's parts. */
  static TaskParts start(
      FloeSinkConfig config, Catalog catalog, SinkTaskContext context, Clock clock) {
    BadRecordPolicy outcomes =
        new BadRecordPolicy(errantRecordReporter(config, context), config.failOnTombstones());
    SinkWriter writer = SinkWriter.forTask(config, catalog, outcomes);
    MetricsRegistry registry = MetricsRegistry.forTask(config.connectorName(), context);
    TaskMetrics metrics =
        new TaskMetrics(
            registry,
            config.taskIndex(),
            config.writerMemoryBudgetBytes(),
            outcomes::tombstones,
            outcomes::deadLettered);
    Committer committer =
        new Committer(
            config,
            catalog,
            context,
            new ConfiguredKafkaClients(config.kafkaProperties()),
            clock,
            registry);
    TaskParts parts = new TaskParts(catalog, committer, metrics, config.secrets());
    try {
      committer.start(writer, outcomes::awaitReported, metrics);
    } catch (RuntimeException e) {
      parts.close();
      throw e;
    }
    return parts;
  }

  Committer committer() {
    return committer;
  }

  /**
   * Connect's dead-letter reporter when the connector tolerates bad records, else null (bad records
   * then fail the task).
   */
  private static ErrantRecordReporter errantRecordReporter(
      FloeSinkConfig config, SinkTaskContext context) {
    if (!config.toleratesErrors()) {
      return null;
    }
    ErrantRecordReporter reporter;
    try {
      reporter = context.errantRecordReporter();
    } catch (NoSuchMethodError | NoClassDefFoundError e) {
      reporter = null;
    }
    if (reporter == null) {
      LOG.warn(
          "errors.tolerance=all, but this Connect runtime gives sink tasks no dead-letter"
              + " reporter: a bad record fails the task instead of being dead-lettered.");
    } else if (config.deadLetterTopic().isEmpty()) {
      LOG.warn(
          "errors.tolerance=all without errors.deadletterqueue.topic.name: bad records are"
              + " skipped, counted and logged (set errors.log.enable=true to see them in Connect's"
              + " log), but not kept anywhere.");
    } else {
      LOG.info("Bad records go to the dead-letter topic {}", config.deadLetterTopic().get());
    }
    return reporter;
  }

  /** Stops the commit protocol, then closes the metrics and the catalog. */
  @Override
  public void close() {
    try {
      committer.close();
    } finally {
      metrics.close();
      CatalogLoader.close(catalog, secrets);
    }
  }
}
