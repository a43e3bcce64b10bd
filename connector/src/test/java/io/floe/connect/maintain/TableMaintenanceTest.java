/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.MetricsRegistry;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
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
    return maintenance(
        new MaintenanceSettings(
            maintained, Duration.ofMinutes(10), true, new SnapshotExpiry.Policy(0, 1), null, 0));
  }

  private TableMaintenance maintenance(MaintenanceSettings settings) {
    return maintenance(settings, table -> CommitBranch.MAIN);
  }

  private TableMaintenance maintenance(
      MaintenanceSettings settings, java.util.function.Function<String, CommitBranch> branches) {
    return new TableMaintenance(
        catalog,
        settings,
        clock,
        threads,
        metrics::table,
        Marks.NONE,
        branches,
        text -> text.replace("secret", "****"),
        () -> java.util.Optional.of(Set.of()));
  }

  /**
   * What a cycle committed: each table's current snapshot (none for a dropped table). Returns once
   * every snapshot of those tables is older than the wall clock ({@link #olderThanTheWallClock}).
   */
  private Map<String, Snapshot> committed(String... tables) {
    Map<String, Snapshot> committed = new LinkedHashMap<>();
    for (String name : tables) {
      TableIdentifier id = TableIdentifier.parse(name);
      if (catalog.tableExists(id)) {
        Table table = catalog.loadTable(id);
        olderThanTheWallClock(table);
        committed.put(name, table.currentSnapshot());
      } else {
        committed.put(name, null);
      }
    }
    return committed;
  }

  /**
   * Waits (a millisecond at most) until the wall clock has passed every snapshot of the table.
   * Iceberg stamps a snapshot with the wall clock and the expiry counts its age on it, while {@link
   * #clock} says only when a run is due: a snapshot committed in the millisecond of the run is not
   * older than the maximum age of 0 and would be kept.
   */
  private static void olderThanTheWallClock(Table table) {
    long newest = 0;
    for (Snapshot snapshot : table.snapshots()) {
      newest = Math.max(newest, snapshot.timestampMillis());
    }
    while (System.currentTimeMillis() <= newest) {
      Thread.onSpinWait();
    }
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

    maintenance.afterCommit(committed("db.kept", "db.left"));
    assertThat(snapshots("db.kept")).as("within the first interval after the start").isEqualTo(3);

    now[0] = now[0].plus(Duration.ofMinutes(10));
    maintenance.afterCommit(committed("db.kept", "db.left"));
    assertThat(snapshots("db.kept")).isEqualTo(1);
    assertThat(snapshots("db.left")).isEqualTo(3);
    assertThat(attribute("db.kept", "snapshots-expired")).isEqualTo(2L);
    assertThat(attribute("db.kept", "snapshots")).isEqualTo(1L);

    catalog.loadTable(TableIdentifier.parse("db.kept")).newFastAppend().commit();
    now[0] = now[0].plus(Duration.ofMinutes(9));
    maintenance.afterCommit(committed("db.kept"));
    assertThat(snapshots("db.kept")).as("within the interval").isEqualTo(2);

    now[0] = now[0].plus(Duration.ofMinutes(1));
    maintenance.afterCommit(committed("db.kept"));
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

    maintenance.afterCommit(committed("db.kept", "db.later"));

    assertThat(attribute("db.kept", "maintenance-failures")).isEqualTo(1L);
    assertThat(snapshots("db.later")).as("not reached in the failed round").isEqualTo(3);
    maintenance.afterCommit(committed("db.later"));
    assertThat(snapshots("db.later")).as("and not before its interval").isEqualTo(3);
    now[0] = now[0].plus(Duration.ofMinutes(10));
    maintenance.afterCommit(committed("db.later"));
    assertThat(snapshots("db.later")).isEqualTo(1);
  }

  private static MaintenanceSettings expiryOf(String table, MaintenanceSettings.Triggers triggers) {
    return new MaintenanceSettings(
        table::equals,
        Duration.ofMinutes(10),
        true,
        new SnapshotExpiry.Policy(0, 1),
        null,
        0,
        triggers,
        Duration.ofMinutes(1),
        null);
  }

  @Test
  void aTriggerBringsARunForwardButNeverWithinTheMinimumInterval() {
    TableMaintenance maintenance =
        maintenance(
            expiryOf("db.kept", new MaintenanceSettings.Triggers(Duration.ofMinutes(1), 3, 0, 0)));
    Table kept = catalog.loadTable(TableIdentifier.parse("db.kept"));
    now[0] = now[0].plus(Duration.ofMinutes(2));

    maintenance.afterCommit(committed("db.kept"));
    maintenance.afterCommit(committed("db.kept"));
    assertThat(snapshots("db.kept")).as("two commits, the trigger is three").isEqualTo(3);
    maintenance.afterCommit(committed("db.kept"));
    assertThat(snapshots("db.kept")).as("at the third commit").isEqualTo(1);

    for (int i = 0; i < 3; i++) {
      kept.newFastAppend().commit();
      maintenance.afterCommit(committed("db.kept"));
    }
    assertThat(snapshots("db.kept")).as("three more, within the minimum interval").isEqualTo(4);
    now[0] = now[0].plus(Duration.ofMinutes(1));
    kept.newFastAppend().commit();
    maintenance.afterCommit(committed("db.kept"));
    assertThat(snapshots("db.kept")).isEqualTo(1);
  }

  @Test
  void addedDataFilesAndAShareOfDeletedRowsBringARunForward() {
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "trig"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"));
    TableMaintenance maintenance =
        maintenance(
            expiryOf(
                "db.trig", new MaintenanceSettings.Triggers(Duration.ofMinutes(1), 0, 4, 0.25)));
    now[0] = now[0].plus(Duration.ofMinutes(2));

    table.newFastAppend().appendFile(file(1)).appendFile(file(2)).appendFile(file(3)).commit();
    maintenance.afterCommit(committed("db.trig"));
    table.newFastAppend().commit();
    maintenance.afterCommit(committed("db.trig"));
    assertThat(snapshots("db.trig")).as("three data files, the trigger is four").isEqualTo(2);
    table.newFastAppend().appendFile(file(4)).commit();
    maintenance.afterCommit(committed("db.trig"));
    assertThat(snapshots("db.trig")).as("at the fourth data file").isEqualTo(1);

    now[0] = now[0].plus(Duration.ofMinutes(2));
    table.newRowDelta().addDeletes(positionDeletes(0.2)).commit();
    maintenance.afterCommit(committed("db.trig"));
    assertThat(snapshots("db.trig"))
        .as("0.2 of the rows deleted, the trigger is 0.25")
        .isEqualTo(2);
    table.newRowDelta().addDeletes(positionDeletes(0.1)).commit();
    maintenance.afterCommit(committed("db.trig"));
    assertThat(snapshots("db.trig")).as("0.3 of the rows deleted").isEqualTo(1);
  }

  /**
   * A table the connector commits to a branch: its maintenance neither compacts it nor rewrites its
   * manifests (those commits would go to main), says so once, and expires the branch's snapshots.
   */
  @Test
  void aTableOnABranchIsNotRewrittenAndItsBranchsSnapshotsExpire() {
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "branched"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"));
    for (int i = 0; i < 4; i++) {
      table.newFastAppend().appendFile(file(10 + i)).toBranch("audit").commit();
    }
    TableMaintenance maintenance =
        maintenance(
            new MaintenanceSettings(
                "db.branched"::equals,
                Duration.ofMinutes(10),
                true,
                new SnapshotExpiry.Policy(0, 1),
                new Compaction.Settings(2, 0.2, Long.MAX_VALUE),
                1),
            name -> CommitBranch.of("audit"));
    now[0] = now[0].plus(Duration.ofMinutes(10));
    olderThanTheWallClock(table);
    Map<String, Snapshot> committed = Map.of("db.branched", table.snapshot("audit"));

    try (io.floe.connect.LogCapture logs = io.floe.connect.LogCapture.of(TableMaintenance.class)) {
      maintenance.afterCommit(committed);
      now[0] = now[0].plus(Duration.ofMinutes(10));
      maintenance.afterCommit(committed);

      assertThat(logs.at("INFO"))
          .filteredOn(line -> line.contains("commits it to branch audit"))
          .singleElement()
          .asString()
          .contains("does not compact it or rewrite its deletion vectors or manifests");
      assertThat(logs.at("WARN")).isEmpty();
    }
    table.refresh();
    Snapshot head = table.snapshot("audit");
    assertThat(head.summary()).containsEntry("total-data-files", "4");
    assertThat(head.allManifests(table.io())).as("not rewritten").hasSize(4);
    assertThat(snapshots("db.branched")).as("the branch's newest only").isEqualTo(1);
    assertThat(table.currentSnapshot()).as("main").isNull();
  }

  /** A data file of 10 rows. */
  private static DataFile file(int n) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("/data/file-" + n + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(10)
        .build();
  }

  /** Position deletes removing {@code share} of the table's 40 rows. */
  private static DeleteFile positionDeletes(double share) {
    return FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
        .ofPositionDeletes()
        .withPath("/data/deletes-" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(Math.round(40 * share))
        .build();
  }
}
