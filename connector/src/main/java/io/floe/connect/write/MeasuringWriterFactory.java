/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.function.BiConsumer;
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
 * does not report it), and that hands each data file's last bytes (a Parquet file's footer) to a
 * listener once the file is closed. One instance per rolling writer.
 */
final class MeasuringWriterFactory implements FileWriterFactory<Record> {
  private final FileWriterFactory<Record> delegate;
  private final BiConsumer<String, byte[]> tails;
  private DataWriter<Record> current;

  /**
   * @param tails given each data file's location and last bytes once it is closed; null for none
   */
  MeasuringWriterFactory(FileWriterFactory<Record> delegate, BiConsumer<String, byte[]> tails) {
    this.delegate = delegate;
    this.tails = tails;
  }

  /** The writer of the file being written, or null before the first one is opened. */
  DataWriter<Record> current() {
    return current;
  }

  @Override
  public DataWriter<Record> newDataWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    EncryptedOutputFile written = file;
    if (tails != null) {
      String location = file.encryptingOutputFile().location();
      written = TailKeepingFile.wrap(file, tail -> tails.accept(location, tail));
    }
    current = delegate.newDataWriter(written, spec, partition);
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
