/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The upsert benchmark's change stream: flattened change records (Debezium's {@code
 * ExtractNewRecordState} shape, the op in {@code __op}) of a 9-column table, each an insert of a
 * new key ({@code c}) or an update of a stored key ({@code u}), spread over 4 source partitions by
 * key. Keys are numbered 0, 1, 2, ... in insert order; their values follow the {@link KeyKind}.
 * Updates and inserts interleave evenly at the requested fraction.
 */
final class ChangeLoad {
  static final String TOPIC = "changes";
  static final int PARTITIONS = 4;
  private static final long T0 = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "GB", "PL", "SE", "ES"};
  private static final String[] STATUSES = {"new", "paid", "packed", "shipped", "delivered"};

  /** How keys are chosen. */
  enum KeyKind {
    /** Sequential longs; updates hit the most recent keys (the hot window), so few files. */
    SEQUENTIAL("sequential", "sequential longs, updates of the newest keys"),
    /** Random UUID strings; updates hit any stored key. */
    UUID("uuid", "random UUID strings, updates of any key"),
    /** Random longs; updates hit any stored key. */
    RANDOM_LONG("random-long", "random longs, updates of any key");

    final String label;
    final String description;

    KeyKind(String label, String description) {
      this.label = label;
      this.description = description;
    }

    static KeyKind of(String label) {
      return Arrays.stream(values())
          .filter(kind -> kind.label.equals(label.trim().toLowerCase(Locale.ROOT)))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("unknown key kind " + label));
    }

    boolean stringKeys() {
      return this == UUID;
    }
  }

  private final KeyKind kind;
  private final long hotKeys;
  private final Random random;
  private final org.apache.kafka.connect.data.Schema valueSchema;
  private final long[] offsets = new long[PARTITIONS];
  private final String[] customers = new String[20_000];
  private long keys;
  private long changes;
  private double carry;
  private long inputBytes;

  /**
   * @param hotKeys for sequential keys, how many of the newest keys updates choose from
   */
  ChangeLoad(KeyKind kind, long hotKeys, long seed) {
    this.kind = kind;
    this.hotKeys = hotKeys;
    this.random = new Random(seed);
    this.valueSchema = connectSchema(kind);
    Arrays.setAll(customers, i -> "customer-" + i);
  }

  /** The table's schema: the key {@code id} is its identifier field; {@code withOp} adds __op. */
  static Schema tableSchema(KeyKind kind, boolean withOp) {
    Type idType = kind.stringKeys() ? Types.StringType.get() : Types.LongType.get();
    List<Types.NestedField> fields = new ArrayList<>();
    fields.add(Types.NestedField.required(1, "id", idType));
    fields.add(Types.NestedField.optional(2, "quantity", Types.IntegerType.get()));
    fields.add(Types.NestedField.optional(3, "amount", Types.DoubleType.get()));
    fields.add(Types.NestedField.optional(4, "paid", Types.BooleanType.get()));
    fields.add(Types.NestedField.optional(5, "customer", Types.StringType.get()));
    fields.add(Types.NestedField.optional(6, "country", Types.StringType.get()));
    fields.add(Types.NestedField.optional(7, "status", Types.StringType.get()));
    fields.add(Types.NestedField.optional(8, "note", Types.StringType.get()));
    fields.add(Types.NestedField.optional(9, "ts", Types.TimestampType.withZone()));
    if (withOp) {
      fields.add(Types.NestedField.optional(10, "__op", Types.StringType.get()));
    }
    return new Schema(fields, java.util.Set.of(1));
  }

  private static org.apache.kafka.connect.data.Schema connectSchema(KeyKind kind) {
    return SchemaBuilder.struct()
        .name("bench.orders.Value")
        .field(
            "id",
            kind.stringKeys()
                ? org.apache.kafka.connect.data.Schema.STRING_SCHEMA
                : org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
        .field("quantity", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
        .field("amount", org.apache.kafka.connect.data.Schema.FLOAT64_SCHEMA)
        .field("paid", org.apache.kafka.connect.data.Schema.BOOLEAN_SCHEMA)
        .field("customer", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
        .field("country", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
        .field("status", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
        .field("note", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
        .field("ts", Timestamp.SCHEMA)
        .field("__op", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
        .build();
  }

  KeyKind kind() {
    return kind;
  }

  /** Change records made so far. */
  long changes() {
    return changes;
  }

  /** Distinct keys so far: the rows the table must hold. */
  long keys() {
    return keys;
  }

  /** The input's size so far, as Avro binary would encode the values. */
  long inputBytes() {
    return inputBytes;
  }

  /** The next offset of every source partition written to. */
  Map<TopicPartition, Long> nextOffsets() {
    Map<TopicPartition, Long> next = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      if (offsets[p] > 0) {
        next.put(new TopicPartition(TOPIC, p), offsets[p]);
      }
    }
    return next;
  }

  /** The next key, inserted, as a table row: the initial load written straight to files. */
  Record insertRow(Schema schema) {
    long index = keys++;
    GenericRecord row = GenericRecord.create(schema);
    row.setField("id", keyValue(index));
    row.setField("quantity", 1 + random.nextInt(20));
    row.setField("amount", Math.round(random.nextDouble() * 100_000) / 100.0);
    row.setField("paid", random.nextBoolean());
    row.setField("customer", customers[random.nextInt(customers.length)]);
    row.setField("country", COUNTRIES[random.nextInt(COUNTRIES.length)]);
    row.setField("status", STATUSES[0]);
    row.setField("note", random.nextInt(10) < 3 ? null : "note " + random.nextInt(1_000));
    row.setField(
        "ts", OffsetDateTime.ofInstant(Instant.ofEpochMilli(T0 + index * 1_000), ZoneOffset.UTC));
    return row;
  }

  /** The next {@code size} changes, a fraction {@code updates} of them updates of stored keys. */
  List<SinkRecord> next(int size, double updates) {
    List<SinkRecord> records = new ArrayList<>(size);
    changes += size;
    for (int i = 0; i < size; i++) {
      carry += updates;
      boolean update = carry >= 1 - 1e-9 && keys > 0;
      long index;
      if (update) {
        carry -= 1;
        index = updatedKey();
      } else {
        index = keys++;
      }
      records.add(record(index, update));
    }
    return records;
  }

  private long updatedKey() {
    if (kind == KeyKind.SEQUENTIAL) {
      long window = Math.min(hotKeys, keys);
      return keys - 1 - (long) (random.nextDouble() * window);
    }
    return (long) (random.nextDouble() * keys);
  }

  private SinkRecord record(long index, boolean update) {
    Object id = keyValue(index);
    Struct value = new Struct(valueSchema);
    value.put("id", id);
    int quantity = 1 + random.nextInt(20);
    value.put("quantity", quantity);
    value.put("amount", Math.round(random.nextDouble() * 100_000) / 100.0);
    value.put("paid", random.nextBoolean());
    String customer = customers[random.nextInt(customers.length)];
    value.put("customer", customer);
    String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
    value.put("country", country);
    String status = STATUSES[update ? 1 + random.nextInt(STATUSES.length - 1) : 0];
    value.put("status", status);
    String note = random.nextInt(10) < 3 ? null : "note " + random.nextInt(1_000);
    value.put("note", note);
    long ts = T0 + index * 1_000 + (update ? 60_000 : 0);
    value.put("ts", new Date(ts));
    String op = update ? "u" : "c";
    value.put("__op", op);
    inputBytes +=
        (id instanceof String s ? 1 + s.length() : varint(zigzag((Long) id)))
            + varint(quantity * 2L)
            + 8
            + 1
            + strings(customer, country, status)
            + 1
            + (note == null ? 0 : 1 + note.length())
            + varint(zigzag(ts))
            + 1
            + 2;
    int partition = (int) Math.floorMod(mix(index), (long) PARTITIONS);
    long offset = offsets[partition]++;
    return new SinkRecord(
        TOPIC,
        partition,
        valueSchema.field("id").schema(),
        id,
        valueSchema,
        value,
        offset,
        ts,
        TimestampType.CREATE_TIME);
  }

  private Object keyValue(long index) {
    return switch (kind) {
      case SEQUENTIAL -> index;
      case UUID -> new UUID(mix(index), mix(index ^ 0x5DEECE66DL)).toString();
      case RANDOM_LONG -> mix(index);
    };
  }

  /**
   * A bijection of longs that looks random (SplitMix64's finalizer): distinct keys stay distinct.
   */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  private static int varint(long value) {
    int bytes = 1;
    while ((value >>>= 7) != 0) {
      bytes++;
    }
    return bytes;
  }

  private static int strings(String... values) {
    int bytes = 0;
    for (String value : values) {
      bytes += 1 + value.length();
    }
    return bytes;
  }
}
