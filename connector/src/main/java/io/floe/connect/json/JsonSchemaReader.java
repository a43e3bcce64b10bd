/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.SchemaBuilderException;

/**
 * Reads a schema in the JSON form of Connect's converter ({@code type}, {@code optional}, {@code
 * name}, {@code version}, {@code doc}, {@code parameters}, {@code default}, and {@code items},
 * {@code keys}/{@code values}, {@code fields} with each field's {@code field} name) into a Connect
 * schema. Runs once per distinct schema text (the converter caches the result), so it reads a tree.
 * An attribute of the wrong JSON type is an error, where Connect's converter would ignore it (a
 * field would turn required, a name or a version be lost).
 */
final class JsonSchemaReader {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final JsonValueReader values;

  JsonSchemaReader(JsonValueReader values) {
    this.values = values;
  }

  /** The schema in {@code json[from, to)}, or null for JSON {@code null}. */
  Schema read(byte[] json, int from, int to) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json, from, to - from);
    } catch (IOException e) {
      throw new DataException("The record's schema is not valid JSON");
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    try {
      return schema(node);
    } catch (BadJson e) {
      throw e.toDataException("The record's schema");
    } catch (SchemaBuilderException e) {
      throw new DataException("The record's schema is invalid: " + e.getMessage());
    }
  }

  private Schema schema(JsonNode node) {
    if (!node.isObject()) {
      throw new BadJson("is not a JSON object");
    }
    JsonNode type = node.get("type");
    if (type == null || !type.isTextual()) {
      throw new BadJson("has no \"type\" string");
    }
    SchemaBuilder builder = builder(node, type.textValue());
    JsonNode optional = node.get("optional");
    if (optional != null && !optional.isNull() && !optional.isBoolean()) {
      throw new BadJson("has an \"optional\" that is not a boolean");
    }
    if (optional != null && optional.booleanValue()) {
      builder.optional();
    }
    String name = text(node, "name");
    if (name != null) {
      builder.name(name);
    }
    JsonNode version = node.get("version");
    if (version != null && !version.isNull()) {
      if (!version.isInt()) {
        throw new BadJson("has a \"version\" that is not an int32");
      }
      builder.version(version.intValue());
    }
    String doc = text(node, "doc");
    if (doc != null) {
      builder.doc(doc);
    }
    JsonNode parameters = node.get("parameters");
    if (parameters != null && !parameters.isNull()) {
      if (!parameters.isObject()) {
        throw new BadJson("has \"parameters\" that are not an object");
      }
      for (Map.Entry<String, JsonNode> entry : parameters.properties()) {
        if (!entry.getValue().isTextual()) {
          throw new BadJson("has a parameter whose value is not a string").inField(entry.getKey());
        }
        builder.parameter(entry.getKey(), entry.getValue().textValue());
      }
    }
    JsonNode defaultValue = node.get("default");
    if (defaultValue != null) {
      builder.defaultValue(defaultOf(builder, defaultValue));
    }
    return builder.build();
  }

  private SchemaBuilder builder(JsonNode node, String type) {
    switch (type) {
      case "boolean":
        return SchemaBuilder.bool();
      case "int8":
        return SchemaBuilder.int8();
      case "int16":
        return SchemaBuilder.int16();
      case "int32":
        return SchemaBuilder.int32();
      case "int64":
        return SchemaBuilder.int64();
      case "float":
        return SchemaBuilder.float32();
      case "double":
        return SchemaBuilder.float64();
      case "bytes":
        return SchemaBuilder.bytes();
      case "string":
        return SchemaBuilder.string();
      case "array":
        return SchemaBuilder.array(part(node, "items", "an array"));
      case "map":
        return SchemaBuilder.map(part(node, "keys", "a map"), part(node, "values", "a map"));
      case "struct":
        {
          JsonNode fields = node.get("fields");
          if (fields == null || !fields.isArray()) {
            throw new BadJson("is a struct without a \"fields\" array");
          }
          SchemaBuilder struct = SchemaBuilder.struct();
          for (JsonNode field : fields) {
            JsonNode name = field.get("field");
            if (name == null || !name.isTextual()) {
              throw new BadJson("has a struct field without a \"field\" name");
            }
            try {
              struct.field(name.textValue(), schema(field));
            } catch (BadJson e) {
              throw e.inField(name.textValue());
            }
          }
          return struct;
        }
      default:
        throw new BadJson("has an unknown type (not a Connect schema type)");
    }
  }

  private Schema part(JsonNode node, String key, String what) {
    JsonNode part = node.get(key);
    if (part == null || part.isNull()) {
      throw new BadJson("is " + what + " without \"" + key + "\"");
    }
    try {
      return schema(part);
    } catch (BadJson e) {
      throw e.inStep("{" + key + "}");
    }
  }

  private Object defaultOf(SchemaBuilder builder, JsonNode node) {
    try (JsonParser parser = node.traverse(MAPPER)) {
      parser.nextToken();
      return values.read(parser, builder);
    } catch (BadJson e) {
      throw new BadJson(
          "has a default that does not fit"
              + (e.path().isEmpty() ? "" : " (at " + e.path() + ")")
              + ": "
              + e.problem());
    } catch (IOException e) {
      throw new BadJson("has a default that cannot be read");
    }
  }

  private static String text(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new BadJson("has a \"" + key + "\" that is not a string");
    }
    return value.textValue();
  }
}
