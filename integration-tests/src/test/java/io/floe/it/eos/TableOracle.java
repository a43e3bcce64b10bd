/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.stack.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The exact checks of an exactly-once run, read from the tables through the Iceberg API and from
 * the Connect consumer group: every (topic, partition, offset) exactly once, no data file in two
 * snapshots, committed consumer offsets one past the last offset in the tables. Each table is read
 * on main, or on the branch the connector commits it to ({@link #onBranch}).
 */
public final class TableOracle {
  private final Catalog catalog;
  private final List<TableIdentifier> tables;
  private final Map<TableIdentifier, String> branches;

  public TableOracle(Catalog catalog, List<String> tables) {
    this(catalog, tables.stream().map(TableIdentifier::parse).toList(), Map.of());
  }

  private TableOracle(
      Catalog catalog, List<TableIdentifier> tables, Map<TableIdentifier, String> branches) {
    this.catalog = catalog;
    this.tables = tables;
    this.branches = branches;
  }

  /** This oracle, reading {@code table} on {@code branch} instead of main. */
  public TableOracle onBranch(String table, String branch) {
    Map<TableIdentifier, String> more = new HashMap<>(branches);
    more.put(TableIdentifier.parse(table), branch);
    return new TableOracle(catalog, tables, Map.copyOf(more));
  }

  /** The newest snapshot of the branch the table is read on, null if it has none. */
  private Snapshot head(TableIdentifier id, Table table) {
    String branch = branches.get(id);
    return branch == null ? table.currentSnapshot() : table.snapshot(branch);
  }

  /** The table's rows on the branch it is read on. */
  private CloseableIterable<Record> rows(TableIdentifier id) {
    Table table = catalog.loadTable(id);
    Snapshot head = head(id, table);
    return head == null
        ? CloseableIterable.empty()
        : IcebergGenerics.read(table).useSnapshot(head.snapshotId()).build();
  }

  /** A source record as the tables hold it. */
  public record Origin(String topic, int partition, long offset) {}

  /** Rows of every table on the branch it is read on (0 for a missing table or branch). */
  public long rowCount() {
    long rows = 0;
    for (TableIdentifier id : tables) {
      if (!catalog.tableExists(id)) {
        continue;
      }
      Snapshot snapshot = head(id, catalog.loadTable(id));
      if (snapshot != null) {
        rows += Long.parseLong(snapshot.summary().getOrDefault("total-records", "0"));
      }
    }
    return rows;
  }

  /** {@code total-records} of the current snapshots of {@code tables} (0 for a missing table). */
  public static long totalRecords(Catalog catalog, List<TableIdentifier> tables) {
    long rows = 0;
    for (TableIdentifier id : tables) {
      if (!catalog.tableExists(id)) {
        continue;
      }
      Snapshot snapshot = catalog.loadTable(id).currentSnapshot();
      if (snapshot != null) {
        rows += Long.parseLong(snapshot.summary().getOrDefault("total-records", "0"));
      }
    }
    return rows;
  }

  /** Every row's origin, from the Kafka metadata column, over all tables. */
  public List<Origin> origins() {
    List<Origin> origins = new ArrayList<>();
    for (TableIdentifier id : tables) {
      try (CloseableIterable<Record> rows = rows(id)) {
        for (Record row : rows) {
          Record kafka = (Record) row.getField("_kafka");
          origins.add(
              new Origin(
                  (String) kafka.getField("topic"),
                  (Integer) kafka.getField("partition"),
                  (Long) kafka.getField("offset")));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return origins;
  }

  /** The ids of every row, over all tables. */
  public List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    for (TableIdentifier id : tables) {
      try (CloseableIterable<Record> rows = rows(id)) {
        rows.forEach(row -> ids.add((Long) row.getField("id")));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ids;
  }

  /** Asserts every exactly-once property for {@code expected} records sent to {@code topic}. */
  public void assertExactlyOnce(Admin admin, String group, String topic, long expected) {
    List<Origin> origins = origins();
    assertThat(origins).as("rows in the tables").hasSize((int) expected);
    assertThat(new HashSet<>(origins))
        .as("distinct (topic, partition, offset)")
        .hasSize(origins.size());
    List<Long> ids = ids();
    assertThat(new HashSet<>(ids)).as("distinct ids").hasSize((int) expected);
    assertNoFileInTwoSnapshots();
    Map<Integer, Long> lastOffset = new HashMap<>();
    for (Origin origin : origins) {
      assertThat(origin.topic()).isEqualTo(topic);
      lastOffset.merge(origin.partition(), origin.offset(), Math::max);
    }
    Map<TopicPartition, OffsetAndMetadata> committed = committedOffsets(admin, group);
    lastOffset.forEach(
        (partition, offset) ->
            assertThat(committed.get(new TopicPartition(topic, partition)))
                .as("committed offset of partition %d", partition)
                .isNotNull()
                .extracting(OffsetAndMetadata::offset)
                .isEqualTo(offset + 1));
  }

  public void assertNoFileInTwoSnapshots() {
    for (TableIdentifier id : tables) {
      Table table = catalog.loadTable(id);
      Set<String> seen = new HashSet<>();
      for (Snapshot snapshot : table.snapshots()) {
        for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
          if (manifest.snapshotId() == null || manifest.snapshotId() != snapshot.snapshotId()) {
            continue;
          }
          try (ManifestReader<DataFile> files =
              ManifestFiles.read(manifest, table.io(), table.specs())) {
            for (DataFile file : files) {
              assertThat(seen.add(file.location()))
                  .as("data file %s added by more than one snapshot of %s", file.location(), id)
                  .isTrue();
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
  }

  /** Waits up to {@code timeout} for {@code expected} rows, and asserts exactly as many. */
  public void awaitRowCount(long expected, Duration timeout) throws InterruptedException {
    long rows = Await.untilAtLeast("rows in " + tables, timeout, this::rowCount, expected);
    assertThat(rows).as("rows in the tables").isEqualTo(expected);
  }

  /**
   * Waits up to {@code timeout} for the committed offset of {@code partition} in {@code group} to
   * reach {@code expected}, and asserts it is exactly that.
   */
  public static void awaitCommittedOffset(
      Admin admin, String group, TopicPartition partition, long expected, Duration timeout)
      throws InterruptedException {
    long committed =
        Await.untilAtLeast(
            "the offset " + group + " committed for " + partition,
            timeout,
            () -> {
              OffsetAndMetadata offset = committedOffsets(admin, group).get(partition);
              return offset == null ? -1L : offset.offset();
            },
            expected);
    assertThat(committed).as("committed offset of %s", partition).isEqualTo(expected);
  }

  public static Map<TopicPartition, OffsetAndMetadata> committedOffsets(Admin admin, String group) {
    try {
      return admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Cannot read the offsets of group " + group, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
