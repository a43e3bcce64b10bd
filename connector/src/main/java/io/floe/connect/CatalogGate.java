/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.CatalogUnreachableException;
import io.floe.connect.catalog.CatalogWait;
import io.floe.connect.commit.FirstOffsets;
import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.version.FloeVersion;
import java.time.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way of a task that started while its catalog was out of reach: it keeps the partitions it is
 * given, reads nothing (they stay paused, and a batch Connect had already fetched is dropped and
 * its partitions rewound to its first offsets), and tries the catalog again when the next attempt
 * is due (Connect polls again then). See {@link CatalogWait} for the attempts and their limit.
 */
final class CatalogGate {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogGate.class);

  private final FloeSinkConfig config;
  private final Clock clock;
  private final Catalog loaded;
  private final CatalogWait wait;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private long nextAttemptMs;

  private CatalogGate(FloeSinkConfig config, Clock clock, Catalog loaded, long sinceMs) {
    this.config = config;
    this.clock = clock;
    this.loaded = loaded;
    this.wait = loaded == null ? CatalogWait.startingAt(config, clock, sinceMs) : null;
    this.nextAttemptMs = loaded == null ? clock.millis() + wait.nextBackoff().toMillis() : 0;
  }

  /** Loads the task's catalog at start; a gate to wait behind when it is out of reach. */
  static CatalogGate open(FloeSinkConfig config, Clock clock) {
    long started = clock.millis();
    try {
      return new CatalogGate(config, clock, new CatalogLoader().load(config), started);
    } catch (CatalogUnreachableException e) {
      LOG.warn(
          "Floe {} sink task {} started without its catalog, which is out of reach: it reads"
              + " nothing until the catalog answers, and fails if it does not within {}={} ms. {}",
          FloeVersion.get(),
          config.taskIndex(),
          CommitKeys.COMMIT_RETRY_TIMEOUT_MS,
          config.commitRetryTimeout().toMillis(),
          e.getMessage());
      return new CatalogGate(config, clock, null, started);
    }
  }

  /** The catalog, if it was loaded at start. */
  Optional<Catalog> catalog() {
    return Optional.ofNullable(loaded);
  }

  void assigned(Collection<TopicPartition> partitions) {
    assigned.addAll(partitions);
  }

  void revoked(Collection<TopicPartition> partitions) {
    assigned.removeAll(partitions);
  }

  /** The partitions given to the task while it waited: to open, and resume, once it is wired. */
  Set<TopicPartition> assigned() {
    return Set.copyOf(assigned);
  }

  /**
   * Tries the catalog when an attempt is due.
   *
   * @return the catalog once it answers; empty while the task keeps waiting (the batch is dropped)
   */
  Optional<Catalog> pass(Collection<SinkRecord> batch, SinkTaskContext context) {
    long now = clock.millis();
    if (now >= nextAttemptMs) {
      Optional<Catalog> loaded = wait.attempt();
      if (loaded.isPresent()) {
        LOG.info(
            "Task {} loaded its catalog '{}' and starts reading",
            config.taskIndex(),
            loaded.get().name());
        return loaded;
      }
      nextAttemptMs = now + wait.nextBackoff().toMillis();
    }
    Map<TopicPartition, Long> first = FirstOffsets.of(batch);
    if (!first.isEmpty()) {
      context.offset(first);
    }
    if (!assigned.isEmpty()) {
      context.pause(assigned.toArray(TopicPartition[]::new));
    }
    context.timeout(Math.max(1, nextAttemptMs - now));
    return Optional.empty();
  }
}
