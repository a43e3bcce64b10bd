/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * The open data file of one table partition in a {@link FileGroup}: Iceberg's {@link
 * RollingDataWriter} (which rolls at the target file size) plus the running estimate of the heap it
 * holds.
 *
 * <p>The file's length is read when its row count is a power of two below {@value
 * #SAMPLE_INTERVAL_ROWS}, then every {@value #SAMPLE_INTERVAL_ROWS} rows (reading it costs a pass
 * over the columns); in between it is extrapolated from the last reading.
 */
final class PartitionFile {
  static final long SAMPLE_INTERVAL_ROWS = 256;

  private final FileGroup group;
  private final PartitionKey key;
  private final MemoryModel memory;
  private final MeasuringWriterFactory measured;
  private final RollingDataWriter<Record> writer;

  private CharSequence numberedLocation;
  private long locationNumber;
  private DataWriter<Record> sampledWriter;
  private long sampledRows;
  private long sampledLength;
  private long firstPageLength;
  private long estimate;

  PartitionFile(
      FileGroup group,
      PartitionKey key,
      PartitionSpec spec,
      FileWriterFactory<Record> writers,
      OutputFileFactory files,
      FileIO io,
      WriteSettings settings,
      Dictionaries dictionaries) {
    this.group = group;
    this.key = key;
    this.memory = settings.memory();
    this.measured =
        new MeasuringWriterFactory(writers, dictionaries == null ? null : dictionaries::learn);
    this.writer =
        new RollingDataWriter<>(
            measured,
            files,
            io,
            settings.targetFileSizeBytes(),
            spec,
            spec.isUnpartitioned() ? null : key);
  }

  FileGroup group() {
    return group;
  }

  /** The table partition (empty for an unpartitioned table). */
  PartitionKey key() {
    return key;
  }

  /**
   * Where the next row goes: the number {@code numbers} gives the location of the file being
   * written, shifted left by {@link TableWriter#POSITION_BITS}, plus the row's position in it.
   */
  long nextRow(java.util.function.ToLongFunction<String> numbers) {
    CharSequence location = writer.currentFilePath();
    if (location != numberedLocation) {
      numberedLocation = location;
      locationNumber = numbers.applyAsLong(location.toString()) << TableWriter.POSITION_BITS;
    }
    return locationNumber | writer.currentFileRows();
  }

  /** Writes a row and returns by how much the estimated heap of this file changed. */
  long write(Record row) {
    writer.write(row);
    DataWriter<Record> current = measured.current();
    if (current != sampledWriter) {
      sampledWriter = current;
      sampledRows = 0;
      sampledLength = 0;
      firstPageLength = 0;
    }
    long fileRows = writer.currentFileRows();
    if (shouldSample(fileRows)) {
      sampledLength = current.length();
      sampledRows = fileRows;
    }
    long length =
        sampledRows == 0
            ? 0
            : sampledLength + (fileRows - sampledRows) * sampledLength / sampledRows;
    if (fileRows <= memory.firstPageRows()) {
      firstPageLength = length;
    }
    long next = memory.estimate(length, fileRows, firstPageLength);
    long delta = next - estimate;
    estimate = next;
    return delta;
  }

  static boolean shouldSample(long fileRows) {
    if (fileRows <= 0) {
      return false;
    }
    boolean powerOfTwo = (fileRows & (fileRows - 1)) == 0;
    return fileRows < SAMPLE_INTERVAL_ROWS ? powerOfTwo : fileRows % SAMPLE_INTERVAL_ROWS == 0;
  }

  /** The estimated heap this file holds now. */
  long estimate() {
    return estimate;
  }

  /** The location of the file being written. */
  String currentLocation() {
    return writer.currentFilePath().toString();
  }

  /** Closes the file and returns the data files written (none if no row was written). */
  List<DataFile> close() {
    String location = currentLocation();
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close data file " + location, e);
    }
    estimate = 0;
    return writer.result().dataFiles();
  }
}
