/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.cdc.KeyBytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * A row of a key schema (Iceberg's generic values) as bytes, and back, exactly: the upsert fold
 * keeps each key's converted form this way until the hand-over writes the key file. A value of a
 * type no key column holds fails loudly rather than being kept in another form.
 */
final class KeyRecordBytes {
  private static final int NULL = 0;
  private static final int INT = 1;
  private static final int LONG = 2;
  private static final int FLOAT = 3;
  private static final int DOUBLE = 4;
  private static final int TRUE = 5;
  private static final int FALSE = 6;
  private static final int STRING = 7;
  private static final int DATE = 8;
  private static final int TIME = 9;
  private static final int TIMESTAMP = 10;
  private static final int TIMESTAMPTZ = 11;
  private static final int UUID_VALUE = 12;
  private static final int BINARY = 13;
  private static final int FIXED = 14;
  private static final int DECIMAL = 15;
  private static final int STRUCT = 16;

  private KeyRecordBytes() {}

  static void write(Record key, KeyBytes.Writer out) {
    List<Types.NestedField> fields = key.struct().fields();
    out.putVarint(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      writeValue(key.get(i), out);
    }
  }

  private static void writeValue(Object value, KeyBytes.Writer out) {
    if (value == null) {
      out.put(NULL);
    } else if (value instanceof Integer i) {
      out.put(INT);
      out.putLong(i);
    } else if (value instanceof Long l) {
      out.put(LONG);
      out.putLong(l);
    } else if (value instanceof Float f) {
      out.put(FLOAT);
      out.putLong(Float.floatToRawIntBits(f));
    } else if (value instanceof Double d) {
      out.put(DOUBLE);
      out.putLong(Double.doubleToRawLongBits(d));
    } else if (value instanceof Boolean b) {
      out.put(b ? TRUE : FALSE);
    } else if (value instanceof CharSequence chars) {
      out.put(STRING);
      out.putChars(chars);
    } else if (value instanceof LocalDate date) {
      out.put(DATE);
      out.putLong(date.toEpochDay());
    } else if (value instanceof LocalTime time) {
      out.put(TIME);
      out.putLong(time.toNanoOfDay());
    } else if (value instanceof LocalDateTime timestamp) {
      out.put(TIMESTAMP);
      out.putLong(timestamp.toEpochSecond(ZoneOffset.UTC));
      out.putVarint(timestamp.getNano());
    } else if (value instanceof OffsetDateTime timestamp) {
      out.put(TIMESTAMPTZ);
      out.putLong(timestamp.toEpochSecond());
      out.putVarint(timestamp.getNano());
      out.putLong(timestamp.getOffset().getTotalSeconds());
    } else if (value instanceof UUID uuid) {
      out.put(UUID_VALUE);
      out.putLong(uuid.getMostSignificantBits());
      out.putLong(uuid.getLeastSignificantBits());
    } else if (value instanceof ByteBuffer buffer) {
      out.put(BINARY);
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      out.putBytes(bytes);
    } else if (value instanceof byte[] bytes) {
      out.put(FIXED);
      out.putBytes(bytes);
    } else if (value instanceof BigDecimal decimal) {
      out.put(DECIMAL);
      out.putVarint(decimal.scale() & 0xFFFFFFFFL);
      out.putBytes(decimal.unscaledValue().toByteArray());
    } else if (value instanceof Record struct) {
      out.put(STRUCT);
      write(struct, out);
    } else {
      throw new IllegalArgumentException(
          "A key column holds a value of a type a key cannot have: " + value.getClass().getName());
    }
  }

  /** Reads a key of {@code type} that {@link #write} wrote. */
  static Record read(Types.StructType type, KeyBytes.Reader in) {
    GenericRecord key = GenericRecord.create(type);
    int size = (int) in.getVarint();
    List<Types.NestedField> fields = type.fields();
    if (size != fields.size()) {
      throw new IllegalStateException(
          "a folded key has " + size + " values for " + fields.size() + " key columns");
    }
    for (int i = 0; i < size; i++) {
      Types.NestedField field = fields.get(i);
      key.set(i, readValue(field.type().isStructType() ? field.type().asStructType() : null, in));
    }
    return key;
  }

  private static Object readValue(Types.StructType structType, KeyBytes.Reader in) {
    int tag = in.get();
    return switch (tag) {
      case NULL -> null;
      case INT -> (int) in.getLong();
      case LONG -> in.getLong();
      case FLOAT -> Float.intBitsToFloat((int) in.getLong());
      case DOUBLE -> Double.longBitsToDouble(in.getLong());
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case STRING -> in.getChars();
      case DATE -> LocalDate.ofEpochDay(in.getLong());
      case TIME -> LocalTime.ofNanoOfDay(in.getLong());
      case TIMESTAMP ->
          LocalDateTime.ofEpochSecond(in.getLong(), (int) in.getVarint(), ZoneOffset.UTC);
      case TIMESTAMPTZ -> {
        long seconds = in.getLong();
        int nanos = (int) in.getVarint();
        ZoneOffset offset = ZoneOffset.ofTotalSeconds((int) in.getLong());
        yield OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(seconds, nanos), offset);
      }
      case UUID_VALUE -> new UUID(in.getLong(), in.getLong());
      case BINARY -> ByteBuffer.wrap(in.getBytes());
      case FIXED -> in.getBytes();
      case DECIMAL -> {
        int scale = (int) in.getVarint();
        yield new BigDecimal(new BigInteger(in.getBytes()), scale);
      }
      case STRUCT -> {
        if (structType == null) {
          throw new IllegalStateException("a folded key holds a struct where its column has none");
        }
        yield read(structType, in);
      }
      default -> throw new IllegalStateException("a folded key holds an unknown tag " + tag);
    };
  }
}
