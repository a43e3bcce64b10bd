/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Writes a Connect schema in the JSON form of Connect's converter, attribute for attribute in the
 * same order, and keeps the text of the most recently used schemas (by the schema's equality, the
 * same instance first), so a record's schema is written once and copied after.
 */
final class JsonSchemaWriter {
  private final JsonFactory factory;
  private final JsonValueWriter values;
  private final Map<Schema, SerializedString> cache;
  private volatile Cached last;

  private record Cached(Schema schema, SerializedString json) {}

  JsonSchemaWriter(JsonFactory factory, JsonValueWriter values, int capacity) {
    this.factory = factory;
    this.values = values;
    this.cache = new LruMap<>(capacity);
  }

  /** The schema's JSON text, ready to be copied into a message. */
  SerializedString json(Schema schema) {
    Cached hit = last;
    if (hit != null && hit.schema == schema) {
      return hit.json;
    }
    SerializedString json;
    synchronized (cache) {
      json = cache.get(schema);
      if (json == null) {
        json = new SerializedString(text(schema));
        cache.put(schema, json);
      }
    }
    last = new Cached(schema, json);
    return json;
  }

  /** The text as the UTF-8 generator writes it (characters beyond the BMP escaped, as values). */
  private String text(Schema schema) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = factory.createGenerator(out)) {
      write(g, schema, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }

  private void write(JsonGenerator g, Schema schema, String fieldName) throws IOException {
    g.writeStartObject();
    g.writeStringField("type", typeName(schema.type()));
    switch (schema.type()) {
      case ARRAY:
        g.writeFieldName("items");
        write(g, schema.valueSchema(), null);
        break;
      case MAP:
        g.writeFieldName("keys");
        write(g, schema.keySchema(), null);
        g.writeFieldName("values");
        write(g, schema.valueSchema(), null);
        break;
      case STRUCT:
        g.writeArrayFieldStart("fields");
        for (Field field : schema.fields()) {
          try {
            write(g, field.schema(), field.name());
          } catch (BadJson e) {
            throw e.inField(field.name());
          }
        }
        g.writeEndArray();
        break;
      default:
        break;
    }
    g.writeBooleanField("optional", schema.isOptional());
    if (schema.name() != null) {
      g.writeStringField("name", schema.name());
    }
    if (schema.version() != null) {
      g.writeNumberField("version", schema.version());
    }
    if (schema.doc() != null) {
      g.writeStringField("doc", schema.doc());
    }
    if (schema.parameters() != null) {
      g.writeObjectFieldStart("parameters");
      for (Map.Entry<String, String> parameter : schema.parameters().entrySet()) {
        g.writeStringField(parameter.getKey(), parameter.getValue());
      }
      g.writeEndObject();
    }
    if (schema.defaultValue() != null) {
      g.writeFieldName("default");
      try {
        values.write(g, schema, schema.defaultValue());
      } catch (BadJson e) {
        throw new BadJson("has a default that does not fit: " + e.problem());
      }
    }
    if (fieldName != null) {
      g.writeStringField("field", fieldName);
    }
    g.writeEndObject();
  }

  private static String typeName(Schema.Type type) {
    switch (type) {
      case FLOAT32:
        return "float";
      case FLOAT64:
        return "double";
      default:
        return type.getName();
    }
  }
}
