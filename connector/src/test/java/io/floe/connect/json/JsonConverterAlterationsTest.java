/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import static io.floe.connect.json.JsonConverters.envelope;
import static io.floe.connect.json.JsonConverters.field;
import static io.floe.connect.json.JsonConverters.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case found where Connect's JSON converter changes or drops what a message holds, one row of
 * README's table each: what Connect's converter gives, and the error Floe's gives instead (naming
 * the field and the expected type, never the value).
 */
class JsonConverterAlterationsTest {
  private static final String INT8 = "{\"type\":\"int8\",\"optional\":false}";
  private static final String INT16 = "{\"type\":\"int16\",\"optional\":false}";
  private static final String INT32 = "{\"type\":\"int32\",\"optional\":false}";
  private static final String INT64 = "{\"type\":\"int64\",\"optional\":false}";
  private static final String FLOAT32 = "{\"type\":\"float\",\"optional\":false}";
  private static final String FLOAT64 = "{\"type\":\"double\",\"optional\":false}";
  private static final String BOOLEAN = "{\"type\":\"boolean\",\"optional\":false}";
  private static final String OPTIONAL_STRING = "{\"type\":\"string\",\"optional\":true}";
  private static final String OPTIONAL_BYTES = "{\"type\":\"bytes\",\"optional\":true}";
  private static final String TIMESTAMP =
      "{\"type\":\"int64\",\"optional\":false,\"name\":\"org.apache.kafka.connect.data.Timestamp\"}";
  private static final String DECIMAL_2 =
      "{\"type\":\"bytes\",\"optional\":false,\"name\":\"org.apache.kafka.connect.data.Decimal\","
          + "\"parameters\":{\"scale\":\"2\"}}";

