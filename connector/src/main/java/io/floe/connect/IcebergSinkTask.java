/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.TableProvider;
import io.floe.connect.commit.Committer;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import io.floe.connect.control.ConfiguredKafkaClients;
import io.floe.connect.errors.BadRecordPolicy;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.version.FloeVersion;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.WriterPool;
import io.floe.connect.write.WriterPoolOptions;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Floe sink task. Lifecycle only: it wires the parts together and delegates to them. */
public class IcebergSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkTask.class);

  private Catalog catalog;
  private Committer committer;
  private TaskMetrics metrics;
  private Secrets secrets = Secrets.of(Map.of());

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    secrets = Secrets.of(props);
    try {
      start(new FloeSinkConfig(props));
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  private void start(FloeSinkConfig config) {
    catalog = new CatalogLoader().load(config);
    BadRecordPolicy outcomes =
        new BadRecordPolicy(errantRecordReporter(config), config.failOnTombstones());
    SinkWriter writer =
        new SinkWriter(
            config,
            new TableProvider(catalog, config),
            new WriterPool(
                WriterPoolOptions.of(config), config.writeProperties(), config.taskIndex()),
            config.convertOptions(),
            outcomes);
    MetricsRegistry registry = MetricsRegistry.forTask(config.connectorName(), context);
    metrics =
        new TaskMetrics(
            registry,
            config.taskIndex(),
            config.writerMemoryBudgetBytes(),
            outcomes::tombstones,
            outcomes::deadLettered);
    committer =
        new Committer(
            config,
            catalog,
            context,
            new ConfiguredKafkaClients(config.kafkaProperties()),
            Clock.systemUTC(),
            registry);
    committer.start(writer, outcomes::awaitReported, metrics);
    LOG.info(
        "Started Floe {} sink task {}, catalog '{}'",
        version(),
        config.taskIndex(),
        catalog.name());
  }

  /**
   * Connect's dead-letter reporter when the connector tolerates bad records, else null (bad records
   * then fail the task).
   */
  private ErrantRecordReporter errantRecordReporter(FloeSinkConfig config) {
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

  @Override
  public void open(Collection<TopicPartition> partitions) {
    try {
      committer.open(partitions);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    try {
      committer.close(partitions);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    try {
      committer.put(records);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Source offsets advance only inside the commit protocol's Kafka transactions, never here;
    // this is also where an idle task notices a failed control thread.
    try {
      committer.checkHealthy();
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
    return Map.of();
  }

  @Override
  public void stop() {
    if (committer != null) {
      committer.close();
      committer = null;
    }
    if (metrics != null) {
      metrics.close();
      metrics = null;
    }
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        LOG.warn("Closing catalog '{}' failed", catalog.name(), e);
      }
    }
    catalog = null;
    LOG.info("Stopped Floe sink task");
  }
}
