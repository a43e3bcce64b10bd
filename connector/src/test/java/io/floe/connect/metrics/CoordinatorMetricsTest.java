/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.commit.MutableClock;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class CoordinatorMetricsTest {
  private final MBeanServer server = MBeanServerFactory.newMBeanServer();
  private final MetricsRegistry registry = MetricsRegistry.jmxOnly(server, "orders-sink");
  private final MutableClock clock = new MutableClock(1_000_000);

  @Test
  void cyclesAreCountedByHowTheyEnded() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    metrics.cycleStarted();
    metrics.cycleFinished(false, 2, 6, 6);
    metrics.cycleStarted();
    metrics.cycleFinished(true, 1, 3, 6);
    metrics.cycleStarted();
    metrics.controlTopicLag(4);

    ObjectName name = new ObjectName("io.floe:type=coordinator-metrics,connector=orders-sink");
    assertThat(server.getAttribute(name, "cycles-started")).isEqualTo(3L);
    assertThat(server.getAttribute(name, "cycles-completed")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "cycles-timed-out")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "last-cycle-workers-answered")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "last-cycle-partitions-answered")).isEqualTo(3L);
    assertThat(server.getAttribute(name, "last-cycle-partitions-expected")).isEqualTo(6L);
    assertThat(server.getAttribute(name, "control-topic-lag")).isEqualTo(4L);
    metrics.close();
    assertThat(server.isRegistered(name)).isFalse();
  }

  @Test
  void eachProfiledColumnIsAnMBeanOfItsTableGoneWithIt() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    TableMetrics table = metrics.table("db.orders");
    table.profiled(
        200,
        java.util.List.of(
            new ColumnCounts("amount", 5, 2), new ColumnCounts("customer.country", -1, -1)));
    table.profiled(100, java.util.List.of(new ColumnCounts("amount", 1, 0)));

    ObjectName amount =
        new ObjectName(
            "io.floe:type=column-profile,connector=orders-sink,table=db.orders,column=amount");
    assertThat(server.getAttribute(amount, "last-commit-rows")).isEqualTo(100L);
    assertThat(server.getAttribute(amount, "last-commit-nulls")).isEqualTo(1L);
    assertThat(server.getAttribute(amount, "last-commit-null-fraction-ppm")).isEqualTo(10_000L);
    assertThat(server.getAttribute(amount, "last-commit-nans")).isEqualTo(0L);
    assertThat(server.getAttribute(amount, "rows-profiled")).isEqualTo(300L);
    assertThat(server.getAttribute(amount, "nulls-profiled")).isEqualTo(6L);
    ObjectName country =
        new ObjectName(
            "io.floe:type=column-profile,connector=orders-sink,table=db.orders,"
                + "column=customer.country");
    assertThat(server.getAttribute(country, "last-commit-null-fraction-ppm")).isEqualTo(-1L);
    metrics.close();
    assertThat(server.isRegistered(amount)).isFalse();
    assertThat(server.isRegistered(country)).isFalse();
  }

  @Test
  void freshnessLagGrowsUntilACommitMovesTheWatermark() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    TableMetrics table = metrics.table("db.orders");
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=orders-sink,table=db.orders");
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(-1L);

    table.committed(11, 100, 2, 5000, 40, clock.millis() - 300, false);
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(300L);
    clock.advance(10_000);
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(10_300L);

    table.committed(12, 50, 1, 2500, 30, clock.millis() - 200, true);
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(200L);
    assertThat(server.getAttribute(name, "snapshot-id")).isEqualTo(12L);
    assertThat(server.getAttribute(name, "last-commit-records")).isEqualTo(50L);
    assertThat(server.getAttribute(name, "last-commit-files")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "last-commit-bytes")).isEqualTo(2500L);
    assertThat(server.getAttribute(name, "last-commit-duration-ms")).isEqualTo(30L);
    assertThat(server.getAttribute(name, "last-commit-time-ms")).isEqualTo(clock.millis());
    assertThat(server.getAttribute(name, "records-committed")).isEqualTo(150L);
    assertThat(server.getAttribute(name, "commits")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "partial-commits")).isEqualTo(1L);
  }

  @Test
  void theTablesShapeComesFromTheSummaryOfItsLastCommitAndItsExpiriesAddUp() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    TableMetrics table = metrics.table("db.orders");
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=orders-sink,table=db.orders");
    assertThat(server.getAttribute(name, "data-files")).isEqualTo(-1L);
    assertThat(server.getAttribute(name, "deleted-rows-per-mille")).isEqualTo(-1L);

    table.shape(
        java.util.Map.of(
            "total-data-files", "8",
            "total-delete-files", "2",
            "total-records", "4000",
            "total-files-size", "10000",
            "total-position-deletes", "1000"));
    assertThat(server.getAttribute(name, "data-files")).isEqualTo(8L);
    assertThat(server.getAttribute(name, "delete-files")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "average-file-bytes")).isEqualTo(1000L);
    assertThat(server.getAttribute(name, "deleted-rows-per-mille")).isEqualTo(250L);

    table.expired(5, 10, 12, 40);
    table.expired(0, 11, 0, 3);
    table.maintenanceFailed();
    assertThat(server.getAttribute(name, "snapshots")).isEqualTo(11L);
    assertThat(server.getAttribute(name, "snapshots-expired")).isEqualTo(5L);
    assertThat(server.getAttribute(name, "expiry-files-deleted")).isEqualTo(12L);
    assertThat(server.getAttribute(name, "maintenance-time-ms")).isEqualTo(43L);
    assertThat(server.getAttribute(name, "maintenance-failures")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "last-snapshot-expiry-time-ms")).isEqualTo(clock.millis());
  }

  @Test
  void anOlderWatermarkNeverMovesTheLagBackAndAFailureIsCounted() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    TableMetrics table = metrics.table("db.orders");
    table.committed(11, 1, 1, 1, 1, clock.millis() - 100, false);
    table.committed(12, 1, 1, 1, 1, clock.millis() - 900, false);
    table.committed(13, 1, 1, 1, 1, null, false);
    table.failed();
    table.alreadyCommitted(2);
    table.alreadyCommitted(1);
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=orders-sink,table=db.orders");
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(100L);
    assertThat(server.getAttribute(name, "commit-failures")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "manifests-already-committed")).isEqualTo(3L);
  }

  @Test
  void aNewCoordinatorShowsTheTablesLastCommitUntilItCommitsItself() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    metrics.table("db.orders").restored(7, clock.millis() - 5_000, clock.millis() - 6_000);
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=orders-sink,table=db.orders");
    assertThat(server.getAttribute(name, "snapshot-id")).isEqualTo(7L);
    assertThat(server.getAttribute(name, "last-commit-time-ms")).isEqualTo(clock.millis() - 5_000);
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(6_000L);
    assertThat(server.getAttribute(name, "commits")).isEqualTo(0L);
    metrics.close();
  }

  @Test
  void aRestoreThatFinishesAfterTheFirstCommitChangesNothing() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    TableMetrics table = metrics.table("db.orders");
    table.committed(12, 5, 1, 100, 20, clock.millis() - 1_000, false);
    table.restored(7, clock.millis() - 5_000, clock.millis() - 6_000);
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=orders-sink,table=db.orders");
    assertThat(server.getAttribute(name, "snapshot-id")).isEqualTo(12L);
    assertThat(server.getAttribute(name, "last-commit-time-ms")).isEqualTo(clock.millis());
    assertThat(server.getAttribute(name, "freshness-lag-ms")).isEqualTo(1_000L);
    metrics.close();
  }

  @Test
  void closingTheCoordinatorRemovesEveryTableMBean() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry, clock);
    metrics.table("db.orders");
    metrics.table("db.refunds").failed();
    assertThat(server.queryNames(new ObjectName("io.floe:type=table-metrics,*"), null)).hasSize(2);
    metrics.close();
    assertThat(server.queryNames(new ObjectName("io.floe:*"), null)).isEmpty();
  }
}
