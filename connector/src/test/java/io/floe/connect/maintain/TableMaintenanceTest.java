/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.MetricsRegistry;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** When the coordinator maintains which table, and that a failed run fails nothing else. */
class TableMaintenanceTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final Instant[] now = {Instant.parse("2026-12-05T00:00:00Z")};
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now[0];
        }
      };
  private InMemoryCatalog catalog;
  private CoordinatorMetrics metrics;

  @BeforeEach
  void createTables() {
    catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    for (String name : List.of("kept", "left")) {
      Table table =
          catalog.createTable(
              TableIdentifier.of("db", name), SCHEMA, PartitionSpec.unpartitioned());
      for (int i = 0; i < 3; i++) {
        table.newFastAppend().commit();
      }
    }
    metrics = new CoordinatorMetrics(MetricsRegistry.forTask("maintenance-test", null), clock);
  }

  @AfterEach
  void close() {
    metrics.close();
    threads.shutdownNow();
  }

  private TableMaintenance maintenance() {
    return maintenance("db.kept"::equals);
  }

  /** Expiry down to the newest snapshot, every 10 minutes, of the tables {@code maintained}. */
  private TableMaintenance maintenance(java.util.function.Predicate<String> maintained) {
    return new TableMaintenance(
        catalog,
        new MaintenanceSettings(
            maintained, Duration.ofMinutes(10), true, new SnapshotExpiry.Policy(0, 1), null, 0),
        clock,
        threads,
        metrics::table,
        Marks.NONE,
        text -> text.replace("secret", "****"));
  }

  private int snapshots(String name) {
    int n = 0;
    for (Object ignored : catalog.loadTable(TableIdentifier.parse(name)).snapshots()) {
      n++;
    }
    return n;
  }

  private Object attribute(String table, String name) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    for (ObjectName bean : server.queryNames(null, null)) {
      if (bean.toString().contains("maintenance-test") && bean.toString().contains(table)) {
        return server.getAttribute(bean, name);
      }
    }
    throw new AssertionError("no metrics of " + table);
  }

  @Test
  void aMaintainedTableIsMaintainedOncePerIntervalAndATableLeftToOthersNever() throws Exception {
    TableMaintenance maintenance = maintenance();

    maintenance.afterCommit(List.of("db.kept", "db.left"));
    assertThat(snapshots("db.kept")).as("within the first interval after the start").isEqualTo(3);

    now[0] = now[0].plus(Duration.ofMinutes(10));
    maintenance.afterCommit(List.of("db.kept", "db.left"));
    assertThat(snapshots("db.kept")).isEqualTo(1);
    assertThat(snapshots("db.left")).isEqualTo(3);
    assertThat(attribute("db.kept", "snapshots-expired")).isEqualTo(2L);
    assertThat(attribute("db.kept", "snapshots")).isEqualTo(1L);

    catalog.loadTable(TableIdentifier.parse("db.kept")).newFastAppend().commit();
    now[0] = now[0].plus(Duration.ofMinutes(9));
    maintenance.afterCommit(List.of("db.kept"));
    assertThat(snapshots("db.kept")).as("within the interval").isEqualTo(2);

    now[0] = now[0].plus(Duration.ofMinutes(1));
    maintenance.afterCommit(List.of("db.kept"));
    assertThat(snapshots("db.kept")).isEqualTo(1);
    assertThat(attribute("db.kept", "snapshots-expired")).isEqualTo(3L);
  }

  @Test
  void aFailedRunIsCountedThrowsNothingAndEndsTheRound() throws Exception {
    catalog.createTable(
        TableIdentifier.of("db", "later"),
        SCHEMA,
        org.apache.iceberg.PartitionSpec.unpartitioned());
    Table later = catalog.loadTable(TableIdentifier.parse("db.later"));
    for (int i = 0; i < 3; i++) {
      later.newFastAppend().commit();
    }
    catalog.dropTable(TableIdentifier.parse("db.kept"));
    TableMaintenance maintenance = maintenance(table -> true);
    now[0] = now[0].plus(Duration.ofMinutes(10));

    maintenance.afterCommit(List.of("db.kept", "db.later"));

    assertThat(attribute("db.kept", "maintenance-failures")).isEqualTo(1L);
    assertThat(snapshots("db.later")).as("not reached in the failed round").isEqualTo(3);
    maintenance.afterCommit(List.of("db.later"));
    assertThat(snapshots("db.later")).as("and not before its interval").isEqualTo(3);
    now[0] = now[0].plus(Duration.ofMinutes(10));
    maintenance.afterCommit(List.of("db.later"));
    assertThat(snapshots("db.later")).isEqualTo(1);
  }
}
