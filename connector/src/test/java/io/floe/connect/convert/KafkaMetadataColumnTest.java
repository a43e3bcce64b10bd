/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class KafkaMetadataColumnTest {
  private static final Schema VALUE =
      SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
  private static final String NAME = KafkaMetadataColumn.DEFAULT_NAME;

  private static SinkRecord record(Object key, Long timestamp) {
    // As after a topic-renaming SMT: the record's topic differs from where it came from
    return new SinkRecord(
        "renamed",
        9,
        null,
        key,
        VALUE,
        new Struct(VALUE).put("id", 1L),
        999L,
        timestamp,
        TimestampType.CREATE_TIME,
        List.of(),
        "orders",
        3,
        42L);
  }

  private static Record fill(SinkRecord sinkRecord) {
    org.apache.iceberg.Schema table =
        KafkaMetadataColumn.addTo(
            ConnectSchemas.toIcebergSchema(VALUE, ConvertOptions.defaults()), NAME);
    Record row =
        RecordConverters.forSchema(VALUE, table, ConvertOptions.defaults())
            .convert(sinkRecord.value());
    KafkaMetadataColumn.bind(table, NAME).fill(row, sinkRecord);
    return (Record) row.getField(NAME);
  }

  @Test
  void addsAnOptionalStructColumnWithFreshIds() {
    org.apache.iceberg.Schema table =
        KafkaMetadataColumn.addTo(
            ConnectSchemas.toIcebergSchema(VALUE, ConvertOptions.defaults()), NAME);
    Types.NestedField column = table.findField(NAME);
    assertThat(column.isOptional()).isTrue();
    assertThat(column.type().asStructType().fields())
        .extracting(Types.NestedField::name)
        .containsExactly("topic", "partition", "offset", "timestamp", "key", "key_bytes");
    assertThat(table.highestFieldId()).isEqualTo(8);
    assertThat(table.findField(NAME + ".topic").fieldId()).isGreaterThan(1);
  }

  @Test
  void fillsOriginalTopicPartitionOffsetTimestampAndStringKey() {
    Record meta = fill(record("customer-17", 1_700_000_000_123L));
    assertThat(meta.getField("topic")).isEqualTo("orders");
    assertThat(meta.getField("partition")).isEqualTo(3);
    assertThat(meta.getField("offset")).isEqualTo(42L);
    assertThat(meta.getField("timestamp"))
        .isEqualTo(OffsetDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000, ZoneOffset.UTC));
    assertThat(meta.getField("key")).isEqualTo("customer-17");
    assertThat(meta.getField("key_bytes")).isNull();
  }

  @Test
  void keepsBytesKeysAsBytesNumbersAsTextAndSkipsStructKeys() {
    Record bytes = fill(record(new byte[] {1, 2}, null));
    assertThat(bytes.getField("key")).isNull();
    assertThat(bytes.getField("key_bytes")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
    assertThat(bytes.getField("timestamp")).isNull();

    assertThat(fill(record(17L, null)).getField("key")).isEqualTo("17");

    Schema keySchema = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Record struct = fill(record(new Struct(keySchema).put("id", 5L), null));
    assertThat(struct.getField("key")).isNull();
    assertThat(struct.getField("key_bytes")).isNull();
  }

  @Test
  void rejectsNameCollisionsAndUnsuitableColumns() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(Types.NestedField.optional(1, NAME, Types.StringType.get()));
    assertThatThrownBy(() -> KafkaMetadataColumn.addTo(table, NAME))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KafkaMetadataColumn.bind(table, NAME))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("optional struct");
    assertThatThrownBy(() -> KafkaMetadataColumn.bind(table, "_other"))
        .isInstanceOf(ConnectException.class);
    org.apache.iceberg.Schema wrongType =
        new org.apache.iceberg.Schema(
            Types.NestedField.optional(
                1,
                NAME,
                Types.StructType.of(
                    Types.NestedField.optional(2, "offset", Types.StringType.get()))));
    assertThatThrownBy(() -> KafkaMetadataColumn.bind(wrongType, NAME))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("offset");
  }
}
