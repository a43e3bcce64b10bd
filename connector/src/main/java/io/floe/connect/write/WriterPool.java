/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.config.Secrets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table writers of one task, sharing one memory budget and one open-file limit ({@link
 * WriterPoolOptions}): when either is exceeded the least recently written files of any table are
 * closed early (their data stays pending for the next hand-over).
 *
 * <p>A cycle: {@link #writerFor} and {@link TableWriter#write} for each row, then {@link #complete}
 * hands over every table's finished files with the offsets they cover. On revocation {@link
 * #abandon} drops the revoked partitions' unreported files; {@link #close} drops everything not
 * handed over.
 *
 * <p>Not thread-safe: used from the task thread only.
 */
public final class WriterPool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriterPool.class);

  private final Map<String, String> writeProperties;
  private final int taskIndex;
  private final WriterPoolOptions options;
  private final OpenFiles openFiles;
  private final Secrets secrets;
  private final Map<TableIdentifier, TableWriter> writers = new LinkedHashMap<>();
  private long fileFactories;

  /**
   * @param options the task's memory budget and open-file limit
   * @param writeProperties write properties laid over every table's own (format, target file size,
   *     Parquet settings...)
   * @param taskIndex the task's number, part of every file name
   * @param clock for the pacing of INFO logs
   * @param secrets the connector's secrets, masked in what the writers log of a failure
   */
  public WriterPool(
      WriterPoolOptions options,
      Map<String, String> writeProperties,
      int taskIndex,
      Clock clock,
      Secrets secrets) {
    this.writeProperties = Map.copyOf(writeProperties);
    this.taskIndex = taskIndex;
    this.options = options;
    this.openFiles = new OpenFiles(options, clock);
    this.secrets = secrets;
  }

  /** A pool of a configuration that holds no secrets. */
  public WriterPool(WriterPoolOptions options, Map<String, String> writeProperties, int taskIndex) {
    this(options, writeProperties, taskIndex, Clock.systemUTC(), Secrets.of(Map.of()));
  }

  /** The connector's secrets, to mask in what is logged of a failure. */
  Secrets secrets() {
    return secrets;
  }

  /** The writer of a table, opened on the table the loader returns if there is none yet. */
  public TableWriter writerFor(
      TableIdentifier identifier, Function<TableIdentifier, Table> loader) {
    TableWriter writer = writers.get(identifier);
    if (writer == null) {
      openFiles.checkUsable();
      writer =
          new TableWriter(
              identifier,
              loader.apply(identifier),
              writeProperties,
              openFiles,
              taskIndex,
              () -> fileFactories++,
              options.shareFilesAcrossSourcePartitions(),
              secrets);
      writers.put(identifier, writer);
    }
    return writer;
  }

  /**
   * Closes every open file and hands over what every table wrote since the last hand-over. Tables
   * with nothing written are left out. If a file fails to close nothing is handed over, and
   * everything stays to be abandoned.
   */
  public List<WrittenFiles> complete() {
    openFiles.checkUsable();
    for (TableWriter writer : writers.values()) {
      writer.closeOpenFiles();
    }
    List<WrittenFiles> written = new ArrayList<>();
    for (TableWriter writer : writers.values()) {
      WrittenFiles files = writer.complete();
      if (!files.isEmpty()) {
        written.add(files);
      }
    }
    return written;
  }

  /**
   * Drops the unreported files of revoked source partitions, in every table, and deletes them (best
   * effort). With a file per source partition (the default) that is all. With shared files, it also
   * drops the unreported rows of every partition that shares a file with a revoked one, in any
   * table, and of the partitions that share files with those, and so on: the caller must rewind the
   * ones it still owns to their last committed offsets.
   *
   * @return every source partition whose unreported rows were dropped
   */
  public Set<TopicPartition> abandon(Collection<TopicPartition> revoked) {
    Set<TopicPartition> sources = new HashSet<>(revoked);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (TableWriter writer : writers.values()) {
        grew |= sources.addAll(writer.sourcesSharingFilesWith(sources));
      }
    }
    Set<TopicPartition> dropped = new HashSet<>();
    for (TableWriter writer : writers.values()) {
      dropped.addAll(writer.abandon(sources));
    }
    return dropped;
  }

  public WriterPoolStats stats() {
    return openFiles.stats();
  }

  /**
   * Drops everything not handed over, as {@link #close} does, and makes the pool usable again after
   * a failure (a data file that could not be uploaded, say): for a task that reads its partitions
   * again and writes them anew.
   */
  public void reset() {
    close();
    openFiles.recover();
  }

  /** Drops everything not handed over: for a task that stops or failed. */
  @Override
  public void close() {
    for (TableWriter writer : writers.values()) {
      writer.abandon(writer.sources());
    }
    writers.clear();
    LOG.debug("Closed the writers: {}", openFiles.stats());
  }
}
