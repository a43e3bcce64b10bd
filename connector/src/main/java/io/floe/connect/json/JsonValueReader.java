/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonParser.NumberType;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Reads one JSON value from a streaming parser straight into its Connect value, as Connect's JSON
 * converter encodes each type, with no tree in between. Where Connect's converter would change the
 * value to make it fit (truncate a number, wrap one too large, read a string as 0, drop a field or
 * a duplicate key), this throws {@link BadJson} instead. The parser must stand on the value's first
 * token; it is left on its last.
 */
final class JsonValueReader {
  private static final int MILLIS_PER_DAY = 24 * 60 * 60 * 1000;

  private final boolean replaceNullWithDefault;

  JsonValueReader(boolean replaceNullWithDefault) {
    this.replaceNullWithDefault = replaceNullWithDefault;
  }

  /** The value under {@code schema}, or as Connect reads JSON without a schema when it is null. */
  Object read(JsonParser p, Schema schema) throws IOException {
    JsonToken token = p.currentToken();
    if (schema == null) {
      return schemaless(p, token);
    }
    if (token == JsonToken.VALUE_NULL) {
      return nullFor(schema);
    }
    String logical = schema.name();
    if (logical != null) {
      switch (logical) {
        case Decimal.LOGICAL_NAME:
          return decimal(p, token, schema);
        case Date.LOGICAL_NAME:
          return Date.toLogical(schema, intToken(p, token, "a Date (days since the epoch)"));
        case Time.LOGICAL_NAME:
          int millis = intToken(p, token, "a Time (milliseconds since midnight)");
          if (millis < 0 || millis > MILLIS_PER_DAY) {
            throw new BadJson(
                "expected a Time (milliseconds since midnight), got one out of a day");
          }
          return Time.toLogical(schema, millis);
        case Timestamp.LOGICAL_NAME:
          return Timestamp.toLogical(schema, timestamp(p, token));
        default:
          break;
      }
    }
    switch (schema.type()) {
      case BOOLEAN:
        if (token == JsonToken.VALUE_TRUE) {
          return Boolean.TRUE;
        }
        if (token == JsonToken.VALUE_FALSE) {
          return Boolean.FALSE;
        }
        throw expected("a boolean", token);
      case INT8:
        return (byte) integer(p, token, Byte.MIN_VALUE, Byte.MAX_VALUE, "int8");
      case INT16:
        return (short) integer(p, token, Short.MIN_VALUE, Short.MAX_VALUE, "int16");
      case INT32:
        return (int) integer(p, token, Integer.MIN_VALUE, Integer.MAX_VALUE, "int32");
      case INT64:
        return integer(p, token, Long.MIN_VALUE, Long.MAX_VALUE, "int64");
      case FLOAT32:
        return float32(p, token);
      case FLOAT64:
        return float64(p, token);
      case STRING:
        if (token != JsonToken.VALUE_STRING) {
          throw expected("a string", token);
        }
        return p.getText();
      case BYTES:
        return bytes(p, token, "bytes (base64)");
      case ARRAY:
        return array(p, token, schema.valueSchema());
      case MAP:
        return schema.keySchema().type() == Schema.Type.STRING
            ? objectMap(p, token, schema.valueSchema())
            : pairMap(p, token, schema.keySchema(), schema.valueSchema());
      case STRUCT:
        return struct(p, token, schema);
      default:
        throw new BadJson("has a schema of type " + schema.type() + ", which JSON cannot hold");
    }
  }

  /** A null, or a missing field: the default, null if optional, else an error. */
  Object nullFor(Schema schema) {
    if (replaceNullWithDefault && schema.defaultValue() != null) {
      return schema.defaultValue();
    }
    if (schema.isOptional()) {
      return null;
    }
    throw new BadJson("expected " + describe(schema) + ", got null, and the field is required");
  }

