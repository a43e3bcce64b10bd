/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.commit.MutableClock;
import io.floe.connect.config.FloeSinkConfig;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class CatalogWaitTest {

  /**
   * A catalog out of reach while {@link #DOWN} is set, as a REST server that refuses connections.
   */
  public static class OutageCatalog extends InMemoryCatalog {
    static final AtomicInteger DOWN = new AtomicInteger();

    @Override
    public void initialize(String name, Map<String, String> properties) {
      if (DOWN.get() > 0) {
        throw new RuntimeException(
            "Error occurred while processing GET request",
            new java.net.ConnectException("Connection refused"));
      }
      super.initialize(name, properties);
    }
  }

  /** A catalog whose settings are wrong: no amount of waiting helps. */
  public static class MisconfiguredCatalog extends InMemoryCatalog {
    @Override
    public void initialize(String name, Map<String, String> properties) {
      throw new IllegalArgumentException("Invalid uri: not-a-uri");
    }
  }

  private static FloeSinkConfig config(Class<?> catalog) {
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.tables", "db.t");
    props.put("iceberg.catalog.catalog-impl", catalog.getName());
    props.put("iceberg.control.commit.retry-timeout-ms", "60000");
    return new FloeSinkConfig(props);
  }

  @Test
  void aCatalogOutOfReachIsWaitedForWithGrowingPausesAndLoadedWhenItAnswers() {
    OutageCatalog.DOWN.set(1);
    MutableClock clock = new MutableClock(1_000_000);
    CatalogWait wait = CatalogWait.startingAt(config(OutageCatalog.class), clock, clock.millis());

    assertThat(wait.attempt()).isEmpty();
    assertThat(wait.nextBackoff()).isEqualTo(Duration.ofSeconds(1));
    clock.advance(30_000);
    assertThat(wait.attempt()).isEmpty();
    assertThat(wait.nextBackoff()).isEqualTo(Duration.ofSeconds(2));
    for (int i = 0; i < 5; i++) {
      wait.nextBackoff();
    }
    assertThat(wait.nextBackoff()).isEqualTo(Duration.ofSeconds(10));

    OutageCatalog.DOWN.set(0);
    clock.advance(29_000);
    assertThat(wait.attempt()).get().isInstanceOf(OutageCatalog.class);
  }

  @Test
  void aCatalogOutOfReachLongerThanTheRetryTimeoutFailsTheTaskSayingSince() {
    OutageCatalog.DOWN.set(1);
    MutableClock clock = new MutableClock(1_000_000);
    CatalogWait wait = CatalogWait.startingAt(config(OutageCatalog.class), clock, clock.millis());
    clock.advance(60_001);
    assertThatThrownBy(wait::attempt)
        .isInstanceOf(ConnectException.class)
        .isNotInstanceOf(CatalogUnreachableException.class)
        .hasMessageContaining("out of reach since " + Instant.ofEpochMilli(1_000_000))
        .hasMessageContaining("iceberg.control.commit.retry-timeout-ms=60000")
        .hasMessageContaining("ConnectException: Connection refused");
  }

  @Test
  void aMisconfiguredCatalogFailsAtOnce() {
    MutableClock clock = new MutableClock(1_000_000);
    CatalogWait wait =
        CatalogWait.startingAt(config(MisconfiguredCatalog.class), clock, clock.millis());
    assertThatThrownBy(wait::attempt)
        .isInstanceOf(ConnectException.class)
        .isNotInstanceOf(CatalogUnreachableException.class)
        .hasMessageContaining("Invalid uri: not-a-uri");
  }

  @Test
  void onlyReachFailuresCountAsUnreachable() {
    assertThat(CatalogLoader.unreachable(new RuntimeException(new IOException("reset")))).isTrue();
    assertThat(
            CatalogLoader.unreachable(
                new RuntimeException(new java.sql.SQLException("refused", "08001"))))
        .isTrue();
    assertThat(
            CatalogLoader.unreachable(
                new org.apache.iceberg.exceptions.ServiceUnavailableException("503")))
        .isTrue();
    assertThat(
            CatalogLoader.unreachable(
                new RuntimeException(
                    new java.sql.SQLException("password authentication failed", "28P01"))))
        .isFalse();
    assertThat(
            CatalogLoader.unreachable(
                new org.apache.iceberg.exceptions.NotAuthorizedException("401")))
        .isFalse();
    assertThat(CatalogLoader.unreachable(new IllegalArgumentException("bad"))).isFalse();
  }
}
