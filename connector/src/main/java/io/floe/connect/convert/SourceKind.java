/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * What a Connect schema means: its physical type, refined by the Connect and Debezium logical names
 * Floe understands. A logical name on the wrong physical type is an error rather than silently read
 * with the wrong unit.
 */
enum SourceKind {
  INT8,
  INT16,
  INT32,
  INT64,
  FLOAT32,
  FLOAT64,
  BOOLEAN,
  STRING,
  BYTES,
  STRUCT,
  ARRAY,
  MAP,
  /** Connect Decimal: BigDecimal with the scale of the schema's {@code scale} parameter. */
  DECIMAL,
  /** Connect Date: java.util.Date at midnight UTC. */
  DATE,
  /** Connect Time: java.util.Date, milliseconds since midnight. */
  TIME,
  /** Connect Timestamp: java.util.Date, milliseconds since the epoch. */
  TIMESTAMP,
  /** Debezium Date: INT32 days since the epoch. */
  EPOCH_DAYS,
  /** Debezium Time: INT32 milliseconds since midnight. */
  TIME_MILLIS,
  /** Debezium MicroTime: INT64 microseconds since midnight. */
  TIME_MICROS,
  /** Debezium NanoTime: INT64 nanoseconds since midnight. */
  TIME_NANOS,
  /** Debezium Timestamp: INT64 milliseconds since the epoch. */
  EPOCH_MILLIS,
  /** Debezium MicroTimestamp: INT64 microseconds since the epoch. */
  EPOCH_MICROS,
  /** Debezium NanoTimestamp: INT64 nanoseconds since the epoch. */
  EPOCH_NANOS,
  /** Debezium ZonedTimestamp: ISO-8601 string with an offset. */
  ZONED_TIMESTAMP,
  /** Debezium ZonedTime: ISO-8601 time string with an offset. */
  ZONED_TIME,
  /** A UUID string (Debezium Uuid or a name configured in the options). */
  UUID,
  /** Debezium VariableScaleDecimal: STRUCT {scale INT32, value BYTES}. */
  VARIABLE_SCALE_DECIMAL;

  static final String DBZ_DATE = "io.debezium.time.Date";
  static final String DBZ_TIME = "io.debezium.time.Time";
  static final String DBZ_MICRO_TIME = "io.debezium.time.MicroTime";
  static final String DBZ_NANO_TIME = "io.debezium.time.NanoTime";
  static final String DBZ_TIMESTAMP = "io.debezium.time.Timestamp";
  static final String DBZ_MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";
  static final String DBZ_NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";
  static final String DBZ_ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";
  static final String DBZ_ZONED_TIME = "io.debezium.time.ZonedTime";
  static final String DBZ_VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";

  /** Whether this is one of the time-of-day kinds, whatever its unit. */
  boolean isTimeOfDay() {
    return this == TIME || this == TIME_MILLIS || this == TIME_MICROS || this == TIME_NANOS;
  }

  /** Classifies {@code schema}; {@code path} names the field in errors. */
  static SourceKind of(Schema schema, String path, ConvertOptions options) {
    String name = schema.name();
    Schema.Type type = schema.type();
    if (name != null) {
      SourceKind logical = logical(name, type, path, schema, options);
      if (logical != null) {
        return logical;
      }
    }
    return physical(type);
  }

  private static SourceKind logical(
      String name, Schema.Type type, String path, Schema schema, ConvertOptions options) {
    switch (name) {
      case Decimal.LOGICAL_NAME:
        return expect(DECIMAL, Schema.Type.BYTES, type, path, schema);
      case Date.LOGICAL_NAME:
        return expect(DATE, Schema.Type.INT32, type, path, schema);
      case Time.LOGICAL_NAME:
        return expect(TIME, Schema.Type.INT32, type, path, schema);
      case Timestamp.LOGICAL_NAME:
        return expect(TIMESTAMP, Schema.Type.INT64, type, path, schema);
      case DBZ_DATE:
        return expect(EPOCH_DAYS, Schema.Type.INT32, type, path, schema);
      case DBZ_TIME:
        return expect(TIME_MILLIS, Schema.Type.INT32, type, path, schema);
      case DBZ_MICRO_TIME:
        return expect(TIME_MICROS, Schema.Type.INT64, type, path, schema);
      case DBZ_NANO_TIME:
        return expect(TIME_NANOS, Schema.Type.INT64, type, path, schema);
      case DBZ_TIMESTAMP:
        return expect(EPOCH_MILLIS, Schema.Type.INT64, type, path, schema);
      case DBZ_MICRO_TIMESTAMP:
        return expect(EPOCH_MICROS, Schema.Type.INT64, type, path, schema);
      case DBZ_NANO_TIMESTAMP:
        return expect(EPOCH_NANOS, Schema.Type.INT64, type, path, schema);
      case DBZ_ZONED_TIMESTAMP:
        return expect(ZONED_TIMESTAMP, Schema.Type.STRING, type, path, schema);
      case DBZ_ZONED_TIME:
        return expect(ZONED_TIME, Schema.Type.STRING, type, path, schema);
      case DBZ_VARIABLE_SCALE_DECIMAL:
        return expect(VARIABLE_SCALE_DECIMAL, Schema.Type.STRUCT, type, path, schema);
      default:
        if (options.uuidSchemaNames().contains(name)) {
          return expect(UUID, Schema.Type.STRING, type, path, schema);
        }
        return null;
    }
  }

  private static SourceKind expect(
      SourceKind kind, Schema.Type required, Schema.Type actual, String path, Schema schema) {
    if (actual != required) {
      throw new ConversionException(
          path,
          "logical type " + schema.name() + " on " + required,
          Paths.describe(schema),
          "the logical type does not fit its physical type");
    }
    return kind;
  }

  private static SourceKind physical(Schema.Type type) {
    return switch (type) {
      case INT8 -> INT8;
      case INT16 -> INT16;
      case INT32 -> INT32;
      case INT64 -> INT64;
      case FLOAT32 -> FLOAT32;
      case FLOAT64 -> FLOAT64;
      case BOOLEAN -> BOOLEAN;
      case STRING -> STRING;
      case BYTES -> BYTES;
      case STRUCT -> STRUCT;
      case ARRAY -> ARRAY;
      case MAP -> MAP;
    };
  }
}
