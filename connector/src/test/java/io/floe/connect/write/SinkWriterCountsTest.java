/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.metrics.WriterCounts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkWriterCountsTest {
  private static final Schema V1 = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
  private static final Schema V2 =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema TEXT_ID =
      SchemaBuilder.struct().field("id", Schema.STRING_SCHEMA).build();

  @TempDir Path dir;

  private final List<SinkRecord> failed = new ArrayList<>();
  private final List<SinkRecord> tombstones = new ArrayList<>();

  private SinkWriter writer() {
    FloeSinkConfig config =
        new FloeSinkConfig(
            Map.of(
                "iceberg.tables", "db.events",
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.tables.evolve-schema-enabled", "true",
                "iceberg.catalog.type", "jdbc",
                "iceberg.catalog.uri", "jdbc:sqlite:" + dir.resolve("catalog.db"),
                "iceberg.catalog.jdbc.schema-version", "V1",
                "iceberg.catalog.warehouse", dir.resolve("warehouse").toString()));
    Catalog catalog = new CatalogLoader().load(config);
    return SinkWriter.forTask(
        config,
        catalog,
        new SinkWriter.RecordOutcomes() {
          @Override
          public void tombstone(SinkRecord record) {
            tombstones.add(record);
          }

          @Override
          public void failed(SinkRecord record, String table, RuntimeException cause) {
            failed.add(record);
          }
        });
  }

  private static SinkRecord record(long offset, Schema schema, Object value) {
    return new SinkRecord("events", 0, null, null, schema, value, offset, 1_000L + offset, null);
  }

  @Test
  void theCountsShowRowsConversionErrorsSchemaChangesAndFiles() {
    try (SinkWriter writer = writer()) {
      writer.write(
          List.of(
              record(0, V1, new Struct(V1).put("id", 1L)),
              record(1, V1, new Struct(V1).put("id", 2L)),
              record(2, TEXT_ID, new Struct(TEXT_ID).put("id", "three")),
              record(3, null, null),
              record(4, V2, new Struct(V2).put("id", 4L).put("name", "four"))));

      WriterCounts open = writer.counts();
      assertThat(open.recordsWritten()).isEqualTo(3);
      assertThat(open.conversionErrors()).isEqualTo(1);
      assertThat(open.schemaChanges()).isEqualTo(1);
      assertThat(open.openFiles()).isEqualTo(1);
      assertThat(open.bufferedBytes()).isPositive();
      assertThat(failed).extracting(SinkRecord::kafkaOffset).containsExactly(2L);
      assertThat(tombstones).extracting(SinkRecord::kafkaOffset).containsExactly(3L);

      HandOver handOver = writer.handOver();
      long bytes =
          handOver.tables().stream()
              .flatMap(t -> t.files().dataFiles().stream())
              .mapToLong(f -> f.fileSizeInBytes())
              .sum();
      WriterCounts handedOver = writer.counts();
      assertThat(handedOver.openFiles()).isZero();
      assertThat(handedOver.bufferedBytes()).isZero();
      assertThat(handedOver.bytesWritten()).isEqualTo(bytes).isPositive();
    }
  }
}
