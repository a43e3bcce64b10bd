/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static io.floe.connect.write.WriteTestTables.id;
import static io.floe.connect.write.WriteTestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PartitionFileTest {
  private static final TopicPartition P0 = new TopicPartition("events", 0);
  private final WriteTestTables tables = WriteTestTables.inMemory();

  @AfterEach
  void tearDown() throws Exception {
    tables.close();
  }

  @Test
  void readsTheLengthAtPowersOfTwoThenEvery256Rows() {
    List<Long> sampled =
        LongStream.rangeClosed(0, 1_100).filter(PartitionFile::shouldSample).boxed().toList();
    assertThat(sampled)
        .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 768L, 1_024L);
  }

  @Test
  void estimateGrowsWithTheDataAndDropsWhenTheFileRolls() {
    Table table =
        tables.create(
            "t",
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1"));
    try (WriterPool pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0)) {
      TableWriter writer = pool.writerFor(id(table), tableId -> table);
      writer.write(P0, 0, 0, row(0, 0, "x".repeat(100), 0));
      long first = pool.stats().bufferedBytesEstimate();
      for (long i = 1; i < 999; i++) {
        writer.write(P0, i, 0, row(i, 0, "x".repeat(100) + i, 0));
      }
      long full = pool.stats().bufferedBytesEstimate();
      writer.write(P0, 999, 0, row(999, 0, "y", 0)); // the 1,000th row rolls the file
      long rolled = pool.stats().bufferedBytesEstimate();

      long fixed = WriteSettings.resolve(table, Map.of()).memory().fixedBytes();
      assertThat(first).isGreaterThan(fixed);
      assertThat(full - first).isGreaterThan(100 * 998);
      assertThat(rolled).isEqualTo(fixed);
      writer.write(P0, 1_000, 0, row(1_000, 0, "z", 0));
      assertThat(pool.complete().get(0).dataFiles()).hasSize(2);
    }
  }
}
