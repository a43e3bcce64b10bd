/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * How one table's files are written: the table's properties with the connector's write properties
 * laid over them.
 *
 * @param format {@code write.format.default}, Parquet unless set
 * @param targetFileSizeBytes {@code write.target-file-size-bytes}, where files roll
 * @param writeProperties the connector's overrides, handed to Iceberg's writer factory, with zstd
 *     at level 1 unless the table or the connector sets a level
 * @param memory how the heap of an open file is estimated
 */
record WriteSettings(
    FileFormat format,
    long targetFileSizeBytes,
    Map<String, String> writeProperties,
    MemoryModel memory) {

  WriteSettings {
    writeProperties = Map.copyOf(writeProperties);
  }

  /**
   * The zstd level of the Parquet files tasks write when neither the table nor the connector sets
   * one: level 1 took a quarter less of the writer's CPU than Iceberg's default of 3 for 4% more
   * bytes (BENCHMARKS.md); compaction rewrites the files at the table's own level.
   */
  static final String STREAMING_ZSTD_LEVEL = "1";

  static WriteSettings resolve(Table table, Map<String, String> connectorProperties) {
    Map<String, String> merged = new HashMap<>(table.properties());
    merged.putAll(connectorProperties);
    FileFormat format = format(table, merged);
    Map<String, String> writeProperties = connectorProperties;
    if (format == FileFormat.PARQUET
        && !merged.containsKey(TableProperties.PARQUET_COMPRESSION_LEVEL)
        && "zstd"
            .equalsIgnoreCase(
                merged
                    .getOrDefault(
                        TableProperties.PARQUET_COMPRESSION,
                        TableProperties.PARQUET_COMPRESSION_DEFAULT)
                    .trim())) {
      writeProperties = new HashMap<>(connectorProperties);
      writeProperties.put(TableProperties.PARQUET_COMPRESSION_LEVEL, STREAMING_ZSTD_LEVEL);
    }
    long targetSize =
        PropertyUtil.propertyAsLong(
            merged,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    if (targetSize <= 0) {
      throw new ConnectException(
          String.format(
              "Table %s: %s must be above zero, got %d",
              table.name(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, targetSize));
    }
    MemoryModel memory =
        format == FileFormat.PARQUET
            ? MemoryModel.parquet(merged, table.schema())
            : MemoryModel.avro();
    return new WriteSettings(format, targetSize, writeProperties, memory);
  }

  private static FileFormat format(Table table, Map<String, String> merged) {
    String name =
        merged.getOrDefault(
            TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT);
    String normalized = name.trim().toUpperCase(Locale.ROOT);
    if (normalized.equals(FileFormat.PARQUET.name())) {
      return FileFormat.PARQUET;
    }
    if (normalized.equals(FileFormat.AVRO.name())) {
      return FileFormat.AVRO;
    }
    throw new ConnectException(
        String.format(
            "Table %s: %s=%s is not supported; Floe writes parquet or avro. Change the table"
                + " property or override it in the connector's write properties.",
            table.name(), TableProperties.DEFAULT_FILE_FORMAT, name));
  }
}
