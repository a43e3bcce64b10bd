/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.config.Secrets;
import io.floe.connect.files.NewFilesOnly;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the rows of one table: fans them out by the table's partition spec (the time and identity
 * transforms computed from the row by {@link RowPartitioner}, any other through Iceberg's {@link
 * PartitionKey} on an {@link InternalRecordWrapper}, so transforms see Iceberg's internal values)
 * and, unless files are shared, by source partition, each to its own Iceberg {@link
 * org.apache.iceberg.io.RollingDataWriter}, made by Iceberg's {@link GenericFileWriterFactory} and
 * named by its {@link OutputFileFactory}.
 *
 * <p>Iceberg's own fan-out writers keep their per-partition writers private and close them only all
 * at once, so they cannot close the least recently used file for the task's memory budget; this
 * class does the fan-out and leaves rolling, formats and file metadata to Iceberg.
 *
 * <p>By default each file holds the rows of one source partition only: that costs one file per
 * source partition and table partition in a commit, and buys exact revocation (see {@link
 * WriterPoolOptions}).
 *
 * <p>Rows must match {@link #schema()}. A row that fails to write may leave its file unusable, so
 * any failure makes the task's writers refuse further work until everything is abandoned.
 *
 * <p>Not thread-safe: a task's writers are used from the task thread only.
 */
public final class TableWriter {
  private static final Logger LOG = LoggerFactory.getLogger(TableWriter.class);

  /** The bits of a row number ({@link #writeRow}) that hold the row's position in its file. */
  static final int POSITION_BITS = 40;

  private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;

  private final TableIdentifier identifier;
  private final Map<String, String> writeProperties;
  private final OpenFiles openFiles;
  private final int taskIndex;
  private final LongSupplier fileFactoryIds;
  private final boolean sharedFiles;
  private final Secrets secrets;
  private final Map<TopicPartition, FileGroup> groupOf = new HashMap<>();
  private final List<FileGroup> groups = new ArrayList<>();

  private Table table;
  private Schema schema;
  private WriteSettings settings;
  private PartitionSpec spec;

  /** The spec's {@code isPartitioned()}, which streams over its fields: asked once, not per row. */
  private boolean partitioned;

  private GenericFileWriterFactory writers;

  /**
   * The columns whose dictionary the files stop trying (Parquet only), and the writers' version.
   */
  private Dictionaries dictionaries;

  private int dictionariesVersion;
  private OutputFileFactory files;
  private PartitionKey key;

  /**
   * Fills {@link #key} from a row when the spec's transforms allow, else null: {@link #wrapper}.
   */
  private RowPartitioner partitioner;

  private InternalRecordWrapper wrapper;
  private TopicPartition lastSource;
  private FileGroup lastGroup;
  private final Map<String, Long> locationNumbers = new HashMap<>();
  private final List<String> locations = new ArrayList<>();

  TableWriter(
      TableIdentifier identifier,
      Table table,
      Map<String, String> writeProperties,
      OpenFiles openFiles,
      int taskIndex,
      LongSupplier fileFactoryIds,
      boolean sharedFiles,
      Secrets secrets) {
    this.identifier = identifier;
    this.writeProperties = Map.copyOf(writeProperties);
    this.openFiles = openFiles;
    this.taskIndex = taskIndex;
    this.fileFactoryIds = fileFactoryIds;
    this.sharedFiles = sharedFiles;
    this.secrets = secrets;
    configure(table);
  }

  private void configure(Table newTable) {
    this.table = newTable;
    this.settings = WriteSettings.resolve(newTable, writeProperties);
    this.spec = newTable.spec();
    this.partitioned = spec.isPartitioned();
    this.schema = newTable.schema();
    if (settings.format() == FileFormat.PARQUET) {
      Map<String, String> merged = new HashMap<>(newTable.properties());
      merged.putAll(writeProperties);
      this.dictionaries = new Dictionaries(identifier.toString(), schema, merged);
    } else {
      this.dictionaries = null;
    }
    this.dictionariesVersion = 0;
    this.writers = writerFactory();
    this.files =
        OutputFileFactory.builderFor(newTable, taskIndex, fileFactoryIds.getAsLong())
            .ioSupplier(() -> NewFilesOnly.of(newTable.io()))
            .format(settings.format())
            .build();
    this.key = new PartitionKey(spec, schema);
    this.partitioner = RowPartitioner.of(spec, schema);
    this.wrapper = new InternalRecordWrapper(schema.asStruct());
  }

  private GenericFileWriterFactory writerFactory() {
    return new GenericFileWriterFactory.Builder(table)
        .dataFileFormat(settings.format())
        .dataSchema(schema)
        .writerProperties(
            dictionaries == null
                ? settings.writeProperties()
                : dictionaries.writerProperties(settings.writeProperties()))
        .build();
  }

  public TableIdentifier identifier() {
    return identifier;
  }

  /** The schema rows must match: the table's schema when this writer was (re)opened. */
  public Schema schema() {
    return schema;
  }

  /**
   * Writes a row.
   *
   * @param origin the source partition, by origin (before any topic-renaming transform)
   * @param offset the source offset, by origin
   * @param timestampMs the record timestamp, or {@link OffsetRange#NO_TIMESTAMP}
   * @param row the row, matching {@link #schema()}
   */
  public void write(TopicPartition origin, long offset, long timestampMs, Record row) {
    write(origin, offset, timestampMs, row, false);
  }

  /**
   * Writes a row and returns its number until the next {@link #complete}: where it went, for {@link
   * #locationOf} and {@link #positionOf} to tell.
   *
   * @see #write(TopicPartition, long, long, Record)
   */
  public long writeRow(TopicPartition origin, long offset, long timestampMs, Record row) {
    return write(origin, offset, timestampMs, row, true);
  }

  /** The location of the data file that row {@code rowNumber} went to. */
  String locationOf(long rowNumber) {
    return locations.get((int) (rowNumber >>> POSITION_BITS));
  }

  /** The position of row {@code rowNumber} in its data file. */
  static long positionOf(long rowNumber) {
    return rowNumber & POSITION_MASK;
  }

  private long numberOf(String location) {
    return locationNumbers.computeIfAbsent(
        location,
        l -> {
          locations.add(l);
          return (long) locations.size() - 1;
        });
  }

  private long write(
      TopicPartition origin, long offset, long timestampMs, Record row, boolean numbered) {
    openFiles.checkUsable();
    try {
      FileGroup group = group(origin);
      if (partitioner != null) {
        partitioner.partition(row, key);
      } else if (partitioned) {
        key.partition(wrapper.wrap(row));
      }
      PartitionFile file = group.file(key);
      if (file == null) {
        file = open(group);
      }
      long number = numbered ? file.nextRow(this::numberOf) : -1;
      long delta = file.write(row);
      group.recorded(origin, offset, timestampMs);
      openFiles.written(file, delta);
      return number;
    } catch (RuntimeException e) {
      openFiles.failed(e);
      throw new WriteFailedException(
          String.format(
              "Failed to write the record at %s offset %d to table %s: %s",
              origin, offset, identifier, e),
          e);
    }
  }

  private FileGroup group(TopicPartition origin) {
    if (origin.equals(lastSource)) {
      return lastGroup;
    }
    FileGroup group = groupOf.get(origin);
    if (group == null) {
      group = sharedFiles && !groups.isEmpty() ? groups.get(0) : newGroup();
      groupOf.put(origin, group);
      // before its first row is written: if that fails, abandoning the source finds the group
      group.joined(origin);
    }
    lastSource = origin;
    lastGroup = group;
    return group;
  }

  private FileGroup newGroup() {
    FileGroup group = new FileGroup(identifier.toString());
    groups.add(group);
    return group;
  }

  private PartitionFile open(FileGroup group) {
    openFiles.beforeOpen();
    if (dictionaries != null && dictionaries.version() != dictionariesVersion) {
      // a file closed since showed more columns not worth a dictionary
      dictionariesVersion = dictionaries.version();
      writers = writerFactory();
    }
    PartitionFile file =
        new PartitionFile(
            group, key.copy(), spec, writers, files, table.io(), settings, dictionaries);
    group.opened(file);
    openFiles.opened(file);
    return file;
  }

  /**
   * Closes the open files and opens new ones on the table as it is now, for a changed schema or
   * partition spec: the files written so far stay pending for the next hand-over.
   */
  public void reopen(Table updated) {
    openFiles.checkUsable();
    closeOpenFiles();
    int oldSchema = schema.schemaId();
    configure(updated);
    LOG.info(
        "Reopened the writer of table {} on schema {} (was {}), partition spec {}",
        identifier,
        schema.schemaId(),
        oldSchema,
        spec.specId());
  }

  /** Closes all open files; their data files stay pending. */
  void closeOpenFiles() {
    for (FileGroup group : groups) {
      for (PartitionFile file : group.openFiles()) {
        openFiles.close(file);
      }
    }
  }

  /**
   * Closes all open files and hands over everything written since the last hand-over; afterwards
   * this writer holds nothing and can go on writing.
   */
  public WrittenFiles complete() {
    openFiles.checkUsable();
    closeOpenFiles();
    List<DataFile> dataFiles = new ArrayList<>();
    Map<TopicPartition, OffsetRange> offsets = new HashMap<>();
    for (FileGroup group : groups) {
      dataFiles.addAll(group.finishedFiles());
      offsets.putAll(group.ranges());
    }
    forgetGroups(groups);
    locationNumbers.clear();
    locations.clear();
    openFiles.released(dataFiles.size());
    WrittenFiles written = new WrittenFiles(identifier, dataFiles, List.of(), offsets);
    if (!written.isEmpty()) {
      LOG.debug(
          "Completed {} data files of table {} with {} records from {} source partitions",
          dataFiles.size(),
          identifier,
          written.recordCount(),
          offsets.size());
    }
    return written;
  }

  /**
   * The source partitions that share files with any of the given ones (including those of them that
   * wrote here): with a file per source partition, just those.
   */
  Set<TopicPartition> sourcesSharingFilesWith(Set<TopicPartition> sources) {
    Set<TopicPartition> sharing = new HashSet<>();
    for (FileGroup group : groups) {
      if (!Collections.disjoint(group.sources(), sources)) {
        sharing.addAll(group.sources());
      }
    }
    return sharing;
  }

  /**
   * Drops every file group holding rows of the given source partitions: open files are closed and,
   * with the finished ones, deleted (best effort). Files already handed over are never touched. The
   * pool calls this with every partition that shares files with a revoked one.
   *
   * @return the source partitions whose unreported rows were dropped
   */
  Set<TopicPartition> abandon(Set<TopicPartition> sources) {
    List<FileGroup> dropped = new ArrayList<>();
    for (FileGroup group : groups) {
      if (!Collections.disjoint(group.sources(), sources)) {
        dropped.add(group);
      }
    }
    Set<TopicPartition> droppedSources = new HashSet<>();
    List<String> locations = new ArrayList<>();
    long records = 0;
    for (FileGroup group : dropped) {
      records += group.records();
      droppedSources.addAll(group.sources());
      for (PartitionFile file : group.openFiles()) {
        String current = file.currentLocation();
        try {
          openFiles.closeAbandoned(file);
        } catch (RuntimeException e) {
          LOG.warn(
              "Could not close abandoned data file {} of table {}: {}",
              current,
              identifier,
              secrets.describe(e));
          locations.add(current);
        }
      }
      for (DataFile dataFile : group.finishedFiles()) {
        locations.add(dataFile.location());
      }
      openFiles.released(group.finishedFiles().size());
    }
    forgetGroups(dropped);
    if (records > 0 || !locations.isEmpty()) {
      LOG.info(
          "Abandoned {} unreported records of table {} from source partitions {}; deleting {}"
              + " files",
          records,
          identifier,
          droppedSources,
          locations.size());
      OrphanFiles.delete(table.io(), locations, secrets);
    }
    return droppedSources;
  }

  private void forgetGroups(List<FileGroup> forgotten) {
    Set<FileGroup> gone = Collections.newSetFromMap(new IdentityHashMap<>());
    gone.addAll(forgotten);
    groups.removeIf(gone::contains);
    groupOf.values().removeIf(gone::contains);
    lastSource = null;
    lastGroup = null;
  }

  /** The source partitions with unreported data. */
  Set<TopicPartition> sources() {
    return new HashSet<>(groupOf.keySet());
  }
}
