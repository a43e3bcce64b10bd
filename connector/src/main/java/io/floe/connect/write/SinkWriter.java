/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.TableProvider;
import io.floe.connect.cdc.BadChangeException;
import io.floe.connect.cdc.ChangeCounts;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.contract.ContractViolation;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.metrics.WriterCounts;
import io.floe.connect.route.RecordRouter;
import io.floe.connect.write.TableStates.TableState;
import io.floe.connect.write.UpsertTables.FoldedChange;
import io.floe.connect.write.UpsertTables.KeyHandOver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A task's way from {@code SinkRecord}s to data files (ARCHITECTURE.md, "Writing"): routes each
 * record, converts it with the cached plan of its (record schema, table schema) pair, creates
 * missing tables, and writes the row to the table's writer; the tables, their writers and their
 * schemas' evolution are its {@link TableStates}. It also remembers, per source partition, how far
 * the task got, so that a hand-over commits exactly what was processed.
 *
 * <p>A table in upsert mode takes its records as changes of keys ({@link UpsertTables}): each image
 * is written as it comes and the changes folded until the hand-over by its {@link UpsertBuffer};
 * the hand-over adds the retired keys as a key file and the positions of the images later changes
 * superseded ({@link KeyFiles}). A tombstone has no value to route by: with a static table list and
 * no route field it deletes its key in every listed table in upsert mode (the other tables ignore
 * it), and goes to the tombstone outcome only when no table is in upsert mode. With a route field
 * or dynamic routing a tombstone always goes to the tombstone outcome: deletes must then come as
 * records that carry the route value (a Debezium {@code d}, or {@code __deleted=true}). When no
 * table is in upsert mode none of this costs anything.
 *
 * <p>Not thread-safe: the caller serialises {@link #write}, {@link #handOver} and {@link #abandon}.
 */
public final class SinkWriter implements AutoCloseable {
  private final RecordRouter router;
  private final WriterPool pool;
  private final RecordOutcomes outcomes;
  private final TableStates states;
  private final UpsertTables upserts;
  private final Quarantine quarantine;
  private final Map<TopicPartition, SourceTracker> positions = new LinkedHashMap<>();
  private final boolean upsertModeUsed;
  private final List<String> tombstoneTables;

  /** The source partition of the last record and its tracker: runs of one partition reuse them. */
  private TopicPartition lastOrigin;

  private SourceTracker lastTracker;
  private long bytesAtHandOver;
  private long conversionErrors;
  private long contractViolations;

  /**
   * What happens to records that are not written: the seam to the bad-record policy, which either
   * reports the record (and returns) or throws.
   */
  public interface RecordOutcomes {
    /** A tombstone (null value): skip it or throw. */
    void tombstone(SinkRecord record);

    /** A record that cannot be routed, converted or written to {@code table} (null if unknown). */
    void failed(SinkRecord record, String table, RuntimeException cause);
  }

  /** The write path of a task, as its config sets it up: the one way tasks and tests build it. */
  public static SinkWriter forTask(
      FloeSinkConfig config, Catalog catalog, RecordOutcomes outcomes) {
    return forTask(
        config,
        catalog,
        outcomes,
        WriterPoolOptions.of(config),
        config.taskIndex(),
        Clock.systemUTC());
  }

  /**
   * The write path of a task with other writer limits or layout, task index or clock (tests).
   *
   * @param taskIndex names the task in the files it writes
   * @param clock when files are opened, for their age
   */
  public static SinkWriter forTask(
      FloeSinkConfig config,
      Catalog catalog,
      RecordOutcomes outcomes,
      WriterPoolOptions options,
      int taskIndex,
      Clock clock) {
    return new SinkWriter(
        config,
        new TableProvider(catalog, config),
        new WriterPool(options, config.writeProperties(), taskIndex, clock, config.secrets()),
        config.convertOptions(),
        outcomes,
        clock);
  }

  private SinkWriter(
      FloeSinkConfig config,
      TableProvider provider,
      WriterPool pool,
      ConvertOptions convertOptions,
      RecordOutcomes outcomes,
      Clock clock) {
    this.router = RecordRouter.from(config);
    this.pool = pool;
    this.outcomes = outcomes;
    KeyColumns keyColumns = new KeyColumns(config);
    this.states =
        new TableStates(
            provider,
            pool,
            convertOptions,
            config.kafkaMetadataColumn(),
            config.evolveSchemaEnabled(),
            keyColumns,
            table -> config.tableConfig(table).contract());
    this.upserts = new UpsertTables(config, convertOptions, states, keyColumns);
    this.quarantine =
        new Quarantine(
            table -> config.tableConfig(table).rejectsTable(),
            states,
            outcomes,
            pool.secrets(),
            clock);
    this.upsertModeUsed = config.upsertModeUsed();
    this.tombstoneTables =
        upsertModeUsed && config.routeField().isEmpty() && !config.dynamicTablesEnabled()
            ? config.tables().stream()
                .filter(table -> config.tableConfig(table).upsert().isPresent())
                .toList()
            : List.of();
  }

  /** Writes a batch of records; records that cannot be written go to the record outcomes. */
  public void write(Collection<SinkRecord> records) {
    for (SinkRecord record : records) {
      write(record);
    }
  }

  private void write(SinkRecord record) {
    TopicPartition origin = origin(record);
    long offset = record.originalKafkaOffset();
    long timestamp = record.timestamp() == null ? OffsetRange.NO_TIMESTAMP : record.timestamp();
    if (record.value() == null && tombstoneTables.isEmpty()) {
      outcomes.tombstone(record);
    } else if (record.value() == null) {
      writeToAll(tombstoneTables, record, origin, offset, timestamp);
    } else {
      List<String> targets;
      try {
        targets = router.route(record);
      } catch (RuntimeException e) {
        outcomes.failed(record, null, e);
        targets = List.of();
      }
      if (targets.size() == 1 && !upsertModeUsed) {
        writeToOne(targets.get(0), record, origin, offset, timestamp);
      } else {
        writeToAll(targets, record, origin, offset, timestamp);
      }
    }
    SourceTracker tracker = lastTracker;
    if (tracker == null || lastOrigin != origin) {
      tracker = positions.get(origin);
      if (tracker == null) {
        tracker = new SourceTracker(offset, timestamp);
        positions.put(origin, tracker);
      } else {
        tracker.advanceTo(offset, timestamp);
      }
      lastTracker = tracker;
    } else {
      tracker.advanceTo(offset, timestamp);
    }
    lastOrigin = origin;
  }

  /**
   * The source partition of {@code record}: the last record's instance while a run of one partition
   * lasts (Connect hands records over by partition), so tracking it costs no allocation.
   */
  private TopicPartition origin(SinkRecord record) {
    String topic = record.originalTopic();
    int partition = record.originalKafkaPartition();
    TopicPartition last = lastOrigin;
    if (last != null
        && last.partition() == partition
        && (last.topic() == topic || last.topic().equals(topic))) {
      return last;
    }
    return new TopicPartition(topic, partition);
  }

  /** {@link #writeToAll} of one table that is not in upsert mode, without its lists. */
  private void writeToOne(
      String table, SinkRecord record, TopicPartition origin, long offset, long timestamp) {
    TableState target;
    Record row;
    try {
      target = states.state(table, record);
      row = target.convert(record);
    } catch (RuntimeException e) {
      refused(record, table, origin, offset, timestamp, e);
      return;
    }
    target.writer().write(origin, offset, timestamp, row);
    target.written();
  }

  /**
   * Writes the record to every table it is routed to, or to none: all rows are converted first, and
   * a record that one table refuses is one bad record (naming that table), written nowhere, so a
   * dead letter put back on the topic later does not duplicate it in the other tables.
   */
  private void writeToAll(
      List<String> tables, SinkRecord record, TopicPartition origin, long offset, long timestamp) {
    List<TableState> targets = new ArrayList<>(tables.size());
    List<Record> rows = new ArrayList<>(tables.size());
    List<FoldedChange> changes = upsertModeUsed ? new ArrayList<>() : List.of();
    for (String table : tables) {
      try {
        UpsertBuffer upsert = upsertModeUsed ? upserts.buffer(table) : null;
        if (upsert != null) {
          changes.add(upserts.read(table, upsert, record));
          continue;
        }
        TableState state = states.state(table, record);
        rows.add(state.convert(record));
        targets.add(state);
      } catch (RuntimeException e) {
        refused(record, table, origin, offset, timestamp, e);
        return;
      }
    }
    for (int i = 0; i < targets.size(); i++) {
      targets.get(i).writer().write(origin, offset, timestamp, rows.get(i));
      targets.get(i).written();
    }
    for (FoldedChange change : changes) {
      if (change != null) {
        change.fold();
      }
    }
  }

  /**
   * A record that {@code table} could not take: a bad change, a broken contract or a value that
   * does not convert goes to the record outcomes (counted), a broken contract to the table's
   * quarantine table instead when it has one; anything else is not the record's fault and is thrown
   * ({@link #catalogFailure}).
   */
  private void refused(
      SinkRecord record,
      String table,
      TopicPartition origin,
      long offset,
      long timestamp,
      RuntimeException e) {
    if (e instanceof BadChangeException) {
      outcomes.failed(record, table, e);
    } else if (e instanceof ContractViolation violation) {
      contractViolations++;
      Optional<String> quarantineTable = quarantine.tableOf(table);
      if (quarantineTable.isPresent()) {
        quarantine.take(record, table, quarantineTable.get(), violation, origin, offset, timestamp);
      } else {
        outcomes.failed(record, table, e);
      }
    } else if (e instanceof DataException || e instanceof IllegalArgumentException) {
      conversionErrors++;
      outcomes.failed(record, table, e);
    } else {
      throw catalogFailure(e, table, origin, offset);
    }
  }

  /**
   * What to throw when loading, creating or evolving a table for a record failed: a catalog (or the
   * object store behind it) out of reach is not the record's fault, so the task drops what it
   * wrote, waits and reads the record again, as when a data file cannot be written; anything else
   * is rethrown as it is.
   */
  static RuntimeException catalogFailure(
      RuntimeException e, String table, TopicPartition origin, long offset) {
    if (e instanceof ConnectException || !CatalogLoader.unreachable(e)) {
      return e;
    }
    return new WriteFailedException(
        String.format(
            "Could not load or update table %s for the record at %s offset %d, the catalog or its"
                + " object store is out of reach: %s",
            table, origin, offset, CatalogLoader.rootCauseMessage(e)),
        e);
  }

  /**
   * Completes every writer and takes what was processed since the last hand-over; afterwards this
   * writer holds nothing and goes on writing.
   */
  public HandOver handOver() {
    Map<TableIdentifier, KeyHandOver> keyFiles = upserts.isEmpty() ? Map.of() : upserts.flush();
    List<WrittenFiles> written = pool.complete();
    if (!keyFiles.isEmpty()) {
      written = UpsertTables.withKeyFiles(written, keyFiles);
    }
    List<TableFiles> files = new ArrayList<>(written.size());
    for (WrittenFiles table : written) {
      files.add(new TableFiles(table.table().toString(), states.table(table.table()), table));
    }
    bytesAtHandOver = pool.stats().bytesWritten();
    states.forgetUniqueValues();
    quarantine.handedOver();
    HandOver handOver = new HandOver(files, positions());
    clearPositions();
    return handOver;
  }

  /**
   * Drops what revoked source partitions wrote since the last hand-over.
   *
   * @return the partitions whose unreported rows were dropped and which the caller must rewind if
   *     it still owns them, with the offset to rewind to
   */
  public Map<TopicPartition, Long> abandon(Collection<TopicPartition> revoked) {
    Set<TopicPartition> dropped = upserts.isEmpty() ? pool.abandon(revoked) : abandonAll(revoked);
    if (!dropped.isEmpty()) {
      // the dropped rows come again: their values must not count as taken
      states.forgetUniqueValues();
    }
    Map<TopicPartition, Long> rewind = new HashMap<>();
    for (TopicPartition partition : dropped) {
      SourceTracker position = positions.remove(partition);
      if (position != null && !revoked.contains(partition)) {
        rewind.put(partition, position.firstOffset());
      }
    }
    for (TopicPartition partition : revoked) {
      positions.remove(partition);
    }
    lastTracker = null;
    return rewind;
  }

  /**
   * Drops the unreported files and the folded changes of the revoked partitions and of every
   * partition that shares a file or an upsert table's fold with one of them, and so on: a fold
   * cannot drop one partition's changes (a later change of a key may have replaced another
   * partition's), so it is dropped whole, as a shared file is.
   */
  private Set<TopicPartition> abandonAll(Collection<TopicPartition> revoked) {
    Set<TopicPartition> sources = new HashSet<>(revoked);
    Set<TopicPartition> dropped = new HashSet<>();
    int before;
    do {
      before = sources.size();
      dropped.addAll(pool.abandon(sources));
      sources.addAll(dropped);
      upserts.dropSharing(sources, dropped);
    } while (sources.size() > before);
    return dropped;
  }

  /**
   * Drops everything written since the last hand-over, in every table, after the writers failed
   * (the object store went away, say), and makes them usable again. The tables stay loaded: this
   * needs neither the catalog nor the object store.
   *
   * @return every source partition processed since the last hand-over, with the offset to rewind it
   *     to
   */
  public Map<TopicPartition, Long> reset() {
    Map<TopicPartition, Long> rewind = new HashMap<>();
    positions.forEach((partition, position) -> rewind.put(partition, position.firstOffset()));
    clearPositions();
    upserts.dropAll();
    states.forgetUniqueValues();
    pool.reset();
    states.reopenWriters();
    return rewind;
  }

  /**
   * Bytes written (in finished or open files) and not yet handed over, plus the heap of the changes
   * upsert tables hold until the hand-over, an estimate.
   */
  public long bufferedBytes() {
    WriterPoolStats stats = pool.stats();
    long bytes = stats.bytesWritten() - bytesAtHandOver + stats.bufferedBytesEstimate();
    if (upsertModeUsed) {
      bytes += upserts.heldBytes();
    }
    return bytes + states.uniqueValueBytes();
  }

  public WriterPoolStats stats() {
    return pool.stats();
  }

  /** The changes an upsert table's records carried, from this writer's creation. */
  public Optional<ChangeCounts> changeCounts(String table) {
    return upserts.counts(table);
  }

  /** The counters for the task's metrics, from this writer's creation. */
  public WriterCounts counts() {
    WriterPoolStats stats = pool.stats();
    long upserted = 0;
    long deleted = 0;
    long skipped = 0;
    long truncated = 0;
    for (ChangeCounts changes : upserts.counts()) {
      upserted += changes.upserts();
      deleted += changes.deletes();
      skipped += changes.skipped();
      truncated += changes.truncates();
    }
    return new WriterCounts(
        stats.recordsWritten(),
        stats.bytesWritten(),
        stats.openFiles(),
        stats.bufferedBytesEstimate(),
        stats.filesClosedForMemory(),
        stats.filesClosedForOpenFiles(),
        conversionErrors,
        contractViolations,
        quarantine.quarantined(),
        states.schemaChanges(),
        upserted,
        deleted,
        skipped,
        truncated);
  }

  @Override
  public void close() {
    pool.close();
    upserts.clear();
    states.clear();
    clearPositions();
  }

  /** How far each source partition got since the last hand-over. */
  private Map<TopicPartition, SourcePosition> positions() {
    Map<TopicPartition, SourcePosition> result = new LinkedHashMap<>();
    positions.forEach((partition, tracker) -> result.put(partition, tracker.position()));
    return result;
  }

  private void clearPositions() {
    positions.clear();
    lastTracker = null;
  }
}
