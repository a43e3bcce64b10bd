/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.branch.CommitBranch;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Orphan files on a real local file system: only files older than the minimum age that nothing of
 * the table and no pending control event names are orphans, and only those are deleted.
 */
class OrphanFilesTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final long DAY_MS = 86_400_000L;

  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private long now;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    catalog.createNamespace(Namespace.of("db"));
    now = System.currentTimeMillis();
  }

  /**
   * A table with a live data file, a data file only an older snapshot still holds, a delete file,
   * and, under its location, an old orphan, a young orphan and an old file a pending event names;
   * beside it a table whose name begins with this one's, with an old file of its own. Every file is
   * made ten days old except the young orphan.
   */
  private Table tableWithOrphans(int version) throws IOException {
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "orders"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", Integer.toString(version)));
    DataFile live = dataFile(table, "live");
    DataFile replaced = dataFile(table, "replaced");
    table.newFastAppend().appendFile(live).appendFile(replaced).commit();
    table.newDelete().deleteFile(replaced).commit();
    table.newRowDelta().addDeletes(deleteFile(table, live, version)).commit();
    touch(table.location() + "/data/orphan-old.parquet");
    touch(table.location() + "/data/in-flight.parquet");
    touch(warehouse.resolve("db/orders_archive/data/other.parquet").toString());
    ageEverything(10 * DAY_MS);
    touch(table.location() + "/data/orphan-young.parquet");
    return table;
  }

  private static DataFile dataFile(Table table, String name) throws IOException {
    String location = table.location() + "/data/" + name + ".parquet";
    touch(location);
    return DataFiles.builder(table.spec())
        .withPath(location)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1)
        .withRecordCount(1)
        .build();
  }

  /** Position deletes of {@code of}: a file of its own on v2, a deletion vector on v3. */
  private static DeleteFile deleteFile(Table table, DataFile of, int version) throws IOException {
    boolean dv = version >= 3;
    String location = table.location() + "/data/deletes." + (dv ? "puffin" : "parquet");
    touch(location);
    FileMetadata.Builder builder =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofPositionDeletes()
            .withPath(location)
            .withFormat(dv ? FileFormat.PUFFIN : FileFormat.PARQUET)
            .withFileSizeInBytes(1)
            .withRecordCount(1)
            .withReferencedDataFile(of.location());
    if (dv) {
      builder.withContentOffset(0).withContentSizeInBytes(1);
    }
    return builder.build();
  }

  private static void touch(String location) throws IOException {
    Path path = Path.of(location.replaceFirst("^file:", ""));
    Files.createDirectories(path.getParent());
    Files.write(path, new byte[] {1});
  }

  private void ageEverything(long ageMs) throws IOException {
    try (Stream<Path> files = Files.walk(warehouse)) {
      files
          .filter(Files::isRegularFile)
          .forEach(file -> assertThat(file.toFile().setLastModified(now - ageMs)).isTrue());
    }
  }

  private List<String> filesUnder(String location) throws IOException {
    try (Stream<Path> files = Files.walk(Path.of(location.replaceFirst("^file:", "")))) {
      return files.filter(Files::isRegularFile).map(Path::toString).sorted().toList();
    }
  }

  private static OrphanFiles.Settings settings(OrphanFiles.Mode mode) {
    return new OrphanFiles.Settings(mode, 3 * DAY_MS, Duration.ofDays(1));
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aDryRunFindsTheOldOrphanAndDeletesNothing(int version) throws IOException {
    Table table = tableWithOrphans(version);
    List<String> before = filesUnder(warehouse.toString());

    OrphanFiles.Result result =
        OrphanFiles.clean(
            table,
            settings(OrphanFiles.Mode.DRY_RUN),
            now,
            Set.of(table.location() + "/data/in-flight.parquet"),
            () -> false);

    assertThat(result.listable()).isTrue();
    assertThat(result.orphans()).isEqualTo(1);
    assertThat(result.sample()).singleElement().asString().endsWith("/data/orphan-old.parquet");
    assertThat(result.deleted()).isZero();
    assertThat(filesUnder(warehouse.toString())).isEqualTo(before);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void deletingRemovesOnlyTheOldOrphanAndTheTableReadsAsBefore(int version) throws IOException {
    Table table = tableWithOrphans(version);
    List<String> before = filesUnder(warehouse.toString());
    List<String> planned = plannedFiles(table);

    OrphanFiles.Result result =
        OrphanFiles.clean(
            table,
            settings(OrphanFiles.Mode.DELETE),
            now,
            Set.of(
                "file:" + table.location().replaceFirst("^file:", "") + "/data/in-flight.parquet"),
            () -> false);

    assertThat(result.deleted()).isEqualTo(1);
    List<String> after = filesUnder(warehouse.toString());
    assertThat(before).containsAll(after);
    assertThat(before.stream().filter(file -> !after.contains(file)))
        .singleElement()
        .asString()
        .endsWith("/data/orphan-old.parquet");
    // every metadata file, the version hint, the file an old snapshot holds, the young orphan,
    // the pending event's file and the other table's file are all still there
    assertThat(after)
        .anyMatch(file -> file.endsWith("version-hint.text"))
        .anyMatch(file -> file.endsWith("/data/replaced.parquet"))
        .anyMatch(file -> file.contains("/data/deletes."))
        .anyMatch(file -> file.endsWith("/data/orphan-young.parquet"))
        .anyMatch(file -> file.endsWith("/data/in-flight.parquet"))
        .anyMatch(file -> file.endsWith("/orders_archive/data/other.parquet"));
    Table reloaded = catalog.loadTable(TableIdentifier.of("db", "orders"));
    assertThat(plannedFiles(reloaded)).isEqualTo(planned);
    for (var snapshot : reloaded.snapshots()) {
      assertThat(new File(snapshot.manifestListLocation().replaceFirst("^file:", ""))).exists();
    }
  }

  /**
   * A table the connector commits to a branch: the files only the branch's snapshots name (main has
   * none of them) are no orphans.
   */
  @Test
  void theFilesOnlyABranchNamesAreNoOrphans() throws IOException {
    Table table = tableWithOrphans(2);
    DataFile onBranch = dataFile(table, "on-branch");
    DataFile replacedOnBranch = dataFile(table, "replaced-on-branch");
    table
        .newFastAppend()
        .appendFile(onBranch)
        .appendFile(replacedOnBranch)
        .toBranch("audit")
        .commit();
    table.newDelete().deleteFile(replacedOnBranch).toBranch("audit").commit();
    ageEverything(10 * DAY_MS);
    touch(table.location() + "/data/orphan-young.parquet");

    OrphanFiles.Result result =
        OrphanFiles.clean(
            table,
            settings(OrphanFiles.Mode.DELETE),
            now,
            Set.of(table.location() + "/data/in-flight.parquet"),
            () -> false);

    assertThat(result.deleted()).isEqualTo(1);
    assertThat(result.sample()).singleElement().asString().endsWith("/data/orphan-old.parquet");
    assertThat(filesUnder(warehouse.toString()))
        .anyMatch(file -> file.endsWith("/data/on-branch.parquet"))
        .anyMatch(file -> file.endsWith("/data/replaced-on-branch.parquet"));
  }

  @Test
  void aRunOutOfTimeDeletesNothingAndAFileIoThatCannotListIsSaidSo() throws IOException {
    Table table = tableWithOrphans(2);

    OrphanFiles.Result result =
        OrphanFiles.clean(table, settings(OrphanFiles.Mode.DELETE), now, Set.of(), () -> true);

    assertThat(result.orphans()).isEqualTo(2);
    assertThat(result.deleted()).isZero();
    org.apache.iceberg.inmemory.InMemoryCatalog memory =
        new org.apache.iceberg.inmemory.InMemoryCatalog();
    memory.initialize("memory", Map.of());
    memory.createNamespace(Namespace.of("db"));
    Table unlistable =
        memory.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
    assertThat(
            OrphanFiles.clean(
                    unlistable, settings(OrphanFiles.Mode.DELETE), now, Set.of(), () -> false)
                .listable())
        .isFalse();
  }

  /**
   * The coordinator's maintenance scans a table once per orphan interval, after its first regular
   * run, deletes the orphan in delete mode, and shows what it found in the table's metrics.
   */
  @Test
  void maintenanceScansOncePerOrphanIntervalAndCountsWhatItFound() throws Exception {
    Table table = tableWithOrphans(2);
    Coordinator coordinator = new Coordinator("orphan-test");
    io.floe.connect.commit.MutableClock clock = coordinator.clock;
    io.floe.connect.metrics.CoordinatorMetrics metrics = coordinator.metrics;
    java.util.concurrent.ExecutorService threads = coordinator.threads;
    try {
      TableMaintenance maintenance =
          maintenance(
              clock,
              threads,
              metrics,
              () -> java.util.Optional.of(Set.of(table.location() + "/data/in-flight.parquet")));
      Map<String, org.apache.iceberg.Snapshot> committed =
          Map.of("db.orders", table.currentSnapshot());
      javax.management.ObjectName bean =
          new javax.management.ObjectName(
              "io.floe:type=table-metrics,connector=orphan-test,table=db.orders");
      javax.management.MBeanServer server =
          java.lang.management.ManagementFactory.getPlatformMBeanServer();

      metrics.table("db.orders");
      clock.advance(Duration.ofMinutes(10).toMillis());
      maintenance.afterCommit(committed);
      assertThat(server.getAttribute(bean, "orphan-files-found"))
          .as("before the first orphan interval")
          .isEqualTo(-1L);

      clock.advance(Duration.ofMinutes(50).toMillis());
      maintenance.afterCommit(committed);
      assertThat(server.getAttribute(bean, "orphan-files-found")).isEqualTo(1L);
      assertThat(server.getAttribute(bean, "orphan-files-deleted")).isEqualTo(1L);
      assertThat(filesUnder(table.location())).noneMatch(f -> f.endsWith("orphan-old.parquet"));

      touch(table.location() + "/data/orphan-later.parquet");
      ageEverything(10 * DAY_MS);
      clock.advance(Duration.ofMinutes(10).toMillis());
      maintenance.afterCommit(committed);
      assertThat(filesUnder(table.location()))
          .as("within the orphan interval")
          .anyMatch(f -> f.endsWith("orphan-later.parquet"));
      clock.advance(Duration.ofMinutes(50).toMillis());
      maintenance.afterCommit(committed);
      assertThat(server.getAttribute(bean, "orphan-files-deleted")).isEqualTo(3L);
      assertThat(filesUnder(table.location()))
          .noneMatch(f -> f.endsWith("orphan-later.parquet"))
          .noneMatch(f -> f.endsWith("orphan-young.parquet"))
          .anyMatch(f -> f.endsWith("in-flight.parquet"));
    } finally {
      coordinator.close();
    }
  }

  /**
   * While the coordinator cannot name every file in flight (control events wait unread), a due scan
   * deletes nothing and waits for the next run, not for the next orphan interval.
   */
  @Test
  void aScanWaitsWhileTheFilesInFlightAreUnknownAndRunsAtTheNextRun() throws Exception {
    Table table = tableWithOrphans(2);
    Coordinator coordinator = new Coordinator("orphan-wait-test");
    io.floe.connect.commit.MutableClock clock = coordinator.clock;
    io.floe.connect.metrics.CoordinatorMetrics metrics = coordinator.metrics;
    java.util.concurrent.ExecutorService threads = coordinator.threads;
    java.util.concurrent.atomic.AtomicBoolean known =
        new java.util.concurrent.atomic.AtomicBoolean();
    try {
      TableMaintenance maintenance =
          maintenance(
              clock,
              threads,
              metrics,
              () -> known.get() ? java.util.Optional.of(Set.of()) : java.util.Optional.empty());
      Map<String, org.apache.iceberg.Snapshot> committed =
          Map.of("db.orders", table.currentSnapshot());

      clock.advance(Duration.ofHours(1).toMillis());
      maintenance.afterCommit(committed);
      assertThat(filesUnder(table.location()))
          .as("a scan while control events wait unread")
          .anyMatch(f -> f.endsWith("orphan-old.parquet"));

      known.set(true);
      clock.advance(Duration.ofMinutes(10).toMillis());
      maintenance.afterCommit(committed);
      assertThat(filesUnder(table.location()))
          .as("the next run, within the orphan interval of the scan that waited")
          .noneMatch(f -> f.endsWith("orphan-old.parquet"));
    } finally {
      coordinator.close();
    }
  }

  /** What the coordinator's maintenance runs with: its clock, metrics and threads. */
  private final class Coordinator {
    final io.floe.connect.commit.MutableClock clock = new io.floe.connect.commit.MutableClock(now);
    final io.floe.connect.metrics.CoordinatorMetrics metrics;
    final java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(2);

    Coordinator(String task) {
      metrics =
          new io.floe.connect.metrics.CoordinatorMetrics(
              io.floe.connect.metrics.MetricsRegistry.forTask(task, null), clock);
    }

    void close() {
      metrics.close();
      threads.shutdownNow();
    }
  }

  /** The coordinator's maintenance of db.orders: orphans deleted once 3 days old, hourly. */
  private TableMaintenance maintenance(
      io.floe.connect.commit.MutableClock clock,
      java.util.concurrent.ExecutorService threads,
      io.floe.connect.metrics.CoordinatorMetrics metrics,
      java.util.function.Supplier<java.util.Optional<Set<String>>> inFlight) {
    return maintenance("db.orders"::equals, clock, threads, metrics, inFlight);
  }

  /** The coordinator's maintenance of the tables {@code maintained}, as above. */
  private TableMaintenance maintenance(
      java.util.function.Predicate<String> maintained,
      io.floe.connect.commit.MutableClock clock,
      java.util.concurrent.ExecutorService threads,
      io.floe.connect.metrics.CoordinatorMetrics metrics,
      java.util.function.Supplier<java.util.Optional<Set<String>>> inFlight) {
    return new TableMaintenance(
        catalog,
        new MaintenanceSettings(
                maintained,
                Duration.ofMinutes(10),
                false,
                SnapshotExpiry.Policy.ICEBERG_DEFAULTS,
                null,
                0)
            .withOrphans(
                new OrphanFiles.Settings(OrphanFiles.Mode.DELETE, 3 * DAY_MS, Duration.ofHours(1))),
        clock,
        threads,
        metrics::table,
        Marks.NONE,
        table -> CommitBranch.MAIN,
        text -> text,
        inFlight);
  }

  /**
   * The files in flight are asked for once per round, whatever the number of tables: the
   * coordinator knows them once it has read the control topic to the end it saw at the previous
   * question, and while workers keep writing it is never at the end it sees now. Asked once per
   * table, the second table of every round compared against the end the first had just seen, and
   * waited for ever.
   */
  @Test
  void aScanThatWaitedRunsAtTheNextRoundForEveryTableWhileEventsKeepComing() throws Exception {
    catalog.createTable(TableIdentifier.of("db", "first"), SCHEMA, PartitionSpec.unpartitioned());
    Table table = tableWithOrphans(2);
    Coordinator coordinator = new Coordinator("orphan-round-test");
    io.floe.connect.commit.MutableClock clock = coordinator.clock;
    io.floe.connect.metrics.CoordinatorMetrics metrics = coordinator.metrics;
    java.util.concurrent.ExecutorService threads = coordinator.threads;
    // as Coordinator.inFlight: each question sees one more event at the end of the control topic;
    // known when the position reaches that end, or the end seen at the question before
    long[] end = {0};
    long[] position = {0};
    long[] seenBefore = {-1};
    java.util.function.Supplier<java.util.Optional<Set<String>>> inFlight =
        () -> {
          end[0]++;
          boolean known =
              position[0] >= end[0] || (seenBefore[0] >= 0 && position[0] >= seenBefore[0]);
          seenBefore[0] = end[0];
          return known ? java.util.Optional.of(Set.of()) : java.util.Optional.empty();
        };
    try {
      TableMaintenance maintenance =
          maintenance(
              name -> name.equals("db.first") || name.equals("db.orders"),
              clock,
              threads,
              metrics,
              inFlight);
      Map<String, org.apache.iceberg.Snapshot> committed = new java.util.LinkedHashMap<>();
      committed.put("db.first", null);
      committed.put("db.orders", table.currentSnapshot());
      for (int round = 0; round < 3; round++) {
        clock.advance(Duration.ofHours(1).toMillis());
        maintenance.afterCommit(committed);
        position[0] = end[0]; // the coordinator reads on between two rounds
      }
      assertThat(filesUnder(table.location()))
          .as("the second table's orphan, after a round that waited")
          .noneMatch(f -> f.endsWith("orphan-old.parquet"));
    } finally {
      coordinator.close();
    }
  }

  @Test
  void locationsAreComparedByPathWhateverTheirSchemeAndAuthority() {
    assertThat(OrphanFiles.path("file:/w/db/t/f.parquet")).isEqualTo("/w/db/t/f.parquet");
    assertThat(OrphanFiles.path("file:///w/db/t/f.parquet")).isEqualTo("/w/db/t/f.parquet");
    assertThat(OrphanFiles.path("/w//db/t/f.parquet")).isEqualTo("/w/db/t/f.parquet");
    assertThat(OrphanFiles.path("s3://bucket/w/db/t/f.parquet")).isEqualTo("/w/db/t/f.parquet");
    assertThat(OrphanFiles.path("s3a://bucket/w/db/t/f.parquet")).isEqualTo("/w/db/t/f.parquet");
  }

  private static List<String> plannedFiles(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      List<String> files = new java.util.ArrayList<>();
      for (FileScanTask task : tasks) {
        files.add(task.file().location());
        task.deletes().forEach(delete -> files.add(delete.location()));
      }
      return files.stream().sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
