/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.floe.connect.json.JsonConverterConfig.DecimalFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Writes a Connect value as JSON the way Connect's converter does (same text, so each converter
 * reads what the other wrote): decimals as base64 or numbers, dates and times as their integers,
 * maps with string keys as objects and other maps as arrays of [key, value] pairs, non-finite
 * floating-point values as the strings {@code NaN}, {@code Infinity}, {@code -Infinity}. A value
 * that does not fit its schema, or a map key that is null, throws {@link BadJson}; a byte buffer is
 * written from its position to its limit.
 */
final class JsonValueWriter {
  private final DecimalFormat decimalFormat;
  private final boolean replaceNullWithDefault;

  JsonValueWriter(DecimalFormat decimalFormat, boolean replaceNullWithDefault) {
    this.decimalFormat = decimalFormat;
    this.replaceNullWithDefault = replaceNullWithDefault;
  }

  void write(JsonGenerator g, Schema schema, Object value) throws IOException {
    if (value == null) {
      if (schema == null) {
        g.writeNull();
      } else if (replaceNullWithDefault && schema.defaultValue() != null) {
        write(g, schema, schema.defaultValue());
      } else if (schema.isOptional()) {
        g.writeNull();
      } else {
        throw new BadJson("null for a required " + schema.type().getName() + " without default");
      }
      return;
    }
    if (schema != null && schema.name() != null && logical(g, schema, value)) {
      return;
    }
    Schema.Type type = schema == null ? ConnectSchema.schemaType(value.getClass()) : schema.type();
    if (type == null) {
      throw new BadJson("has a Java class that has no Connect schema type: " + className(value));
    }
    switch (type) {
      case INT8:
        g.writeNumber(as(Byte.class, value, type));
        break;
      case INT16:
        g.writeNumber(as(Short.class, value, type));
        break;
      case INT32:
        g.writeNumber(as(Integer.class, value, type));
        break;
      case INT64:
        g.writeNumber(as(Long.class, value, type));
        break;
      case FLOAT32:
        g.writeNumber(as(Float.class, value, type));
        break;
      case FLOAT64:
        g.writeNumber(as(Double.class, value, type));
        break;
      case BOOLEAN:
        g.writeBoolean(as(Boolean.class, value, type));
        break;
      case STRING:
        g.writeString(as(CharSequence.class, value, type).toString());
        break;
      case BYTES:
        writeBytes(g, value);
        break;
      case ARRAY:
        writeArray(g, schema == null ? null : schema.valueSchema(), value);
        break;
      case MAP:
        writeMap(g, schema, as(Map.class, value, type));
        break;
      case STRUCT:
        writeStruct(g, schema, as(Struct.class, value, type));
        break;
      default:
        throw new BadJson("has a schema of type " + type + ", which JSON cannot hold");
    }
  }

  private boolean logical(JsonGenerator g, Schema schema, Object value) throws IOException {
    try {
      switch (schema.name()) {
        case Decimal.LOGICAL_NAME:
          BigDecimal decimal = as(BigDecimal.class, value, "Decimal");
          if (decimalFormat == DecimalFormat.NUMERIC) {
            g.writeNumber(decimal);
          } else {
            g.writeBinary(Decimal.fromLogical(schema, decimal));
          }
          return true;
        case Date.LOGICAL_NAME:
          g.writeNumber(Date.fromLogical(schema, as(java.util.Date.class, value, "Date")));
          return true;
        case Time.LOGICAL_NAME:
          g.writeNumber(Time.fromLogical(schema, as(java.util.Date.class, value, "Time")));
          return true;
        case Timestamp.LOGICAL_NAME:
          g.writeNumber(
              Timestamp.fromLogical(schema, as(java.util.Date.class, value, "Timestamp")));
          return true;
        default:
          return false;
      }
    } catch (DataException e) {
      throw new BadJson("does not fit its " + schema.name() + " schema: " + e.getMessage());
    }
  }

  private static void writeBytes(JsonGenerator g, Object value) throws IOException {
    if (value instanceof byte[]) {
      byte[] bytes = (byte[]) value;
      g.writeBinary(bytes, 0, bytes.length);
    } else if (value instanceof ByteBuffer) {
      ByteBuffer buffer = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      g.writeBinary(bytes, 0, bytes.length);
    } else {
      throw new BadJson("expected bytes (byte[] or ByteBuffer), got " + className(value));
    }
  }

  private void writeArray(JsonGenerator g, Schema elements, Object value) throws IOException {
    Collection<?> collection = as(Collection.class, value, Schema.Type.ARRAY);
    g.writeStartArray();
    try {
      for (Object element : collection) {
        write(g, elements, element);
      }
    } catch (BadJson e) {
      throw e.inStep("[]");
    }
    g.writeEndArray();
  }

  private void writeMap(JsonGenerator g, Schema schema, Map<?, ?> map) throws IOException {
    Schema keys = schema == null ? null : schema.keySchema();
    Schema values = schema == null ? null : schema.valueSchema();
    boolean objectForm = schema == null ? allStringKeys(map) : keys.type() == Schema.Type.STRING;
    if (objectForm) {
      g.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (entry.getKey() == null) {
          throw new BadJson("has a null key (it would be written as the string \"null\")")
              .inStep("{key}");
        }
        g.writeFieldName(as(CharSequence.class, entry.getKey(), Schema.Type.STRING).toString());
        try {
          write(g, values, entry.getValue());
        } catch (BadJson e) {
          throw e.inStep("{value}");
        }
      }
      g.writeEndObject();
      return;
    }
    g.writeStartArray();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      g.writeStartArray();
      try {
        write(g, keys, entry.getKey());
      } catch (BadJson e) {
        throw e.inStep("{key}");
      }
      try {
        write(g, values, entry.getValue());
      } catch (BadJson e) {
        throw e.inStep("{value}");
      }
      g.writeEndArray();
    }
    g.writeEndArray();
  }

  private static boolean allStringKeys(Map<?, ?> map) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return false;
      }
    }
    return true;
  }

  private void writeStruct(JsonGenerator g, Schema schema, Struct struct) throws IOException {
    if (schema == null || (struct.schema() != schema && !struct.schema().equals(schema))) {
      throw new BadJson("is a struct whose schema is not the schema given for it");
    }
    g.writeStartObject();
    for (Field field : schema.fields()) {
      g.writeFieldName(field.name());
      try {
        write(g, field.schema(), struct.getWithoutDefault(field.name()));
      } catch (BadJson e) {
        throw e.inField(field.name());
      }
    }
    g.writeEndObject();
  }

  private static <T> T as(Class<T> type, Object value, Object expected) {
    if (!type.isInstance(value)) {
      throw new BadJson("expected " + expected + ", got a Java " + className(value));
    }
    return type.cast(value);
  }

  private static String className(Object value) {
    return value.getClass().getName();
  }
}
