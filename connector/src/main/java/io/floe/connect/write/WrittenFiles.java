/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;
import org.apache.kafka.common.TopicPartition;

/**
 * The finished files of one table, handed over for commit, with the source records they hold.
 *
 * @param table the table written
 * @param dataFiles the data files, all closed
 * @param keyFiles in upsert mode, the key files ({@link KeyFiles}): the keys whose stored rows go,
 *     for the coordinator to read; never committed
 * @param offsets per source partition, the records the files hold
 * @param changeSources in upsert mode, the source partitions whose changes the hand-over holds and
 *     the truncates read from them; {@link ChangeSources#NONE} otherwise
 */
public record WrittenFiles(
    TableIdentifier table,
    List<DataFile> dataFiles,
    List<DeleteFile> keyFiles,
    Map<TopicPartition, OffsetRange> offsets,
    ChangeSources changeSources) {

  public WrittenFiles {
    dataFiles = List.copyOf(dataFiles);
    keyFiles = List.copyOf(keyFiles);
    offsets = Map.copyOf(offsets);
    Objects.requireNonNull(changeSources, "changeSources");
  }

  /** Files of a table that appends. */
  public WrittenFiles(
      TableIdentifier table,
      List<DataFile> dataFiles,
      List<DeleteFile> keyFiles,
      Map<TopicPartition, OffsetRange> offsets) {
    this(table, dataFiles, keyFiles, offsets, ChangeSources.NONE);
  }

  /** The data files as Iceberg's {@link WriteResult} (the key files are not for a commit). */
  public WriteResult writeResult() {
    return WriteResult.builder().addDataFiles(dataFiles).build();
  }

  /** These files with {@code keyFiles} and {@code changeSources} instead of theirs. */
  public WrittenFiles withKeyFiles(List<DeleteFile> keyFiles, ChangeSources changeSources) {
    return new WrittenFiles(table, dataFiles, keyFiles, offsets, changeSources);
  }

  /** Records in the files, over all source partitions. */
  public long recordCount() {
    return offsets.values().stream().mapToLong(OffsetRange::records).sum();
  }

  public boolean isEmpty() {
    return dataFiles.isEmpty() && keyFiles.isEmpty() && offsets.isEmpty();
  }
}
