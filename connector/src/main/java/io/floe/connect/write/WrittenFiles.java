/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.List;
import java.util.Map;
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
 * @param deleteFiles the delete files (none yet: writes are append-only)
 * @param offsets per source partition, the records the files hold
 */
public record WrittenFiles(
    TableIdentifier table,
    List<DataFile> dataFiles,
    List<DeleteFile> deleteFiles,
    Map<TopicPartition, OffsetRange> offsets) {

  public WrittenFiles {
    dataFiles = List.copyOf(dataFiles);
    deleteFiles = List.copyOf(deleteFiles);
    offsets = Map.copyOf(offsets);
  }

  /** The files as Iceberg's {@link WriteResult}. */
  public WriteResult writeResult() {
    return WriteResult.builder().addDataFiles(dataFiles).addDeleteFiles(deleteFiles).build();
  }

  /** Records in the files, over all source partitions. */
  public long recordCount() {
    return offsets.values().stream().mapToLong(OffsetRange::records).sum();
  }

  public boolean isEmpty() {
    return dataFiles.isEmpty() && deleteFiles.isEmpty() && offsets.isEmpty();
  }
}
