/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/** Records as Debezium's PostgreSQL connector and its transforms write them, for the tests. */
final class CdcRecords {
  static final String TOPIC = "pg.inventory.customers";
  static final int PARTITION = 2;

  static final Schema KEY =
      SchemaBuilder.struct()
          .name("pg.inventory.customers.Key")
          .field("id", Schema.INT32_SCHEMA)
          .build();
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("pg.inventory.customers.Address")
          .optional()
          .field("street", Schema.OPTIONAL_STRING_SCHEMA)
          .field("city", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  static final Schema ROW =
      SchemaBuilder.struct()
          .name("pg.inventory.customers.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("photo", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("address", ADDRESS)
          .build();
  static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.postgresql.Source")
          .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
          .field("table", Schema.STRING_SCHEMA)
          .build();
  static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("pg.inventory.customers.Envelope")
          .version(2)
          .field("before", ROW)
          .field("after", ROW)
          .field("source", SOURCE)
          .field("op", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .build();
  static final Schema FLAT =
      SchemaBuilder.struct()
          .name("pg.inventory.customers.Value")
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("__op", Schema.OPTIONAL_STRING_SCHEMA)
          .field("__source_ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .field("__deleted", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  private CdcRecords() {}

  static Struct key(int id) {
    return new Struct(KEY).put("id", id);
  }

  static Struct row(int id, String name) {
    return new Struct(ROW).put("id", id).put("name", name);
  }

  static Struct envelope(String op, Struct before, Struct after) {
    Struct source = new Struct(SOURCE).put("lsn", 100L).put("table", "customers");
    return new Struct(ENVELOPE)
        .put("before", before)
        .put("after", after)
        .put("source", source)
        .put("op", op)
        .put("ts_ms", 1_700_000_000_000L);
  }

  /** A flattened row; {@code op} and {@code deleted} null leave the marker unset. */
  static Struct flat(int id, String name, String op, String deleted) {
    return new Struct(FLAT)
        .put("id", id)
        .put("name", name)
        .put("__op", op)
        .put("__source_ts_ms", 1_700_000_000_000L)
        .put("__deleted", deleted);
  }

  static SinkRecord record(long offset, Object key, Object value) {
    return record(offset, key, value, new ConnectHeaders());
  }

  static SinkRecord record(long offset, Object key, Object value, ConnectHeaders headers) {
    Schema keySchema = key instanceof Struct struct ? struct.schema() : null;
    Schema valueSchema = value instanceof Struct struct ? struct.schema() : null;
    return new SinkRecord(
        TOPIC,
        PARTITION,
        keySchema,
        key,
        valueSchema,
        value,
        offset,
        1_700_000_000_123L,
        TimestampType.CREATE_TIME,
        headers);
  }

  static SinkRecord tombstone(long offset, int id) {
    return new SinkRecord(TOPIC, PARTITION, KEY, key(id), null, null, offset);
  }
}
