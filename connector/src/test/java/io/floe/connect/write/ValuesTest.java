/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ValuesTest {
  @Test
  void defaultOptionsAre128MibAnd64Files() {
    assertThat(WriterPoolOptions.defaults())
        .isEqualTo(new WriterPoolOptions(128L * 1024 * 1024, 64));
  }

  @Test
  void optionsRejectEmptyLimits() {
    assertThatThrownBy(() -> new WriterPoolOptions(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryBudgetBytes");
    assertThatThrownBy(() -> new WriterPoolOptions(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxOpenFiles");
  }

  @Test
  void anOffsetRangeHoldsAtLeastOneRecord() {
    assertThatThrownBy(() -> new OffsetRange(5, 4, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OffsetRange(5, 5, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    OffsetRange range = new OffsetRange(5, 9, 5, 1_000);
    assertThat(range.nextOffset()).isEqualTo(10);
    assertThat(range.hasTimestamp()).isTrue();
  }

  @Test
  void writtenFilesAreImmutableCopies() {
    Map<TopicPartition, OffsetRange> offsets = new HashMap<>();
    offsets.put(new TopicPartition("t", 0), new OffsetRange(0, 1, 2, -1));
    WrittenFiles files =
        new WrittenFiles(TableIdentifier.of("db", "t"), List.of(), List.of(), offsets);
    offsets.clear();

    assertThat(files.offsets()).hasSize(1);
    assertThat(files.recordCount()).isEqualTo(2);
    assertThat(files.isEmpty()).isFalse();
    assertThatThrownBy(() -> files.offsets().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(files.writeResult().dataFiles()).isEmpty();
  }
}
