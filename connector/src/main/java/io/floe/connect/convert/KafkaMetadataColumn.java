/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * An optional struct column (named, say, {@code _kafka}) with where each row came from:
 *
 * <ul>
 *   <li>{@code topic} string, {@code partition} int, {@code offset} long: the record's origin as
 *       Kafka gave it, before any topic-renaming SMT ({@code originalTopic()} and friends);
 *   <li>{@code timestamp} timestamptz: the record timestamp, null if it has none;
 *   <li>{@code key} string: a String key as is; a number, boolean or UUID key as its {@code
 *       toString()}; null otherwise;
 *   <li>{@code key_bytes} binary: a {@code byte[]}/{@code ByteBuffer} key (as from
 *       ByteArrayConverter), unchanged; null otherwise.
 * </ul>
 *
 * Struct, map and list keys are not stored: they have no single faithful text form. Use {@link
 * #addTo} when creating a table and {@link #bind} then {@link #fill} per row.
 */
public final class KafkaMetadataColumn {
  /** The conventional column name. */
  public static final String DEFAULT_NAME = "_kafka";

  static final String TOPIC = "topic";
  static final String PARTITION = "partition";
  static final String OFFSET = "offset";
  static final String TIMESTAMP = "timestamp";
  static final String KEY = "key";
  static final String KEY_BYTES = "key_bytes";

  private static final Types.StructType TYPE =
      Types.StructType.of(
          Types.NestedField.optional(1, TOPIC, Types.StringType.get(), "Kafka topic"),
          Types.NestedField.optional(2, PARTITION, Types.IntegerType.get(), "Kafka partition"),
          Types.NestedField.optional(3, OFFSET, Types.LongType.get(), "Kafka offset"),
          Types.NestedField.optional(
              4, TIMESTAMP, Types.TimestampType.withZone(), "Kafka record timestamp"),
          Types.NestedField.optional(
              5, KEY, Types.StringType.get(), "Record key: a string, or a number as text"),
          Types.NestedField.optional(
              6, KEY_BYTES, Types.BinaryType.get(), "Record key, if it is bytes"));

  private final int position;
  private final GenericRecord template;
  private final int topic;
  private final int partition;
  private final int offset;
  private final int timestamp;
  private final int key;
  private final int keyBytes;

  private KafkaMetadataColumn(int position, Types.StructType struct) {
    this.position = position;
    this.template = GenericRecord.create(struct);
    this.topic = positionOf(struct, TOPIC);
    this.partition = positionOf(struct, PARTITION);
    this.offset = positionOf(struct, OFFSET);
    this.timestamp = positionOf(struct, TIMESTAMP);
    this.key = positionOf(struct, KEY);
    this.keyBytes = positionOf(struct, KEY_BYTES);
  }

  /** The column's struct type, with ids 1 to 6. */
  public static Types.StructType type() {
    return TYPE;
  }

  /**
   * {@code schema} with the metadata column appended as an optional column, ids fresh above the
   * schema's highest.
   *
   * @throws IllegalArgumentException if the schema already has a column of that name
   */
  public static org.apache.iceberg.Schema addTo(org.apache.iceberg.Schema schema, String name) {
    if (schema.findField(name) != null) {
      throw new IllegalArgumentException(
          "Cannot add the Kafka metadata column '" + name + "': the schema already has it");
    }
    AtomicInteger ids = new AtomicInteger(schema.highestFieldId());
    Type type = TypeUtil.assignFreshIds(TYPE, ids::incrementAndGet);
    List<Types.NestedField> columns = new ArrayList<>(schema.columns());
    columns.add(
        Types.NestedField.optional(
            ids.incrementAndGet(), name, type, "Where the row came from in Kafka"));
    return new org.apache.iceberg.Schema(columns, schema.identifierFieldIds());
  }

  /**
   * Binds to the top-level column {@code name} of {@code tableSchema}. Subfields are found by name;
   * a subfield the table lacks is not filled.
   *
   * @throws ConnectException if there is no such column or it does not have the expected types
   */
  public static KafkaMetadataColumn bind(org.apache.iceberg.Schema tableSchema, String name) {
    List<Types.NestedField> columns = tableSchema.columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      if (column.name().equals(name)) {
        checkTypes(column);
        return new KafkaMetadataColumn(i, column.type().asStructType());
      }
    }
    throw new ConnectException(
        "The table has no Kafka metadata column '" + name + "'; add it or unset the option");
  }

  private static void checkTypes(Types.NestedField column) {
    if (!column.type().isStructType() || column.isRequired()) {
      throw new ConnectException(
          "Column '"
              + column.name()
              + "' is not an optional struct, so it cannot hold Kafka"
              + " metadata; rename the column or the metadata column option");
    }
    for (Types.NestedField field : column.type().asStructType().fields()) {
      Types.NestedField expected = TYPE.field(field.name());
      if (expected != null && !expected.type().equals(field.type())) {
        throw new ConnectException(
            "Kafka metadata field '"
                + column.name()
                + "."
                + field.name()
                + "' has type "
                + field.type()
                + ", expected "
                + expected.type());
      }
    }
  }

  private static int positionOf(Types.StructType struct, String name) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Sets the metadata column of {@code row} (a row of the bound table schema) from {@code record}.
   */
  public void fill(Record row, SinkRecord record) {
    GenericRecord meta = template.copy();
    set(meta, topic, record.originalTopic());
    set(meta, partition, record.originalKafkaPartition());
    set(meta, offset, record.originalKafkaOffset());
    Long millis = record.timestamp();
    set(meta, timestamp, millis == null ? null : DateTimeUtil.timestamptzFromMillis(millis));
    Object k = record.key();
    set(meta, key, keyText(k));
    set(meta, keyBytes, keyBytes(k));
    row.set(position, meta);
  }

  private static void set(GenericRecord meta, int pos, Object value) {
    if (pos >= 0 && value != null) {
      meta.set(pos, value);
    }
  }

  private static String keyText(Object k) {
    if (k instanceof String s) {
      return s;
    }
    if (k instanceof Number || k instanceof Boolean || k instanceof UUID) {
      return k.toString();
    }
    return null;
  }

  private static ByteBuffer keyBytes(Object k) {
    if (k instanceof byte[] bytes) {
      return ByteBuffer.wrap(bytes);
    }
    if (k instanceof ByteBuffer buffer) {
      return buffer.duplicate();
    }
    return null;
  }
}
