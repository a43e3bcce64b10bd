/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.floe.connect.version.FloeVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.storage.HeaderConverter;

/**
 * Converter (and header converter) for JSON in the wire format of Connect's own {@code
 * org.apache.kafka.connect.json.JsonConverter}, with its keys ({@link JsonConverterConfig}): the
 * envelope {@code {"schema": ..., "payload": ...}} when {@code schemas.enable=true}, the value
 * alone when false. Each converter reads what the other writes.
 *
 * <p>What differs: it never changes a value to make it fit its schema. Where Connect's converter
 * would truncate or wrap a number ({@code 2^33+7} under {@code int32} arrives as 7), read a string
 * under a number or boolean schema as 0 or false, read a string under {@code string} from a number
 * as null, drop a struct field its schema lacks, keep one of two duplicate keys or ignore what
 * follows the JSON value, this converter throws a {@link DataException} naming the field path, what
 * was expected and the kind of value found (never the value), so Connect's error handling ({@code
 * errors.tolerance}, the dead-letter queue) deals with the record. It parses straight into Connect
 * values with a streaming parser, and caches the schemas it reads by their JSON text.
 */
public class JsonConverter implements Converter, HeaderConverter, Versioned {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
          .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
          .build();

  private JsonConverterConfig config;
  private String subject;
  private JsonValueReader reader;
  private JsonSchemaReader schemaReader;
  private SchemaTextCache schemasRead;
  private JsonValueWriter writer;
  private JsonSchemaWriter schemasWritten;
  private Schema fixedSchema;

  /** The size of the last message written: the first guess for the next one's buffer. */
  private int lastWritten = 192;

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public ConfigDef config() {
    return JsonConverterConfig.CONFIG_DEF;
  }