  private Struct struct(JsonParser p, JsonToken token, Schema schema) throws IOException {
    if (token != JsonToken.START_OBJECT) {
      throw expected("a struct (a JSON object)", token);
    }
    Struct struct = new Struct(schema.schema());
    List<Field> fields = schema.fields();
    FieldsSeen seen = new FieldsSeen(fields.size());
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      Field field = schema.field(name);
      if (field == null) {
        throw new BadJson("is not a field of the struct's schema (it would be dropped)")
            .inField(name);
      }
      if (!seen.add(field.index())) {
        throw new BadJson("appears twice in the object (one value would be dropped)").inField(name);
      }
      p.nextToken();
      Object value;
      try {
        value = read(p, field.schema());
      } catch (BadJson e) {
        throw e.inField(name);
      }
      if (value != null) {
        struct.put(field, value);
      }
    }
    if (!seen.all()) {
      for (Field field : fields) {
        if (!seen.has(field.index())) {
          try {
            Object value = nullFor(field.schema());
            if (value != null) {
              struct.put(field, value);
            }
          } catch (BadJson e) {
            throw e.inField(field.name());
          }
        }
      }
    }
    return struct;
  }

  /** The fields of a struct read so far: bits of a long up to 64 fields, else an array. */
  private static final class FieldsSeen {
    private final int size;
    private final boolean[] many;
    private long bits;
    private int count;

    FieldsSeen(int size) {
      this.size = size;
      this.many = size > 64 ? new boolean[size] : null;
    }

    /** Marks the field; false if it was marked before. */
    boolean add(int index) {
      if (many != null) {
        if (many[index]) {
          return false;
        }
        many[index] = true;
      } else {
        long bit = 1L << index;
        if ((bits & bit) != 0) {
          return false;
        }
        bits |= bit;
      }
      count++;
      return true;
    }

    boolean has(int index) {
      return many != null ? many[index] : (bits & (1L << index)) != 0;
    }

    boolean all() {
      return count == size;
    }
  }

  private List<Object> array(JsonParser p, JsonToken token, Schema elements) throws IOException {
    if (token != JsonToken.START_ARRAY) {
      throw expected("an array", token);
    }
    List<Object> list = new ArrayList<>();
    try {
      while (p.nextToken() != JsonToken.END_ARRAY) {
        list.add(read(p, elements));
      }
    } catch (BadJson e) {
      throw e.inStep("[]");
    }
    return list;
  }

  /** A map with string keys: a JSON object. */
  private Map<Object, Object> objectMap(JsonParser p, JsonToken token, Schema values)
      throws IOException {
    if (token != JsonToken.START_OBJECT) {
      throw expected("a map with string keys (a JSON object)", token);
    }
    Map<Object, Object> map = new HashMap<>();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String key = p.currentName();
      p.nextToken();
      int size = map.size();
      try {
        map.put(key, read(p, values));
      } catch (BadJson e) {
        throw e.inStep("{value}");
      }
      if (map.size() == size) {
        throw new BadJson("has a key twice (one value would be dropped)").inStep("{key}");
      }
    }
    return map;
  }

  /** A map with keys of another type: a JSON array of [key, value] arrays. */
  private Map<Object, Object> pairMap(JsonParser p, JsonToken token, Schema keys, Schema values)
      throws IOException {
    if (token != JsonToken.START_ARRAY) {
      throw expected("a map with non-string keys (an array of [key, value] arrays)", token);
    }
    Map<Object, Object> map = new HashMap<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t != JsonToken.START_ARRAY) {
        throw expected("a map entry (a [key, value] array)", t).inStep("[]");
      }
      Object key;
      try {
        key = read(pairElement(p), keys);
      } catch (BadJson e) {
        throw e.inStep("{key}");
      }
      if (map.containsKey(key)) {
        throw new BadJson("has a key twice (one value would be dropped)").inStep("{key}");
      }
      try {
        map.put(key, read(pairElement(p), values));
      } catch (BadJson e) {
        throw e.inStep("{value}");
      }
      if (p.nextToken() != JsonToken.END_ARRAY) {
        throw new BadJson("has a map entry of more than two elements").inStep("[]");
      }
    }
    return map;
  }

  private static JsonParser pairElement(JsonParser p) throws IOException {
    if (p.nextToken() == JsonToken.END_ARRAY) {
      throw new BadJson("has a map entry of fewer than two elements").inStep("[]");
    }
    return p;
  }

  /** JSON read without a schema, as Connect does: objects are maps, numbers int64 or float64. */
  private Object schemaless(JsonParser p, JsonToken token) throws IOException {
    switch (token) {
      case VALUE_NULL:
        return null;
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        if (p.getNumberType() == NumberType.BIG_INTEGER) {
          throw new BadJson("is an integer beyond the range of int64, read without a schema");
        }
        return p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return finiteDouble(p, "float64 (read without a schema)");
      case START_ARRAY:
        {
          List<Object> list = new ArrayList<>();
          try {
            while (p.nextToken() != JsonToken.END_ARRAY) {
              list.add(schemaless(p, p.currentToken()));
            }
          } catch (BadJson e) {
            throw e.inStep("[]");
          }
          return list;
        }
      case START_OBJECT:
        {
          Map<Object, Object> map = new HashMap<>();
          for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String key = p.currentName();
            int size = map.size();
            try {
              map.put(key, schemaless(p, p.nextToken()));
            } catch (BadJson e) {
              throw e.inField(key);
            }
            if (map.size() == size) {
              throw new BadJson("appears twice in the object (one value would be dropped)")
                  .inField(key);
            }
          }
          return map;
        }
      default:
        throw expected("a JSON value", token);
    }
  }

  private static long integer(JsonParser p, JsonToken token, long min, long max, String type)
      throws IOException {
    long value;
    if (token == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == NumberType.BIG_INTEGER) {
        throw outOfRange(type);
      }
      value = p.getLongValue();
    } else if (token == JsonToken.VALUE_NUMBER_FLOAT) {
      BigDecimal exact = p.getDecimalValue();
      if (exact.signum() != 0 && exact.stripTrailingZeros().scale() > 0) {
        throw new BadJson("expected " + type + ", got a number with a fraction");
      }
      try {
        value = exact.longValueExact();
      } catch (ArithmeticException e) {
        throw outOfRange(type);
      }
    } else {
      throw expected(type, token);
    }
    if (value < min || value > max) {
      throw outOfRange(type);
    }
    return value;
  }

  private static BadJson outOfRange(String type) {
    return new BadJson("expected " + type + ", got an integer out of its range");
  }

  private static float float32(JsonParser p, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      float value = p.getFloatValue();
      if (Float.isInfinite(value)) {
        throw new BadJson("expected float32, got a number beyond its range");
      }
      if (value == 0.0f && !isZero(p, token)) {
        throw new BadJson("expected float32, got a non-zero number too small for it");
      }
      return value;
    }
    if (token == JsonToken.VALUE_STRING) {
      return (float) nonFinite(p.getText(), "float32");
    }
    throw expected("float32", token);
  }

  private static double float64(JsonParser p, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      return finiteDouble(p, "float64");
    }
    if (token == JsonToken.VALUE_STRING) {
      return nonFinite(p.getText(), "float64");
    }
    throw expected("float64", token);
  }

  private static double finiteDouble(JsonParser p, String type) throws IOException {
    double value = p.getDoubleValue();
    if (Double.isInfinite(value)) {
      throw new BadJson("expected " + type + ", got a number beyond its range");
    }
    if (value == 0.0 && !isZero(p, p.currentToken())) {
      throw new BadJson("expected " + type + ", got a non-zero number too small for it");
    }
    return value;
  }

  /** Whether the number token is zero: no digit 1-9 before its exponent. */
  private static boolean isZero(JsonParser p, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT) {
      return p.getNumberType() != NumberType.BIG_INTEGER && p.getLongValue() == 0;
    }
    char[] text = p.getTextCharacters();
    int end = p.getTextOffset() + p.getTextLength();
    for (int i = p.getTextOffset(); i < end; i++) {
      char c = text[i];
      if (c == 'e' || c == 'E') {
        break;
      }
      if (c >= '1' && c <= '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The strings Connect's and Floe's converters write for non-finite floating-point values
   * (Jackson's {@code NaN}, {@code Infinity}, {@code -Infinity}); any other string is an error.
   */
  private static double nonFinite(String text, String type) {
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "Infinity":
        return Double.POSITIVE_INFINITY;
      case "-Infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        throw new BadJson(
            "expected " + type + ", got a string (only NaN, Infinity and -Infinity are read)");
    }
  }

  private static byte[] bytes(JsonParser p, JsonToken token, String what) throws IOException {
    if (token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_EMBEDDED_OBJECT) {
      try {
        byte[] bytes = p.getBinaryValue();
        if (bytes != null) {
          return bytes;
        }
      } catch (JsonProcessingException | IllegalArgumentException e) {
        throw new BadJson("expected " + what + ", got a string that is not base64");
      }
    }
    throw expected(what, token);
  }

  private static BigDecimal decimal(JsonParser p, JsonToken token, Schema schema)
      throws IOException {
    int scale = scaleOf(schema);
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      BigDecimal value = p.getDecimalValue();
      if (value.scale() == scale) {
        return value;
      }
      try {
        return value.setScale(scale, RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new BadJson(
            "expected a Decimal of scale " + scale + ", got a number with more fraction digits");
      }
    }
    if (token == JsonToken.VALUE_STRING) {
      byte[] unscaled = bytes(p, token, "a Decimal (base64 or a number)");
      if (unscaled.length == 0) {
        throw new BadJson("expected a Decimal (base64 or a number), got no bytes");
      }
      return new BigDecimal(new BigInteger(unscaled), scale);
    }
    throw expected("a Decimal (base64 or a number)", token);
  }

  private static int scaleOf(Schema schema) {
    String scale =
        schema.parameters() == null ? null : schema.parameters().get(Decimal.SCALE_FIELD);
    if (scale == null) {
      throw new BadJson("has a Decimal schema without a scale parameter");
    }
    try {
      return Integer.parseInt(scale);
    } catch (NumberFormatException e) {
      throw new BadJson("has a Decimal schema whose scale parameter is not an integer");
    }
  }

  private static int intToken(JsonParser p, JsonToken token, String what) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == NumberType.INT) {
      return p.getIntValue();
    }
    throw expected(what + ", an int32", token);
  }

  private static long timestamp(JsonParser p, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == NumberType.BIG_INTEGER) {
        throw new BadJson(
            "expected a Timestamp (milliseconds since the epoch), got an integer beyond int64");
      }
      return p.getLongValue();
    }
    throw expected("a Timestamp (milliseconds since the epoch), an int64", token);
  }

  static BadJson expected(String what, JsonToken token) {
    return new BadJson("expected " + what + ", got " + kind(token));
  }

  /** What kind of JSON value a token starts, for messages that must not show the value. */
  static String kind(JsonToken token) {
    if (token == null) {
      return "nothing";
    }
    switch (token) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
        return "an integer";
      case VALUE_NUMBER_FLOAT:
        return "a number with a fraction or exponent";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      default:
        return token.name();
    }
  }

  private static String describe(Schema schema) {
    return schema.name() != null ? schema.name() : schema.type().getName();
  }
}
