/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileWriterFactory;

/**
 * A writer factory that remembers the data writer it made last, so that the length of the file a
 * {@link org.apache.iceberg.io.RollingDataWriter} is writing can be read (the rolling writer itself
 * does not report it). One instance per rolling writer.
 */
final class MeasuringWriterFactory implements FileWriterFactory<Record> {
  private final FileWriterFactory<Record> delegate;
  private DataWriter<Record> current;

  MeasuringWriterFactory(FileWriterFactory<Record> delegate) {
    this.delegate = delegate;
  }

  /** The writer of the file being written, or null before the first one is opened. */
  DataWriter<Record> current() {
    return current;
  }

  @Override
  public DataWriter<Record> newDataWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    current = delegate.newDataWriter(file, spec, partition);
    return current;
  }

  @Override
  public EqualityDeleteWriter<Record> newEqualityDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    return delegate.newEqualityDeleteWriter(file, spec, partition);
  }

  @Override
  public PositionDeleteWriter<Record> newPositionDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    return delegate.newPositionDeleteWriter(file, spec, partition);
  }
}
