/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteSettingsTest {
  private final WriteTestTables tables = WriteTestTables.inMemory();

  @AfterEach
  void tearDown() throws Exception {
    tables.close();
  }

  private int created;

  private Table table(Map<String, String> properties) {
    return tables.create("t" + created++, PartitionSpec.unpartitioned(), properties);
  }

  @Test
  void parquetAtIcebergsTargetSizeByDefault() {
    WriteSettings settings = WriteSettings.resolve(table(Map.of()), Map.of());
    assertThat(settings.format()).isEqualTo(FileFormat.PARQUET);
    assertThat(settings.targetFileSizeBytes())
        .isEqualTo(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    assertThat(settings.memory().leafColumns()).isEqualTo(4);
  }

  @Test
  void tablePropertiesChooseFormatAndTargetSize() {
    WriteSettings settings =
        WriteSettings.resolve(
            table(
                Map.of(
                    TableProperties.DEFAULT_FILE_FORMAT, "AVRO",
                    TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1000")),
            Map.of());
    assertThat(settings.format()).isEqualTo(FileFormat.AVRO);
    assertThat(settings.targetFileSizeBytes()).isEqualTo(1000);
    assertThat(settings.memory()).isEqualTo(MemoryModel.avro());
  }

  @Test
  void writePropertiesOverrideTheTable() {
    Map<String, String> overrides =
        Map.of(
            TableProperties.DEFAULT_FILE_FORMAT, "parquet",
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "2000",
            TableProperties.PARQUET_PAGE_SIZE_BYTES, "4096");
    WriteSettings settings =
        WriteSettings.resolve(
            table(Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro")), overrides);
    assertThat(settings.format()).isEqualTo(FileFormat.PARQUET);
    assertThat(settings.targetFileSizeBytes()).isEqualTo(2000);
    assertThat(settings.writeProperties())
        .containsAllEntriesOf(overrides)
        .containsEntry(TableProperties.PARQUET_COMPRESSION_LEVEL, "1")
        .hasSize(overrides.size() + 1);
    assertThat(settings.memory().firstPageMaxBytes()).isEqualTo(4 * 4096);
  }

  @Test
  void tasksWriteZstdAtLevelOneUnlessTheTableOrTheConnectorSetsALevelOrAnotherCodec() {
    assertThat(WriteSettings.resolve(table(Map.of()), Map.of()).writeProperties())
        .as("Iceberg's default codec, zstd, at level 1")
        .containsExactlyEntriesOf(Map.of(TableProperties.PARQUET_COMPRESSION_LEVEL, "1"));
    assertThat(
            WriteSettings.resolve(
                    table(Map.of(TableProperties.PARQUET_COMPRESSION, "ZSTD")), Map.of())
                .writeProperties())
        .containsEntry(TableProperties.PARQUET_COMPRESSION_LEVEL, "1");
    assertThat(
            WriteSettings.resolve(
                    table(Map.of(TableProperties.PARQUET_COMPRESSION_LEVEL, "9")), Map.of())
                .writeProperties())
        .as("the table's own level")
        .isEmpty();
    assertThat(
            WriteSettings.resolve(
                    table(Map.of()), Map.of(TableProperties.PARQUET_COMPRESSION_LEVEL, "5"))
                .writeProperties())
        .as("the connector's level")
        .containsExactlyEntriesOf(Map.of(TableProperties.PARQUET_COMPRESSION_LEVEL, "5"));
    assertThat(
            WriteSettings.resolve(
                    table(Map.of(TableProperties.PARQUET_COMPRESSION, "snappy")), Map.of())
                .writeProperties())
        .as("another codec")
        .isEmpty();
    assertThat(
            WriteSettings.resolve(
                    table(Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro")), Map.of())
                .writeProperties())
        .as("Avro files")
        .isEmpty();
  }

  @Test
  void rejectsOrcAndUnknownFormatsNamingTheProperty() {
    assertThatThrownBy(
            () ->
                WriteSettings.resolve(
                    table(Map.of(TableProperties.DEFAULT_FILE_FORMAT, "orc")), Map.of()))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("write.format.default=orc is not supported");
  }

  @Test
  void rejectsATargetSizeBelowOne() {
    assertThatThrownBy(
            () ->
                WriteSettings.resolve(
                    table(Map.of()), Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "0")))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("write.target-file-size-bytes must be above zero");
  }
}
