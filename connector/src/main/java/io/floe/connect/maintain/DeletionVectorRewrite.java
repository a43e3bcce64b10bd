/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import io.floe.connect.files.NewFilesOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.puffin.BlobMetadata;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;
import org.apache.iceberg.util.ContentFileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites the live deletion vectors of a format v3 table's mostly dead Puffin files
 * (ARCHITECTURE.md, "Maintenance"). An upsert commit writes all its vectors into one Puffin file,
 * and a later commit that deletes more rows of a data file replaces that file's vector with a new
 * one elsewhere: the old blob stays in its Puffin file, dead, for as long as any other vector of
 * that file lives. When less than {@link #MIN_LIVE_SHARE} of a Puffin file's blob bytes are live,
 * its live vectors are written anew into one Puffin file, and the old file is referenced no more
 * (snapshot expiry deletes it once no snapshot needs it).
 *
 * <p>One {@link RewriteFiles} commit from the snapshot the run read ({@code validateFromSnapshot}),
 * each new vector with the data sequence number of the one it replaces, carrying the connector's
 * marks; a commit that conflicts with anything is dropped and its file deleted, as compaction's.
 */
public final class DeletionVectorRewrite {
  private static final Logger LOG = LoggerFactory.getLogger(DeletionVectorRewrite.class);

  /** The share of a Puffin file's blob bytes below which its live vectors are rewritten. */
  public static final double MIN_LIVE_SHARE = 0.5;

  private DeletionVectorRewrite() {}

  /**
   * What a run did.
   *
   * @param puffinFiles the Puffin files whose live vectors were rewritten
   * @param vectors the vectors rewritten
   * @param dropped whether the commit conflicted with another and was dropped
   */
  public record Result(int puffinFiles, int vectors, boolean dropped) {
    static final Result NOTHING = new Result(0, 0, false);
  }

  /** A live vector and the task of the data file it belongs to. */
  private record Live(FileScanTask task, DeleteFile vector) {}

  /**
   * Rewrites the live vectors of the current snapshot's mostly dead Puffin files.
   *
   * @param threads the threads that plan
   */
  public static Result rewrite(Table table, Marks marks, ExecutorService threads) {
    table.refresh();
    Snapshot start = table.currentSnapshot();
    if (start == null || TableUtil.formatVersion(table) < 3) {
      return Result.NOTHING;
    }
    Map<String, List<Live>> byPuffin = new LinkedHashMap<>();
    Map<String, Long> liveBytes = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planWith(threads).planFiles()) {
      for (FileScanTask task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          if (ContentFileUtil.isDV(delete)) {
            byPuffin
                .computeIfAbsent(delete.location(), p -> new ArrayList<>())
                .add(new Live(task, delete));
            liveBytes.merge(delete.location(), delete.contentSizeInBytes(), Long::sum);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Live> due = new ArrayList<>();
    int puffinFiles = 0;
    for (Map.Entry<String, List<Live>> puffin : byPuffin.entrySet()) {
      long blobBytes = blobBytes(table, puffin.getValue().get(0).vector());
      if (liveBytes.get(puffin.getKey()) < MIN_LIVE_SHARE * blobBytes) {
        due.addAll(puffin.getValue());
        puffinFiles++;
      }
    }
    if (due.isEmpty()) {
      return Result.NOTHING;
    }
    return commit(table, start, due, puffinFiles, marks, threads);
  }

  /** The bytes of every blob of the vector's Puffin file, live or dead. */
  private static long blobBytes(Table table, DeleteFile vector) {
    try (PuffinReader reader =
        Puffin.read(table.io().newInputFile(vector.location()))
            .withFileSize(vector.fileSizeInBytes())
            .build()) {
      return reader.fileMetadata().blobs().stream().mapToLong(BlobMetadata::length).sum();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the footer of " + vector.location(), e);
    }
  }

  private static Result commit(
      Table table,
      Snapshot start,
      List<Live> due,
      int puffinFiles,
      Marks marks,
      ExecutorService threads) {
    Map<String, PositionDeleteIndex> positions = new HashMap<>();
    for (Live live : due) {
      positions.put(
          live.task().file().location(),
          new GenericDeleteFilter(table.io(), live.task(), table.schema(), table.schema())
              .deletedRowPositions());
    }
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 0, 0)
            .operationId("floe-dv-rewrite-" + UUID.randomUUID())
            .format(FileFormat.PUFFIN)
            .ioSupplier(() -> NewFilesOnly.of(table.io()))
            .build();
    BaseDVFileWriter writer =
        new BaseDVFileWriter(files, location -> positions.get(location.toString()));
    try (writer) {
      for (Live live : due) {
        DataFile file = live.task().file();
        long[] first = new long[] {-1};
        positions
            .get(file.location())
            .forEach(
                position -> {
                  if (first[0] < 0) {
                    first[0] = position;
                  }
                });
        if (first[0] < 0) {
          throw new IllegalStateException(
              "Deletion vector "
                  + live.vector().location()
                  + " of "
                  + file.location()
                  + " is empty");
        }
        // the previous vector's positions come in whole; one of them names the file
        writer.delete(
            file.location(), first[0], table.specs().get(file.specId()), file.partition());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write deletion vectors of " + table.name(), e);
    }
    DeleteWriteResult result = writer.result();
    Map<String, DeleteFile> old = new HashMap<>();
    due.forEach(live -> old.put(live.task().file().location(), live.vector()));
    RewriteFiles rewrite =
        table.newRewrite().validateFromSnapshot(start.snapshotId()).scanManifestsWith(threads);
    due.forEach(live -> rewrite.deleteFile(live.vector()));
    for (DeleteFile vector : result.deleteFiles()) {
      DeleteFile replaced = old.get(vector.referencedDataFile());
      rewrite.addFile(vector, replaced.dataSequenceNumber());
    }
    marks.carry(rewrite, table, start);
    try {
      rewrite.commit();
    } catch (ValidationException | CommitFailedException e) {
      LOG.info(
          "Table {}: the rewrite of {} deletion vectors from snapshot {} conflicted with a later"
              + " commit ({}); dropped, planned again at the next run",
          table.name(),
          due.size(),
          start.snapshotId(),
          e.getMessage());
      result.deleteFiles().stream()
          .map(DeleteFile::location)
          .distinct()
          .forEach(location -> table.io().deleteFile(location));
      return new Result(0, 0, true);
    }
    return new Result(puffinFiles, due.size(), false);
  }
}
