/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Converts values read by Avro's generic reader (without logical-type conversions) into the Connect
 * values of the schema {@link AvroToConnect} made: records → {@link Struct}; {@code Utf8} and enum
 * symbols → {@link String}; bytes and fixed → {@code byte[]}; decimals → {@link BigDecimal}; date,
 * time-millis, timestamp-millis and local-timestamp-millis → {@link java.util.Date}; the micro and
 * nano types → {@link Long}; maps → maps with {@link String} keys; a multi-branch union's value →
 * its union STRUCT with the written branch's field set.
 */
final class AvroToConnectValues {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private AvroToConnectValues() {}

  static Object convert(Schema avro, org.apache.kafka.connect.data.Schema connect, Object value) {
    if (value == null) {
      return null;
    }
    return switch (avro.getType()) {
      case UNION -> union(avro, connect, value);
      case RECORD -> record(avro, connect, (IndexedRecord) value);
      case ARRAY -> array(avro, connect, (Collection<?>) value);
      case MAP -> map(avro, connect, (Map<?, ?>) value);
      case STRING, ENUM -> value.toString();
      case BYTES -> bytes(connect, bytes((ByteBuffer) value));
      case FIXED -> bytes(connect, ((GenericFixed) value).bytes().clone());
      case INT -> integer(connect, (Integer) value);
      case LONG ->
          isNamed(connect, Timestamp.LOGICAL_NAME) ? new java.util.Date((Long) value) : value;
      case FLOAT, DOUBLE, BOOLEAN -> value;
      case NULL -> null;
    };
  }

  private static Object union(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Object value) {
    int index = GenericData.get().resolveUnion(avro, value);
    Schema branch = avro.getTypes().get(index);
    if (branch.getType() == Schema.Type.NULL) {
      return null;
    }
    if (!UnionBranches.isUnionStruct(connect)) {
      return convert(branch, connect, value);
    }
    int position = 0;
    for (int i = 0; i < index; i++) {
      if (avro.getTypes().get(i).getType() != Schema.Type.NULL) {
        position++;
      }
    }
    Field field = connect.fields().get(position);
    Struct struct = new Struct(connect);
    struct.put(field, convert(branch, field.schema(), value));
    return struct;
  }

  private static Struct record(
      Schema avro, org.apache.kafka.connect.data.Schema connect, IndexedRecord record) {
    Struct struct = new Struct(connect);
    List<Field> fields = connect.fields();
    for (Schema.Field field : avro.getFields()) {
      Field target = fields.get(field.pos());
      struct.put(target, convert(field.schema(), target.schema(), record.get(field.pos())));
    }
    return struct;
  }

  private static List<Object> array(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Collection<?> values) {
    List<Object> list = new ArrayList<>(values.size());
    for (Object element : values) {
      list.add(convert(avro.getElementType(), connect.valueSchema(), element));
    }
    return list;
  }

  private static Map<String, Object> map(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Map<?, ?> values) {
    Map<String, Object> map = new LinkedHashMap<>(values.size() * 2);
    for (Map.Entry<?, ?> entry : values.entrySet()) {
      map.put(
          entry.getKey().toString(),
          convert(avro.getValueType(), connect.valueSchema(), entry.getValue()));
    }
    return map;
  }

  private static Object bytes(org.apache.kafka.connect.data.Schema connect, byte[] bytes) {
    if (isNamed(connect, Decimal.LOGICAL_NAME)) {
      int scale = Integer.parseInt(connect.parameters().get(Decimal.SCALE_FIELD));
      return new BigDecimal(new BigInteger(bytes), scale);
    }
    return bytes;
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static Object integer(org.apache.kafka.connect.data.Schema connect, Integer value) {
    if (isNamed(connect, Date.LOGICAL_NAME)) {
      return new java.util.Date(value * MILLIS_PER_DAY);
    }
    if (isNamed(connect, Time.LOGICAL_NAME)) {
      return new java.util.Date(value);
    }
    return switch (connect.type()) {
      case INT8 -> (byte) inRange(value, Byte.MIN_VALUE, Byte.MAX_VALUE, "INT8");
      case INT16 -> (short) inRange(value, Short.MIN_VALUE, Short.MAX_VALUE, "INT16");
      default -> value;
    };
  }

  private static int inRange(int value, int min, int max, String type) {
    if (value < min || value > max) {
      throw new DataException("An Avro int out of range for Connect " + type);
    }
    return value;
  }

  private static boolean isNamed(org.apache.kafka.connect.data.Schema connect, String name) {
    return name.equals(connect.name());
  }
}