  /**
   * A field {@code f} whose value Connect's converter changes: (schema, JSON, Connect's, Floe's).
   */
  static Stream<Arguments> alteredFields() {
    return Stream.of(
        Arguments.of(
            "int32 beyond its range wraps",
            INT32,
            "8589934599",
            7,
            "expected int32, got an integer out of its range"),
        Arguments.of(
            "int8 beyond its range wraps",
            INT8,
            "300",
            (byte) 44,
            "expected int8, got an integer out of its range"),
        Arguments.of(
            "int16 beyond its range wraps",
            INT16,
            "70000",
            (short) 4464,
            "expected int16, got an integer out of its range"),
        Arguments.of(
            "int64 beyond its range wraps",
            INT64,
            "18446744073709551617",
            1L,
            "expected int64, got an integer out of its range"),
        Arguments.of(
            "int32 fraction truncated",
            INT32,
            "1.9",
            1,
            "expected int32, got a number with a fraction"),
        Arguments.of(
            "int64 fraction truncated",
            INT64,
            "-2.5",
            -2L,
            "expected int64, got a number with a fraction"),
        Arguments.of(
            "int32 from a string is 0", INT32, "\"123\"", 0, "expected int32, got a string"),
        Arguments.of(
            "int64 from a boolean is 0", INT64, "true", 0L, "expected int64, got a boolean"),
        Arguments.of(
            "float64 from a string is 0.0",
            FLOAT64,
            "\"1.5\"",
            0.0,
            "expected float64, got a string (only NaN, Infinity and -Infinity are read)"),
        Arguments.of(
            "float64 beyond its range is Infinity",
            FLOAT64,
            "1e400",
            Double.POSITIVE_INFINITY,
            "expected float64, got a number beyond its range"),
        Arguments.of(
            "float64 too small is 0.0",
            FLOAT64,
            "1e-400",
            0.0,
            "expected float64, got a non-zero number too small for it"),
        Arguments.of(
            "float32 beyond its range is Infinity",
            FLOAT32,
            "1e39",
            Float.POSITIVE_INFINITY,
            "expected float32, got a number beyond its range"),
        Arguments.of(
            "boolean from a string is false",
            BOOLEAN,
            "\"true\"",
            false,
            "expected a boolean, got a string"),
        Arguments.of(
            "boolean from a number is false",
            BOOLEAN,
            "1",
            false,
            "expected a boolean, got an integer"),
        Arguments.of(
            "string from a number is null",
            OPTIONAL_STRING,
            "123",
            null,
            "expected a string, got an integer"),
        Arguments.of(
            "bytes from a number is null",
            OPTIONAL_BYTES,
            "123",
            null,
            "expected bytes (base64), got an integer"),
        Arguments.of(
            "Timestamp beyond int64 wraps",
            TIMESTAMP,
            "18446744073709551621",
            new java.util.Date(5),
            "expected a Timestamp (milliseconds since the epoch), got an integer beyond int64"),
        Arguments.of(
            "Decimal with more fraction digits than its scale",
            DECIMAL_2,
            "1.234",
            new BigDecimal("1.234"),
            "expected a Decimal of scale 2, got a number with more fraction digits"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("alteredFields")
  void connectAltersTheFieldAndFloeRefusesIt(
      String name, String schema, String json, Object connectGives, String floeSays) {
    byte[] message = field(schema, json);

    Struct connect = (Struct) JsonConverters.connect(true).toConnectData("t", message).value();
    assertThat(connect.get("f")).as("Connect's converter").isEqualTo(connectGives);

    assertThatThrownBy(() -> JsonConverters.floe(true).toConnectData("t", message))
        .isInstanceOf(DataException.class)
        .hasMessage("The record's value at f: " + floeSays)
        .hasNoCause();
  }

  /** Whole messages whose content Connect's converter drops: (message, Connect's, Floe's error). */
  static Stream<Arguments> droppedContent() {
    String struct =
        "{\"type\":\"struct\",\"optional\":false,\"fields\":["
            + "{\"type\":\"int32\",\"optional\":true,\"field\":\"a\"}]}";
    String stringMap =
        "{\"type\":\"map\",\"keys\":{\"type\":\"string\",\"optional\":false},"
            + "\"values\":{\"type\":\"int32\",\"optional\":false},\"optional\":false}";
    String intMap =
        "{\"type\":\"map\",\"keys\":{\"type\":\"int32\",\"optional\":false},"
            + "\"values\":{\"type\":\"int32\",\"optional\":false},\"optional\":false}";
    return Stream.of(
        Arguments.of(
            "a field the schema lacks is dropped",
            true,
            envelope(struct, "{\"a\":1,\"b\":2}"),
            "The record's value at b: is not a field of the struct's schema (it would be dropped)"),
        Arguments.of(
            "a field given twice keeps the last",
            true,
            envelope(struct, "{\"a\":1,\"a\":2}"),
            "The record's value at a: appears twice in the object (one value would be dropped)"),
        Arguments.of(
            "a string map key given twice keeps the last",
            true,
            envelope(stringMap, "{\"k\":1,\"k\":2}"),
            "The record's value at {key}: has a key twice (one value would be dropped)"),
        Arguments.of(
            "a map key given twice in the array form keeps the last",
            true,
            envelope(intMap, "[[1,1],[1,2]]"),
            "The record's value at {key}: has a key twice (one value would be dropped)"),
        Arguments.of(
            "a key given twice without a schema keeps the last",
            false,
            utf8("{\"k\":1,\"k\":2}"),
            "The record's value at k: appears twice in the object (one value would be dropped)"),
        Arguments.of(
            "an integer beyond int64 without a schema wraps",
            false,
            utf8("{\"k\":18446744073709551617}"),
            "The record's value at k: is an integer beyond the range of int64, read without a schema"),
        Arguments.of(
            "a number beyond float64 without a schema is Infinity",
            false,
            utf8("[1e400]"),
            "The record's value at []: expected float64 (read without a schema), got a number beyond"
                + " its range"),
        Arguments.of(
            "what follows the JSON value is ignored",
            true,
            utf8(new String(envelope(struct, "{\"a\":1}"), StandardCharsets.UTF_8) + " {\"a\":2}"),
            "The record's value has more after its JSON value (line 1, column 121)"),
        Arguments.of(
            "an envelope with its schema twice keeps the last",
            true,
            utf8(
                "{\"schema\":{\"type\":\"int64\",\"optional\":false},\"schema\":"
                    + struct
                    + ",\"payload\":{\"a\":1}}"),
            "The record's value is not a JSON envelope: with schemas.enable=true each message must"
                + " be an object with exactly the fields \"schema\" and \"payload\". For plain JSON"
                + " set schemas.enable=false."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("droppedContent")
  void connectDropsContentAndFloeRefusesIt(
      String name, boolean schemas, byte[] message, String floeSays) {
    SchemaAndValue connect = JsonConverters.connect(schemas).toConnectData("t", message);
    assertThat(connect.value()).as("Connect's converter reads something").isNotNull();

    assertThatThrownBy(() -> JsonConverters.floe(schemas).toConnectData("t", message))
        .isInstanceOf(DataException.class)
        .hasMessage(floeSays)
        .hasNoCause();
  }

  /** The schema's attributes of the wrong JSON type: Connect's converter ignores them. */
  static Stream<Arguments> ignoredSchemaAttributes() {
    return Stream.of(
        Arguments.of(
            "{\"type\":\"int32\",\"optional\":\"true\"}",
            "has an \"optional\" that is not a boolean"),
        Arguments.of(
            "{\"type\":\"int32\",\"optional\":false,\"version\":\"2\"}",
            "has a \"version\" that is not an int32"),
        Arguments.of(
            "{\"type\":\"int32\",\"optional\":false,\"name\":7}",
            "has a \"name\" that is not a string"),
        Arguments.of(
            "{\"type\":\"int32\",\"optional\":false,\"parameters\":[\"a\"]}",
            "has \"parameters\" that are not an object"),
        Arguments.of(
            "{\"type\":\"int32\",\"optional\":false,\"default\":8589934599}",
            "has a default that does not fit: expected int32, got an integer out of its range"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ignoredSchemaAttributes")
  void connectIgnoresOrAltersSchemaAttributesAndFloeRefusesThem(String schema, String floeSays) {
    byte[] message = field(schema, "1");
    assertThat(JsonConverters.connect(true).toConnectData("t", message).value()).isNotNull();

    assertThatThrownBy(() -> JsonConverters.floe(true).toConnectData("t", message))
        .isInstanceOf(DataException.class)
        .hasMessage("The record's schema at f: " + floeSays);
  }

  @Test
  void aDecimalOfAnotherScaleKeepsItsScaleInConnectAndGetsTheSchemasInFloe() {
    byte[] message = field(DECIMAL_2, "1.5");

    Struct connect = (Struct) JsonConverters.connect(true).toConnectData("t", message).value();
    assertThat(((BigDecimal) connect.get("f")).scale())
        .as("Connect: the number's own scale")
        .isOne();

    Struct floe = (Struct) JsonConverters.floe(true).toConnectData("t", message).value();
    assertThat(floe.get("f")).isEqualTo(new BigDecimal("1.50"));
  }

  @Test
  void nonFiniteFloatsAreReadAsTheStringsBothConvertersWriteThem() {
    Schema schema = SchemaBuilder.struct().field("f", Schema.FLOAT64_SCHEMA).build();
    Struct value = new Struct(schema).put("f", Double.POSITIVE_INFINITY);
    for (Converter writer :
        new Converter[] {JsonConverters.connect(true), JsonConverters.floe(true)}) {
      byte[] message = writer.fromConnectData("t", schema, value);
      assertThat(new String(message, StandardCharsets.UTF_8)).contains("\"f\":\"Infinity\"");

      assertThat(
              ((Struct) JsonConverters.connect(true).toConnectData("t", message).value()).get("f"))
          .as("Connect's converter reads its own Infinity")
          .isEqualTo(0.0);
      assertThat(((Struct) JsonConverters.floe(true).toConnectData("t", message).value()).get("f"))
          .isEqualTo(Double.POSITIVE_INFINITY);
    }
  }

  @Test
  void negativeZeroKeepsItsSignWhereConnectReadsZero() {
    byte[] message = field(FLOAT64, "-0.0");

    Struct connect = (Struct) JsonConverters.connect(true).toConnectData("t", message).value();
    assertThat(connect.get("f")).as("Connect's converter").isEqualTo(0.0);

    Struct floe = (Struct) JsonConverters.floe(true).toConnectData("t", message).value();
    assertThat(floe.get("f")).isEqualTo(-0.0);
  }

  @Test
  void aByteBufferIsWrittenFromItsPositionToItsLimitWhereConnectWritesItsWholeArray() {
    Schema schema = SchemaBuilder.struct().field("f", Schema.BYTES_SCHEMA).build();
    ByteBuffer slice = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}, 1, 2);
    Struct value = new Struct(schema).put("f", slice);

    assertThat(payloadBytes(JsonConverters.connect(true).fromConnectData("t", schema, value)))
        .as("Connect's converter")
        .containsExactly(1, 2, 3, 4, 5);
    assertThat(payloadBytes(JsonConverters.floe(true).fromConnectData("t", schema, value)))
        .containsExactly(2, 3);
    assertThat(slice.remaining()).as("the buffer is left as it was").isEqualTo(2);
  }

  @Test
  void aNullMapKeyIsRefusedWhereConnectWritesTheStringNull() {
    Schema map = SchemaBuilder.map(Schema.OPTIONAL_STRING_SCHEMA, Schema.INT32_SCHEMA).build();
    Schema schema = SchemaBuilder.struct().field("f", map).build();
    Map<String, Integer> withNullKey = new java.util.HashMap<>();
    withNullKey.put(null, 1);
    Struct value = new Struct(schema).put("f", withNullKey);

    String connect =
        new String(
            JsonConverters.connect(true).fromConnectData("t", schema, value),
            StandardCharsets.UTF_8);
    assertThat(connect).as("Connect's converter").contains("\"payload\":{\"f\":{\"null\":1}}");

    assertThatThrownBy(() -> JsonConverters.floe(true).fromConnectData("t", schema, value))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "The record's value at f{key}: has a null key (it would be written as the string"
                + " \"null\")");
  }

  private static byte[] payloadBytes(byte[] message) {
    String text = new String(message, StandardCharsets.UTF_8);
    int start = text.indexOf("\"f\":\"") + 5;
    return Base64.getDecoder().decode(text.substring(start, text.indexOf('"', start)));
  }
}
