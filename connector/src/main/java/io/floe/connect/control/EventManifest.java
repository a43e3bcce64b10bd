/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.GenericPartitionFieldSummary;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;

/**
 * The manifest a worker sent, rebuilt from its {@link DataWritten} event so that the coordinator
 * can commit it as it is ({@code AppendFiles.appendManifest}), without reading it.
 */
public record EventManifest(DataWritten event) implements ManifestFile {

  @Override
  public String path() {
    return event.manifestLocation();
  }

  @Override
  public long length() {
    return event.manifestLengthBytes();
  }

  @Override
  public int partitionSpecId() {
    return event.partitionSpecId();
  }

  @Override
  public ManifestContent content() {
    return event.content();
  }

  @Override
  public long sequenceNumber() {
    return -1;
  }

  @Override
  public long minSequenceNumber() {
    return -1;
  }

  @Override
  public Long snapshotId() {
    return null;
  }

  @Override
  public Integer addedFilesCount() {
    return event.fileCount();
  }

  @Override
  public Long addedRowsCount() {
    return event.recordCount();
  }

  @Override
  public Integer existingFilesCount() {
    return 0;
  }

  @Override
  public Long existingRowsCount() {
    return 0L;
  }

  @Override
  public Integer deletedFilesCount() {
    return 0;
  }

  @Override
  public Long deletedRowsCount() {
    return 0L;
  }

  @Override
  public List<PartitionFieldSummary> partitions() {
    if (event.partitions() == null) {
      return null;
    }
    return event.partitions().stream()
        .<PartitionFieldSummary>map(
            summary ->
                new GenericPartitionFieldSummary(
                    summary.containsNull(),
                    Boolean.TRUE.equals(summary.containsNan()),
                    buffer(summary.lowerBound()),
                    buffer(summary.upperBound())))
        .toList();
  }

  @Override
  public ManifestFile copy() {
    return this;
  }

  private static ByteBuffer buffer(byte[] bytes) {
    return bytes == null ? null : ByteBuffer.wrap(bytes);
  }
}
