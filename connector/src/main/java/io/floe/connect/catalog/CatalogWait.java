/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.CommitKeys;
import io.floe.connect.config.FloeSinkConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog of a task that started while the catalog was out of reach. A task started in a
 * rebalance during a catalog outage waits for the catalog as a running task waits for a failing
 * commit: it tries again with backoff, reads nothing meanwhile, and fails only when {@code
 * iceberg.control.commit.retry-timeout-ms} has passed since the first failure.
 */
public final class CatalogWait {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogWait.class);
  static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  private final FloeSinkConfig config;
  private final CatalogLoader loader;
  private final Clock clock;
  private final long sinceMs;
  private Duration backoff = FIRST_BACKOFF;

  /**
   * @param sinceMs when loading the catalog first failed
   */
  public CatalogWait(FloeSinkConfig config, CatalogLoader loader, Clock clock, long sinceMs) {
    this.config = config;
    this.loader = loader;
    this.clock = clock;
    this.sinceMs = sinceMs;
  }

  /** A wait whose every attempt is a single load, without sleeping. */
  public static CatalogWait startingAt(FloeSinkConfig config, Clock clock, long sinceMs) {
    return new CatalogWait(
        config,
        new CatalogLoader(new CatalogLoader.RetryPolicy(1, Duration.ZERO, Duration.ZERO), d -> {}),
        clock,
        sinceMs);
  }

  /**
   * Tries to load the catalog once.
   *
   * @return the catalog, or empty while it is out of reach and the retry timeout is not spent
   * @throws ConnectException when the catalog is misconfigured or the retry timeout is spent
   */
  public Optional<Catalog> attempt() {
    try {
      return Optional.of(loader.load(config));
    } catch (CatalogUnreachableException e) {
      long waited = clock.millis() - sinceMs;
      Duration timeout = config.commitRetryTimeout();
      if (waited > timeout.toMillis()) {
        throw new ConnectException(
            "Iceberg catalog '"
                + config.catalogName()
                + "' has been out of reach since "
                + Instant.ofEpochMilli(sinceMs)
                + " (longer than "
                + CommitKeys.COMMIT_RETRY_TIMEOUT_MS
                + "="
                + timeout.toMillis()
                + "); the task read nothing meanwhile, and a restart tries again. Last error: "
                + e.getMessage(),
            e);
      }
      LOG.warn(
          "Iceberg catalog '{}' is out of reach ({} s so far, the task fails after {} s): {}"
              + " The task reads nothing until it answers, and tries again in {} ms.",
          config.catalogName(),
          waited / 1000,
          timeout.toSeconds(),
          config.secrets().mask(CatalogLoader.rootCauseMessage(e)),
          backoff.toMillis());
      return Optional.empty();
    }
  }

  /** How long to pause before the next attempt; doubles with each call, up to a cap. */
  public Duration nextBackoff() {
    Duration next = backoff;
    Duration doubled = backoff.multipliedBy(2);
    backoff = doubled.compareTo(MAX_BACKOFF) <= 0 ? doubled : MAX_BACKOFF;
    return next;
  }
}
