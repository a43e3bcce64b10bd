/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class MemoryModelTest {
  private static final long MIB = 1024 * 1024;

  /** Five leaf columns: a long, a struct of two, a list element, a map key and value count 2. */
  private static final Schema NESTED =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(
              2,
              "address",
              Types.StructType.of(
                  Types.NestedField.optional(3, "city", Types.StringType.get()),
                  Types.NestedField.optional(4, "zip", Types.IntegerType.get()))),
          Types.NestedField.optional(
              5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
          Types.NestedField.optional(
              7,
              "attrs",
              Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.StringType.get())));

  @Test
  void parquetFilesHoldCompressorPagesAndColumnWritersFromTheFirstRow() {
    MemoryModel model =
        MemoryModel.parquet(Map.of(TableProperties.PARQUET_COMPRESSION, "zstd"), NESTED);

    assertThat(model.leafColumns()).isEqualTo(6);
    assertThat(model.fixedBytes()).isEqualTo(2 * MIB + 6 * 24 * 1024 + TailKeepingFile.TAIL_BYTES);
    assertThat(model.estimate(0, 0, 0)).isEqualTo(model.fixedBytes());
  }

  @Test
  void uncompressedFilesHaveNoCompressorBuffers() {
    MemoryModel model =
        MemoryModel.parquet(Map.of(TableProperties.PARQUET_COMPRESSION, "UNCOMPRESSED"), NESTED);
    assertThat(model.fixedBytes()).isEqualTo(6 * 24 * 1024 + TailKeepingFile.TAIL_BYTES);
  }

  @Test
  void pageSizeAndRowGroupSizeComeFromTheProperties() {
    MemoryModel model =
        MemoryModel.parquet(
            Map.of(
                TableProperties.PARQUET_PAGE_SIZE_BYTES, "65536",
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "8388608",
                TableProperties.PARQUET_PAGE_ROW_LIMIT, "500"),
            NESTED);
    assertThat(model.fixedBytes())
        .isEqualTo(2 * 65536 + 6 * 24 * 1024 + TailKeepingFile.TAIL_BYTES);
    assertThat(model.maxBufferedDataBytes()).isEqualTo(8 * MIB);
    assertThat(model.firstPageRows()).isEqualTo(500);
    assertThat(model.firstPageMaxBytes()).isEqualTo(6 * 65536);
  }

  @Test
  void bufferedDataIsCountedUpToOneRowGroup() {
    MemoryModel model = MemoryModel.parquet(Map.of(), NESTED);
    long firstPage = 4 * MIB;
    long small = model.estimate(10 * MIB, 100_000, firstPage);
    long atRowGroup = model.estimate(128 * MIB, 1_000_000, firstPage);
    long beyond = model.estimate(512 * MIB, 4_000_000, firstPage);

    assertThat(atRowGroup - small).isEqualTo(118 * MIB);
    assertThat(beyond).isEqualTo(atRowGroup);
  }

  @Test
  void dictionariesAreChargedForTheFirstPageOnly() {
    MemoryModel model = MemoryModel.parquet(Map.of(), NESTED);
    long firstPage = 2 * MIB;
    long atPageEnd = model.estimate(firstPage, 20_000, firstPage);
    long later = model.estimate(firstPage + 10 * MIB, 200_000, firstPage);

    assertThat(later - atPageEnd).isEqualTo(10 * MIB);
    assertThat(atPageEnd - model.fixedBytes() - firstPage)
        .isEqualTo(48L * 6 * 20_000 + 3 * firstPage);
  }

  @Test
  void mostlyNullRowsAreNotChargedPerValue() {
    MemoryModel model = MemoryModel.parquet(Map.of(), NESTED);
    long rawFirstPage = 10_000;
    long estimate = model.estimate(rawFirstPage, 20_000, rawFirstPage);
    assertThat(estimate - model.fixedBytes())
        .isEqualTo(rawFirstPage + 12 * rawFirstPage + 3 * rawFirstPage);
  }

  @Test
  void avroFilesCostAFlatAmount() {
    MemoryModel model = MemoryModel.avro();
    assertThat(model.estimate(0, 0, 0)).isEqualTo(256 * 1024);
    assertThat(model.estimate(100 * MIB, 1_000_000, 0)).isEqualTo(256 * 1024);
  }
}
