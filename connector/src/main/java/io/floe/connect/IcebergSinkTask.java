/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.CatalogUnreachableException;
import io.floe.connect.catalog.CatalogWait;
import io.floe.connect.catalog.TableProvider;
import io.floe.connect.commit.Committer;
import io.floe.connect.commit.FirstOffsets;
import io.floe.connect.config.CommitKeys;
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
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

  private final Clock clock;
  private FloeSinkConfig config;
  private Catalog catalog;

  /** Set while the task waits for a catalog that was out of reach when it started. */
  private CatalogWait catalogWait;

  private long nextCatalogAttemptMs;

  /** Partitions assigned while the task waits for its catalog. */
  private final Set<TopicPartition> assignedWhileWaiting = new HashSet<>();

  private Committer committer;
  private TaskMetrics metrics;
  private Secrets secrets = Secrets.of(Map.of());

  public IcebergSinkTask() {
    this(Clock.systemUTC());
  }

  IcebergSinkTask(Clock clock) {
    this.clock = clock;
  }

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
    this.config = config;
    long started = clock.millis();
    try {
      catalog = new CatalogLoader().load(config);
    } catch (CatalogUnreachableException e) {
      catalogWait = CatalogWait.startingAt(config, clock, started);
      nextCatalogAttemptMs = clock.millis() + catalogWait.nextBackoff().toMillis();
      LOG.warn(
          "Floe {} sink task {} started without its catalog, which is out of reach: it reads"
              + " nothing until the catalog answers, and fails if it does not within {}={} ms. {}",
          version(),
          config.taskIndex(),
          CommitKeys.COMMIT_RETRY_TIMEOUT_MS,
          config.commitRetryTimeout().toMillis(),
          e.getMessage());
      return;
    }
    wire();
  }

  /** Builds the task's parts once its catalog is loaded. */
  private void wire() {
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
            clock,
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
    if (catalogWait != null) {
      assignedWhileWaiting.addAll(partitions);
      return;
    }
    try {
      committer.open(partitions);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    if (catalogWait != null) {
      assignedWhileWaiting.removeAll(partitions);
      return;
    }
    try {
      committer.close(partitions);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    try {
      if (catalogWait != null && !catalogLoaded(records)) {
        return;
      }
      committer.put(records);
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  /**
   * Loads the catalog the task started without, when its next attempt is due. Once loaded, wires
   * the task, opens and resumes the partitions it was given meanwhile, and returns true. Until then
   * the task reads nothing: its partitions stay paused, a batch Connect had already fetched is
   * dropped and its partitions rewound to its first offsets, and Connect polls again when the next
   * attempt is due.
   */
  private boolean catalogLoaded(Collection<SinkRecord> records) {
    long now = clock.millis();
    if (now >= nextCatalogAttemptMs) {
      Optional<Catalog> loaded = catalogWait.attempt();
      if (loaded.isPresent()) {
        catalog = loaded.get();
        catalogWait = null;
        LOG.info(
            "Task {} loaded its catalog '{}' and starts reading",
            config.taskIndex(),
            catalog.name());
        wire();
        Set<TopicPartition> partitions = Set.copyOf(assignedWhileWaiting);
        assignedWhileWaiting.clear();
        if (!partitions.isEmpty()) {
          committer.open(partitions);
          context.resume(partitions.toArray(TopicPartition[]::new));
        }
        return true;
      }
      nextCatalogAttemptMs = now + catalogWait.nextBackoff().toMillis();
    }
    Map<TopicPartition, Long> first = FirstOffsets.of(records);
    if (!first.isEmpty()) {
      context.offset(first);
    }
    if (!assignedWhileWaiting.isEmpty()) {
      context.pause(assignedWhileWaiting.toArray(TopicPartition[]::new));
    }
    context.timeout(Math.max(1, nextCatalogAttemptMs - now));
    return false;
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Source offsets advance only inside the commit protocol's Kafka transactions, never here;
    // this is also where an idle task notices a failed control thread.
    try {
      if (committer != null) {
        committer.checkHealthy();
      }
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
    catalogWait = null;
    assignedWhileWaiting.clear();
    LOG.info("Stopped Floe sink task");
  }
}
