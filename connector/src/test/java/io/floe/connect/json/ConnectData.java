/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Random Connect schemas of every type (logical types, optional fields, defaults, names, docs,
 * parameters, nested arrays, maps with string and other keys, structs) and values for them, with
 * nulls where the schema allows; every value one that JSON holds exactly (finite floating point).
 */
final class ConnectData {
  private final Random random;
  private int structs;

  ConnectData(long seed) {
    this.random = new Random(seed);
  }

  /** A struct of 1 to 8 fields, nested up to {@code depth} levels. */
  Schema struct(int depth) {
    SchemaBuilder builder = SchemaBuilder.struct().name("s" + structs++);
    if (random.nextInt(4) == 0) {
      builder.doc("a struct").version(1 + random.nextInt(3));
    }
    int fields = 1 + random.nextInt(8);
    for (int i = 0; i < fields; i++) {
      builder.field("f" + i, schema(depth - 1));
    }
    if (random.nextInt(3) == 0) {
      builder.optional();
    }
    return builder.build();
  }

  Schema schema(int depth) {
    int kinds = depth > 0 ? 17 : 13;
    switch (random.nextInt(kinds)) {
      case 0:
        return primitive(SchemaBuilder.int8(), (byte) random.nextInt());
      case 1:
        return primitive(SchemaBuilder.int16(), (short) random.nextInt());
      case 2:
        return primitive(SchemaBuilder.int32(), random.nextInt());
      case 3:
        return primitive(SchemaBuilder.int64(), random.nextLong());
      case 4:
        return primitive(SchemaBuilder.float32(), randomFloat());
      case 5:
        return primitive(SchemaBuilder.float64(), randomDouble());
      case 6:
        return primitive(SchemaBuilder.bool(), random.nextBoolean());
      case 7:
        return primitive(SchemaBuilder.string(), text());
      case 8:
        return optionally(SchemaBuilder.bytes());
      case 9:
        {
          SchemaBuilder decimal = Decimal.builder(random.nextInt(5));
          if (random.nextBoolean()) {
            decimal.parameter("connect.decimal.precision", "20");
          }
          return optionally(decimal);
        }
      case 10:
        return primitive(Date.builder(), new java.util.Date(86_400_000L * random.nextInt(30_000)));
      case 11:
        return optionally(Time.builder());
      case 12:
        return primitive(Timestamp.builder(), new java.util.Date(random.nextLong() >> 20));
      case 13:
        return optionally(SchemaBuilder.array(schema(depth - 1)));
      case 14:
        return optionally(SchemaBuilder.map(Schema.STRING_SCHEMA, schema(depth - 1)));
      case 15:
        return optionally(SchemaBuilder.map(keySchema(), schema(depth - 1)));
      default:
        return struct(depth);
    }
  }

  private Schema keySchema() {
    switch (random.nextInt(4)) {
      case 0:
        return Schema.INT32_SCHEMA;
      case 1:
        return Schema.INT64_SCHEMA;
      case 2:
        return Schema.BOOLEAN_SCHEMA;
      default:
        return Timestamp.SCHEMA;
    }
  }

  /** A primitive schema, optional or not, sometimes with a default and a name or parameters. */
  private Schema primitive(SchemaBuilder builder, Object defaultValue) {
    if (random.nextInt(4) == 0) {
      builder.defaultValue(defaultValue);
    }
    if (builder.name() == null && random.nextInt(6) == 0) {
      builder.name("n" + random.nextInt(100)).parameter("p", "v").doc("d");
    }
    return optionally(builder);
  }

  private Schema optionally(SchemaBuilder builder) {
    if (random.nextInt(3) == 0) {
      builder.optional();
    }
    return builder.build();
  }

  /** A value of {@code schema}; null where it is optional, now and then. */
  Object value(Schema schema) {
    if (schema.isOptional() && random.nextInt(schema.defaultValue() != null ? 3 : 5) == 0) {
      return null;
    }
    if (schema.name() != null) {
      switch (schema.name()) {
        case Decimal.LOGICAL_NAME:
          int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
          return new BigDecimal(BigInteger.valueOf(random.nextLong() >> random.nextInt(40)), scale);
        case Date.LOGICAL_NAME:
          return new java.util.Date(86_400_000L * (random.nextInt(40_000) - 20_000));
        case Time.LOGICAL_NAME:
          return new java.util.Date(random.nextInt(86_400_000));
        case Timestamp.LOGICAL_NAME:
          return new java.util.Date(random.nextLong() >> 18);
        default:
          break;
      }
    }
    switch (schema.type()) {
      case INT8:
        return (byte) random.nextInt();
      case INT16:
        return (short) random.nextInt();
      case INT32:
        return random.nextInt() >> random.nextInt(32);
      case INT64:
        return random.nextLong() >> random.nextInt(64);
      case FLOAT32:
        return randomFloat();
      case FLOAT64:
        return randomDouble();
      case BOOLEAN:
        return random.nextBoolean();
      case STRING:
        return text();
      case BYTES:
        {
          byte[] bytes = new byte[random.nextInt(20)];
          random.nextBytes(bytes);
          return bytes;
        }
      case ARRAY:
        {
          List<Object> list = new ArrayList<>();
          int n = random.nextInt(4);
          for (int i = 0; i < n; i++) {
            list.add(value(schema.valueSchema()));
          }
          return list;
        }
      case MAP:
        {
          Map<Object, Object> map = new LinkedHashMap<>();
          int n = random.nextInt(4);
          for (int i = 0; i < n; i++) {
            map.put(value(schema.keySchema()), value(schema.valueSchema()));
          }
          return map;
        }
      default:
        Struct struct = new Struct(schema);
        for (Field field : schema.fields()) {
          struct.put(field, value(field.schema()));
        }
        return struct;
    }
  }

  private float randomFloat() {
    switch (random.nextInt(4)) {
      case 0:
        return 0.0f;
      case 1:
        return random.nextInt(1000) / 8.0f;
      case 2:
        return Float.intBitsToFloat(
            random.nextInt() & 0x7effffff | (random.nextInt() & 0x80000000));
      default:
        return random.nextFloat() * 1e6f - 5e5f;
    }
  }

  private double randomDouble() {
    switch (random.nextInt(4)) {
      case 0:
        return 0.0;
      case 1:
        return random.nextInt(1000) / 16.0;
      case 2:
        return Double.longBitsToDouble(
            random.nextLong() & 0x7fefffffffffffffL | (random.nextLong() & Long.MIN_VALUE));
      default:
        return random.nextGaussian() * 1e9;
    }
  }

  private String text() {
    String[] samples = {"", "a", "Zürich", "\"quoted\"\n", "日本", "😀 emoji", "\u0000\u001f"};
    return samples[random.nextInt(samples.length)] + random.nextInt(1000);
  }

  /** A value with byte arrays as buffers, so that equal contents compare equal at any depth. */
  static Object comparable(Object value) {
    if (value instanceof byte[]) {
      return ByteBuffer.wrap((byte[]) value);
    }
    if (value instanceof Struct) {
      Struct struct = (Struct) value;
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("(schema)", struct.schema());
      for (Field field : struct.schema().fields()) {
        fields.put(field.name(), comparable(struct.getWithoutDefault(field.name())));
      }
      return fields;
    }
    if (value instanceof List) {
      List<Object> list = new ArrayList<>();
      for (Object element : (List<?>) value) {
        list.add(comparable(element));
      }
      return list;
    }
    if (value instanceof Map) {
      Map<Object, Object> map = new LinkedHashMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> map.put(comparable(k), comparable(v)));
      return map;
    }
    return value;
  }
}
