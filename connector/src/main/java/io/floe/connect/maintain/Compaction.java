/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import io.floe.connect.files.NewFilesOnly;
import io.floe.connect.files.TaskRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrderComparators;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.StructLikeWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bin-packs a table's small data files, and the files whose deletes remove a large share of their
 * rows, into files of the table's target size, partition by partition, with their deletes applied
 * (ARCHITECTURE.md, "Maintenance").
 *
 * <p>Each partition's group is one commit that replaces its files and the deletion vectors and
 * file-scoped position deletes of those files, from the snapshot the plan read ({@code
 * validateFromSnapshot}) and with that snapshot's data sequence number, so the deletes committed
 * after it still apply to the new files. A group that conflicts with any commit since is dropped,
 * its new files deleted, and planned again at the next run: compaction loses every race. New files
 * are named by an operation id with a UUID of its own and never replace a file.
 *
 * <p>A table with a sort order has each group's rows sorted in memory before they are written, so
 * its groups hold at most {@link #SORTED_GROUP_MAX_BYTES} of files. Not compacted: files of a
 * partition spec other than the current one. On format v3 tables rewritten rows keep their row
 * lineage ({@code _row_id}, {@code _last_updated_sequence_number}).
 */
public final class Compaction {
  private static final Logger LOG = LoggerFactory.getLogger(Compaction.class);

  private Compaction() {}

  /**
   * What is compacted.
   *
   * @param minInputFiles the fewest small files of a partition worth a rewrite
   * @param deleteRatio the share of a file's rows its deletes remove from which it is rewritten
   * @param maxRewriteBytes the most bytes of data files one run reads (at least one group runs)
   */
  public record Settings(int minInputFiles, double deleteRatio, long maxRewriteBytes) {
    public Settings {
      if (minInputFiles < 2) {
        throw new IllegalArgumentException("minInputFiles must be >= 2: " + minInputFiles);
      }
    }
  }

  /**
   * What one run did.
   *
   * @param groups the partitions rewritten
   * @param filesRewritten the data files replaced
   * @param filesWritten the data files written
   * @param bytesRewritten the bytes of the data files replaced
   * @param deleteFilesRemoved the delete files removed with them
   * @param groupsDropped the partitions whose commit conflicted and was dropped
   * @param groupsLeft the partitions due that the run's byte or time budget left for the next run
   */
  public record Result(
      int groups,
      int filesRewritten,
      int filesWritten,
      long bytesRewritten,
      int deleteFilesRemoved,
      int groupsDropped,
      int groupsLeft) {
    static final Result NOTHING = new Result(0, 0, 0, 0, 0, 0, 0);

    Result plus(Result other) {
      return new Result(
          groups + other.groups,
          filesRewritten + other.filesRewritten,
          filesWritten + other.filesWritten,
          bytesRewritten + other.bytesRewritten,
          deleteFilesRemoved + other.deleteFilesRemoved,
          groupsDropped + other.groupsDropped,
          groupsLeft + other.groupsLeft);
    }

    Result leaving(int groups) {
      return new Result(
          this.groups,
          filesRewritten,
          filesWritten,
          bytesRewritten,
          deleteFilesRemoved,
          groupsDropped,
          groups);
    }
  }

  /**
   * The most bytes of data files one group of a sorted table holds: its rows are sorted in memory
   * before they are written.
   */
  static final long SORTED_GROUP_MAX_BYTES = 32L * 1024 * 1024;

  /** The files of one partition to rewrite together. */
  record Group(StructLike partition, List<FileScanTask> tasks) {
    long bytes() {
      return tasks.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
    }

    /** The group's smallest files up to {@link #SORTED_GROUP_MAX_BYTES} (one file at least). */
    Group forSorting() {
      List<FileScanTask> smallest = new ArrayList<>(tasks);
      smallest.sort(Comparator.comparingLong(task -> task.file().fileSizeInBytes()));
      List<FileScanTask> kept = new ArrayList<>();
      long bytes = 0;
      for (FileScanTask task : smallest) {
        bytes += task.file().fileSizeInBytes();
        if (!kept.isEmpty() && bytes > SORTED_GROUP_MAX_BYTES) {
          break;
        }
        kept.add(task);
      }
      return new Group(partition, kept);
    }

    /** Whether a rewrite changes anything: several files, or one with deletes to apply. */
    boolean worthRewriting() {
      return tasks.size() > 1 || !tasks.get(0).deletes().isEmpty();
    }
  }

  /**
   * Compacts what is due in the table's current snapshot, a group (partition) per commit, the
   * largest first, until the byte budget is spent or {@code outOfTime} says the run's time is up
   * (one group at least).
   *
   * @param threads the threads that plan and read manifests
   */
  public static Result compact(
      Table table,
      Settings settings,
      Marks marks,
      ExecutorService threads,
      BooleanSupplier outOfTime) {
    table.refresh();
    return compact(table, settings, marks, threads, table.currentSnapshot(), outOfTime);
  }

  /**
   * Compacts what is due in {@code start}, a snapshot of the table read earlier: each group's
   * commit gives way if any commit since touched its files.
   */
  public static Result compact(
      Table table,
      Settings settings,
      Marks marks,
      ExecutorService threads,
      Snapshot start,
      BooleanSupplier outOfTime) {
    if (start == null) {
      return Result.NOTHING;
    }
    long target =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    List<Group> groups = plan(table, start, settings, target, threads);
    if (table.sortOrder().isSorted()) {
      groups = groups.stream().map(Group::forSorting).filter(Group::worthRewriting).toList();
    }
    Result result = Result.NOTHING;
    long budget = settings.maxRewriteBytes();
    for (int i = 0; i < groups.size(); i++) {
      Group group = groups.get(i);
      if (result.groups() + result.groupsDropped() > 0
          && (group.bytes() > budget || outOfTime.getAsBoolean())) {
        return result.leaving(groups.size() - i);
      }
      budget -= group.bytes();
      result = result.plus(rewrite(table, start, group, target, marks, threads));
    }
    return result;
  }

  /** The groups due in the snapshot, the largest first. */
  static List<Group> plan(
      Table table, Snapshot start, Settings settings, long targetBytes, ExecutorService threads) {
    PartitionSpec spec = table.spec();
    Map<StructLikeWrapper, List<FileScanTask>> small = new LinkedHashMap<>();
    Map<StructLikeWrapper, List<FileScanTask>> heavy = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planWith(threads).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        if (file.specId() != spec.specId()) {
          continue;
        }
        StructLikeWrapper partition =
            StructLikeWrapper.forType(spec.partitionType()).set(file.partition());
        if (file.recordCount() > 0
            && (double) deletedRows(task) / file.recordCount() >= settings.deleteRatio()) {
          heavy.computeIfAbsent(partition, p -> new ArrayList<>()).add(task);
        } else if (file.fileSizeInBytes() < targetBytes * 3 / 4) {
          small.computeIfAbsent(partition, p -> new ArrayList<>()).add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<StructLikeWrapper> partitions = new HashSet<>(heavy.keySet());
    small.forEach(
        (partition, files) -> {
          if (files.size() >= settings.minInputFiles()) {
            partitions.add(partition);
          }
        });
    List<Group> groups = new ArrayList<>();
    for (StructLikeWrapper partition : partitions) {
      List<FileScanTask> tasks = new ArrayList<>(heavy.getOrDefault(partition, List.of()));
      tasks.addAll(small.getOrDefault(partition, List.of()));
      groups.add(new Group(partition.get(), tasks));
    }
    groups.sort(Comparator.comparingLong(Group::bytes).reversed());
    return groups;
  }

  /** The rows of the task's file that its file-scoped deletes remove. */
  private static long deletedRows(FileScanTask task) {
    long deleted = 0;
    for (DeleteFile delete : task.deletes()) {
      if (ContentFileUtil.isFileScoped(delete)) {
        deleted += delete.recordCount();
      }
    }
    return deleted;
  }

  private static Result rewrite(
      Table table,
      Snapshot start,
      Group group,
      long targetBytes,
      Marks marks,
      ExecutorService threads) {
    List<DataFile> written = write(table, group, targetBytes);
    RewriteFiles rewrite =
        table
            .newRewrite()
            .validateFromSnapshot(start.snapshotId())
            .dataSequenceNumber(start.sequenceNumber())
            .scanManifestsWith(threads);
    Set<String> removedDeletes = new HashSet<>();
    int deletesRemoved = 0;
    for (FileScanTask task : group.tasks()) {
      rewrite.deleteFile(task.file());
      for (DeleteFile delete : task.deletes()) {
        String key = delete.location() + "@" + delete.contentOffset();
        if (ContentFileUtil.isFileScoped(delete) && removedDeletes.add(key)) {
          rewrite.deleteFile(delete);
          deletesRemoved++;
        }
      }
    }
    written.forEach(rewrite::addFile);
    marks.carry(rewrite, table, start);
    try {
      rewrite.commit();
    } catch (ValidationException | CommitFailedException e) {
      LOG.info(
          "Table {}: compaction of partition {} from snapshot {} conflicted with a later commit"
              + " ({}); dropped, planned again at the next run",
          table.name(),
          group.partition(),
          start.snapshotId(),
          e.getMessage());
      written.forEach(file -> table.io().deleteFile(file.location()));
      return new Result(0, 0, 0, 0, 0, 1, 0);
    }
    return new Result(1, group.tasks().size(), written.size(), group.bytes(), deletesRemoved, 0, 0);
  }

  /** Orders rows of {@code schema} by the table's sort order, on their Iceberg values. */
  private static Comparator<Record> inSortOrder(Table table, Schema schema) {
    Comparator<StructLike> order = SortOrderComparators.forSchema(schema, table.sortOrder());
    InternalRecordWrapper left = new InternalRecordWrapper(schema.asStruct());
    InternalRecordWrapper right = new InternalRecordWrapper(schema.asStruct());
    return (a, b) -> order.compare(left.wrap(a), right.wrap(b));
  }

  /**
   * The group's live rows, written to new files of the target size, sorted first where the table
   * has a sort order. On a format v3 table the rows keep their lineage: their {@code _row_id} and
   * {@code _last_updated_sequence_number}, read as Iceberg's readers give them (inherited from the
   * old file where it holds none), are written into the new files, so a row's identity survives the
   * rewrite as it does Spark's.
   */
  private static List<DataFile> write(Table table, Group group, long targetBytes) {
    Schema schema = table.schema();
    Schema written =
        TableUtil.formatVersion(table) >= 3 ? MetadataColumns.schemaWithRowLineage(schema) : schema;
    PartitionSpec spec = table.spec();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 0, 0)
            .operationId("floe-compaction-" + UUID.randomUUID())
            .ioSupplier(() -> NewFilesOnly.of(table.io()))
            .build();
    TaskRows rows = new TaskRows(table);
    RollingDataWriter<Record> writer =
        new RollingDataWriter<>(
            new GenericFileWriterFactory.Builder(table)
                .dataSchema(written)
                .dataSortOrder(table.sortOrder())
                .build(),
            files,
            NewFilesOnly.of(table.io()),
            targetBytes,
            spec,
            group.partition());
    int columns = written.columns().size();
    boolean sorted = table.sortOrder().isSorted();
    List<Record> buffered = new ArrayList<>();
    try (writer) {
      for (FileScanTask task : group.tasks()) {
        GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, schema, written);
        try (CloseableIterable<Record> live =
            deletes.filter(rows.open(task, deletes.requiredSchema(), true, false))) {
          for (Record row : live) {
            GenericRecord copy = GenericRecord.create(written);
            for (int i = 0; i < columns; i++) {
              copy.set(i, row.get(i));
            }
            if (sorted) {
              buffered.add(copy);
            } else {
              writer.write(copy);
            }
          }
        }
      }
      if (sorted) {
        buffered.sort(inSortOrder(table, written));
        buffered.forEach(writer::write);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.result().dataFiles();
  }
}