  @Override
  public void configure(Map<String, ?> configs) {
    JsonConverterConfig parsed = new JsonConverterConfig(configs);
    this.config = parsed;
    this.subject = subjectOf(parsed.type());
    this.reader = new JsonValueReader(parsed.replaceNullWithDefault());
    this.schemaReader = new JsonSchemaReader(reader);
    this.schemasRead = new SchemaTextCache(parsed.schemasCacheSize());
    this.writer = new JsonValueWriter(parsed.decimalFormat(), parsed.replaceNullWithDefault());
    this.schemasWritten = new JsonSchemaWriter(FACTORY, writer, parsed.schemasCacheSize());
    this.fixedSchema =
        parsed
            .schemaContent()
            .map(
                json -> {
                  try {
                    return schemaReader.read(json, 0, json.length);
                  } catch (DataException e) {
                    throw new ConfigException(
                        JsonConverterConfig.SCHEMA_CONTENT, "(not shown)", e.getMessage());
                  }
                })
            .orElse(null);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    Map<String, Object> withType = new java.util.HashMap<>(configs);
    withType.put(
        JsonConverterConfig.TYPE_CONFIG,
        isKey ? ConverterType.KEY.getName() : ConverterType.VALUE.getName());
    configure(withType);
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    if (schema == null && value == null) {
      return null;
    }
    JsonConverterConfig settings = configured();
    ByteArrayBuilder out = new ByteArrayBuilder(lastWritten + 64);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (settings.schemasEnabled()) {
        g.writeStartObject();
        g.writeFieldName("schema");
        if (schema == null) {
          g.writeNull();
        } else {
          g.writeRawValue(schemasWritten.json(schema));
        }
        g.writeFieldName("payload");
        writer.write(g, schema, value);
        g.writeEndObject();
      } else {
        writer.write(g, schema, value);
      }
    } catch (BadJson e) {
      throw e.toDataException(subject);
    } catch (IOException e) {
      throw new DataException(subject + " could not be written as JSON", e);
    }
    byte[] bytes = out.toByteArray();
    lastWritten = bytes.length;
    return bytes;
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    JsonConverterConfig settings = configured();
    if (settings.schemasEnabled() && fixedSchema == null) {
      SchemaAndValue read = envelopeOfLastSchema(value);
      if (read != null) {
        return read;
      }
    }
    try (JsonParser p = FACTORY.createParser(value)) {
      JsonToken first = p.nextToken();
      SchemaAndValue result;
      if (!settings.schemasEnabled()) {
        result = new SchemaAndValue(null, first == null ? null : reader.read(p, null));
      } else if (first == null) {
        throw new DataException(subject + " is empty: no JSON envelope");
      } else if (fixedSchema != null) {
        result = new SchemaAndValue(fixedSchema, reader.read(p, fixedSchema));
      } else {
        result = envelope(p, value, first);
      }
      if (p.nextToken() != null) {
        throw new DataException(subject + " has more after its JSON value" + at(p));
      }
      return result;
    } catch (BadJson e) {
      throw e.toDataException(subject);
    } catch (JsonProcessingException e) {
      throw new DataException(subject + " is not valid JSON" + at(e.getLocation()));
    } catch (IOException e) {
      throw new DataException(subject + " could not be read as JSON");
    }
  }

  /**
   * The envelope as both converters write it, {@code {"schema":S,"payload":P}}, when S is the text
   * of the last schema read: then only P is parsed. Null when the message is not of that form or
   * anything about it is wrong; the full reading then decides, and says what is wrong.
   */
  private SchemaAndValue envelopeOfLastSchema(byte[] value) {
    if (!startsWith(value, 0, SCHEMA_FIRST)) {
      return null;
    }
    SchemaTextCache.Entry last = schemasRead.lastAt(value, SCHEMA_FIRST.length);
    if (last == null) {
      return null;
    }
    int payload = SCHEMA_FIRST.length + last.length() + PAYLOAD_NEXT.length;
    if (!startsWith(value, payload - PAYLOAD_NEXT.length, PAYLOAD_NEXT)) {
      return null;
    }
    int end = value.length;
    while (end > payload && isWhitespace(value[end - 1])) {
      end--;
    }
    if (end <= payload || value[end - 1] != '}') {
      return null;
    }
    Schema schema = last.schema();
    try (JsonParser p = FACTORY.createParser(value, payload, end - 1 - payload)) {
      if (p.nextToken() == null) {
        return null;
      }
      Object read = reader.read(p, schema);
      return p.nextToken() == null ? new SchemaAndValue(schema, read) : null;
    } catch (BadJson | IOException e) {
      return null;
    }
  }

  private static final byte[] SCHEMA_FIRST = "{\"schema\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] PAYLOAD_NEXT = ",\"payload\":".getBytes(StandardCharsets.UTF_8);

  private static boolean startsWith(byte[] bytes, int from, byte[] prefix) {
    return from >= 0
        && from + prefix.length <= bytes.length
        && Arrays.equals(bytes, from, from + prefix.length, prefix, 0, prefix.length);
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t';
  }

  /** The envelope {@code {"schema": ..., "payload": ...}}, in either order. */
  private SchemaAndValue envelope(JsonParser p, byte[] bytes, JsonToken first) throws IOException {
    if (first != JsonToken.START_OBJECT) {
      throw notAnEnvelope();
    }
    boolean hasSchema = false;
    boolean hasPayload = false;
    boolean payloadFirst = false;
    Schema schema = null;
    Object payload = null;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken token = p.nextToken();
      if (!hasSchema && "schema".equals(name)) {
        hasSchema = true;
        schema = schema(p, bytes, token);
      } else if (!hasPayload && "payload".equals(name)) {
        hasPayload = true;
        if (hasSchema) {
          payload = reader.read(p, schema);
        } else {
          payloadFirst = true;
          p.skipChildren();
        }
      } else {
        throw notAnEnvelope();
      }
    }
    if (!hasSchema || !hasPayload) {
      throw notAnEnvelope();
    }
    if (payloadFirst) {
      payload = payloadAgain(bytes, schema);
    }
    return new SchemaAndValue(schema, payload);
  }

  private Schema schema(JsonParser p, byte[] bytes, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.START_OBJECT) {
      throw new DataException(subject + " has a schema that is not a JSON object");
    }
    int from = (int) p.currentTokenLocation().getByteOffset();
    p.skipChildren();
    int to = (int) p.currentLocation().getByteOffset();
    return schemasRead.get(bytes, from, to, schemaReader::read);
  }

  /** The payload of an envelope that has it before its schema, read once the schema is known. */
  private Object payloadAgain(byte[] bytes, Schema schema) throws IOException {
    try (JsonParser p = FACTORY.createParser(bytes)) {
      p.nextToken();
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        boolean payload = "payload".equals(p.currentName());
        p.nextToken();
        if (payload) {
          return reader.read(p, schema);
        }
        p.skipChildren();
      }
    }
    throw notAnEnvelope();
  }

  private DataException notAnEnvelope() {
    return new DataException(
        subject
            + " is not a JSON envelope: with schemas.enable=true each message must be an object"
            + " with exactly the fields \"schema\" and \"payload\". For plain JSON set"
            + " schemas.enable=false.");
  }

  @Override
  public byte[] fromConnectHeader(String topic, String headerKey, Schema schema, Object value) {
    return fromConnectData(topic, schema, value);
  }

  @Override
  public SchemaAndValue toConnectHeader(String topic, String headerKey, byte[] value) {
    return toConnectData(topic, value);
  }

  @Override
  public void close() {
    // nothing held: the caches go with the converter
  }

  private JsonConverterConfig configured() {
    if (config == null) {
      throw new IllegalStateException("The JSON converter is used before configure()");
    }
    return config;
  }

  private static String subjectOf(ConverterType type) {
    if (type == ConverterType.KEY) {
      return "The record's key";
    }
    return type == ConverterType.HEADER ? "The header" : "The record's value";
  }

  private static String at(JsonParser p) {
    return at(p.currentTokenLocation());
  }

  private static String at(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }
}
