/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.kafka.connect.errors.DataException;

/**
 * Record field defaults: read as JSON from Avro schemas (for the {@link
 * AvroParameters#FIELD_DEFAULT} parameter), and turned back into the values Avro's field
 * constructor takes. Bytes and fixed defaults are JSON strings of ISO-8859-1 characters, as the
 * Avro specification says.
 */
final class AvroDefaults {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AvroDefaults() {}

  /**
   * The defaults of a record's fields as written in the schema, by field position; null for a field
   * without one. Read from the schema's JSON, because {@link Schema.Field#defaultVal()} turns a
   * default that does not fit its type (which registries have accepted) into null.
   */
  static JsonNode[] fieldDefaults(Schema record) {
    JsonNode[] defaults = new JsonNode[record.getFields().size()];
    if (record.getFields().stream().noneMatch(Schema.Field::hasDefaultValue)) {
      return defaults;
    }
    JsonNode fields;
    try {
      fields = JSON.readTree(record.toString()).path("fields");
    } catch (JsonProcessingException e) {
      throw new DataException("Cannot read the defaults of Avro record " + record.getFullName(), e);
    }
    for (Schema.Field field : record.getFields()) {
      if (field.hasDefaultValue()) {
        defaults[field.pos()] = fields.path(field.pos()).path("default");
      }
    }
    return defaults;
  }

  /**
   * A default in JSON text as the value for Avro's field constructor.
   *
   * @throws DataException when the text is not JSON
   */
  static Object fromJson(String json) {
    try {
      return toJava(JSON.readTree(json));
    } catch (JsonProcessingException e) {
      throw new DataException(
          "The "
              + AvroParameters.FIELD_DEFAULT
              + " parameter is not JSON: "
              + e.getOriginalMessage());
    }
  }

  /** Whether a JSON default text fits a field type. */
  static boolean fits(Schema type, String json) {
    try {
      return type.isValidDefault(JSON.readTree(json));
    } catch (JsonProcessingException e) {
      throw new DataException(
          "The "
              + AvroParameters.FIELD_DEFAULT
              + " parameter is not JSON: "
              + e.getOriginalMessage());
    }
  }

  /**
   * A value of Avro's generic representation as the default for Avro's field constructor: bytes and
   * fixed as {@code byte[]}, enum symbols and strings as {@link String}.
   */
  static Object forField(Object value) {
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (value instanceof GenericFixed fixed) {
      return fixed.bytes().clone();
    }
    if (value instanceof GenericEnumSymbol<?> || value instanceof CharSequence) {
      return value.toString();
    }
    return value;
  }

  /** Whether a JSON default text is {@code null}. */
  static boolean isNull(String json) {
    return fromJson(json) == JsonProperties.NULL_VALUE;
  }

  private static Object toJava(JsonNode node) {
    if (node == null || node.isNull()) {
      return JsonProperties.NULL_VALUE;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> entry : node.properties()) {
        map.put(entry.getKey(), toJava(entry.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(element -> list.add(toJava(element)));
      return list;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToInt() ? (Object) node.intValue() : (Object) node.longValue();
    }
    return node.doubleValue();
  }
}
