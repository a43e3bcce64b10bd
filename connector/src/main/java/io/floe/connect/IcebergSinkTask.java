/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import io.floe.connect.version.FloeVersion;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Floe sink task. Lifecycle only: it loads the catalog ({@link CatalogGate}), has {@link
 * TaskParts} wire the parts over it, and delegates to them; every error it throws is cleared of
 * secrets first.
 */
public class IcebergSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkTask.class);

  private final Clock clock;
  private Secrets secrets = Secrets.of(Map.of());
  private FloeSinkConfig config;
  private CatalogGate gate;
  private TaskParts parts;

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
    PreloadedClasses.loadOnce();
    secrets = Secrets.of(props);
    guarded(
        () -> {
          config = new FloeSinkConfig(props);
          gate = CatalogGate.open(config, clock);
          gate.catalog().ifPresent(this::wire);
        });
  }

  private void wire(Catalog catalog) {
    parts = TaskParts.start(config, catalog, context, clock);
    LOG.info(
        "Started Floe {} sink task {}, catalog '{}'",
        version(),
        config.taskIndex(),
        catalog.name());
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    guarded(
        () -> {
          if (parts == null) {
            gate.assigned(partitions);
          } else {
            parts.committer().open(partitions);
          }
        });
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    guarded(
        () -> {
          if (parts == null) {
            gate.revoked(partitions);
          } else {
            parts.committer().close(partitions);
          }
        });
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    guarded(
        () -> {
          if (parts == null && !passGate(records)) {
            return;
          }
          parts.committer().put(records);
        });
  }

  /** Wires the task once the catalog it waits for answers, and opens what it was given. */
  private boolean passGate(Collection<SinkRecord> records) {
    Optional<Catalog> catalog = gate.pass(records, context);
    if (catalog.isEmpty()) {
      return false;
    }
    wire(catalog.get());
    Set<TopicPartition> waiting = gate.assigned();
    if (!waiting.isEmpty()) {
      parts.committer().open(waiting);
      context.resume(waiting.toArray(TopicPartition[]::new));
    }
    return true;
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Source offsets advance only inside the commit protocol's Kafka transactions, never here;
    // this is also where an idle task notices a failed control thread.
    if (parts != null) {
      guarded(parts.committer()::checkHealthy);
    }
    return Map.of();
  }

  private void guarded(Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      throw secrets.guard(e);
    }
  }

  @Override
  public void stop() {
    if (parts != null) {
      parts.close();
      parts = null;
    }
    gate = null;
    LOG.info("Stopped Floe sink task");
  }
}
