/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import static io.floe.connect.json.JsonConverters.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class JsonConverterTest {
  private static final String STRUCT =
      "{\"type\":\"struct\",\"optional\":false,\"fields\":["
          + "{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
          + "{\"type\":\"array\",\"items\":{\"type\":\"map\",\"keys\":{\"type\":\"string\","
          + "\"optional\":false},\"values\":{\"type\":\"int32\",\"optional\":false},"
          + "\"optional\":false},\"optional\":true,\"field\":\"tags\"}]}";

  @Test
  void hasConnectsKeysWithConnectsDefaults() {
    assertThat(new JsonConverter().config().names())
        .containsExactlyInAnyOrder(
            "converter.type",
            "schemas.enable",
            "schemas.cache.size",
            "schema.content",
            "decimal.format",
            "replace.null.with.default");
    assertThat(new JsonConverter().config().names())
        .containsAll(new org.apache.kafka.connect.json.JsonConverter(false).config().names());
    JsonConverterConfig defaults = new JsonConverterConfig(Map.of("converter.type", "value"));
    assertThat(defaults.schemasEnabled()).isTrue();
    assertThat(defaults.schemasCacheSize()).isEqualTo(1000);
    assertThat(defaults.decimalFormat()).isEqualTo(JsonConverterConfig.DecimalFormat.BASE64);
    assertThat(defaults.replaceNullWithDefault()).isTrue();
    assertThat(
            new JsonConverterConfig(Map.of("converter.type", "key", "decimal.format", "numeric"))
                .decimalFormat())
        .isEqualTo(JsonConverterConfig.DecimalFormat.NUMERIC);
    assertThatThrownBy(
            () -> new JsonConverterConfig(Map.of("converter.type", "key", "decimal.format", "HEX")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("decimal.format");
  }

  @Test
  void readsTheEnvelopeInEitherOrderAndAnErrorNamesTheNestedPath() {
    JsonConverter converter = JsonConverters.floe(true);
    String payload = "{\"id\":7,\"tags\":[{\"a\":1},{\"b\":2}]}";
    SchemaAndValue schemaFirst =
        converter.toConnectData("t", JsonConverters.envelope(STRUCT, payload));
    SchemaAndValue payloadFirst =
        converter.toConnectData(
            "t", utf8(" { \"payload\" : " + payload + " ,\n \"schema\" : " + STRUCT + " } "));
    assertThat(payloadFirst).isEqualTo(schemaFirst);
    Struct struct = (Struct) schemaFirst.value();
    assertThat(struct.getInt64("id")).isEqualTo(7L);
    assertThat(struct.getArray("tags")).isEqualTo(List.of(Map.of("a", 1), Map.of("b", 2)));

    assertThatThrownBy(
            () ->
                converter.toConnectData(
                    "t",
                    JsonConverters.envelope(STRUCT, "{\"id\":7,\"tags\":[{\"a\":1},{\"b\":2.5}]}")))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "The record's value at tags[]{value}: expected int32, got a number with a fraction");
  }

  @Test
  void readsEachSchemaTextOnce() {
    JsonConverter converter = JsonConverters.floe(true);
    Schema first =
        converter.toConnectData("t", JsonConverters.envelope(STRUCT, "{\"id\":1}")).schema();
    Schema second =
        converter.toConnectData("t", JsonConverters.envelope(STRUCT, "{\"id\":2}")).schema();
    Schema other =
        converter.toConnectData("t", JsonConverters.envelope("{\"type\":\"int8\"}", "1")).schema();
    Schema again =
        converter.toConnectData("t", JsonConverters.envelope(STRUCT, "{\"id\":3}")).schema();
    assertThat(second).isSameAs(first);
    assertThat(again).as("from the map, after another schema").isSameAs(first);
    assertThat(other).isEqualTo(Schema.INT8_SCHEMA);
  }

  @Test
  void anEnvelopeWithTheLastSchemaTextIsCheckedWholeAllTheSame() {
    JsonConverter converter = JsonConverters.floe(true);
    converter.toConnectData("t", JsonConverters.envelope(STRUCT, "{\"id\":1}"));
    String prefix = "{\"schema\":" + STRUCT + ",\"payload\":{\"id\":2}";
    assertThatThrownBy(() -> converter.toConnectData("t", utf8(prefix + ",\"extra\":1}")))
        .hasMessageStartingWith("The record's value is not a JSON envelope");
    assertThatThrownBy(() -> converter.toConnectData("t", utf8(prefix + "} {\"id\":3}")))
        .hasMessageStartingWith("The record's value has more after its JSON value");
    assertThatThrownBy(() -> converter.toConnectData("t", utf8(prefix + "}}")))
        .hasMessageStartingWith("The record's value is not valid JSON");
    assertThatThrownBy(
            () ->
                converter.toConnectData(
                    "t", JsonConverters.envelope(STRUCT, "{\"id\":2,\"tags\":[{\"a\":1.5}]}")))
        .hasMessage(
            "The record's value at tags[]{value}: expected int32, got a number with a fraction");
    assertThat(converter.toConnectData("t", utf8(prefix + " }\n")).value())
        .isEqualTo(converter.toConnectData("t", utf8(prefix + "}")).value());
  }

  @Test
  void readsPlainJsonWithoutSchemasAsConnectDoes() {
    JsonConverter converter = JsonConverters.floe(false);
    SchemaAndValue read =
        converter.toConnectData("t", utf8("{\"a\":[1,2.5,\"x\",true,null],\"b\":{}}"));
    assertThat(read.schema()).isNull();
    assertThat(read.value())
        .isEqualTo(Map.of("a", java.util.Arrays.asList(1L, 2.5, "x", true, null), "b", Map.of()));
    assertThat(converter.toConnectData("t", null)).isEqualTo(SchemaAndValue.NULL);
    assertThat(converter.toConnectData("t", new byte[0])).isEqualTo(new SchemaAndValue(null, null));
    assertThat(converter.fromConnectData("t", null, null)).isNull();
  }

  @Test
  void aMessageThatIsNotJsonIsRefusedWithoutShowingIt() {
    assertThatThrownBy(
            () -> JsonConverters.floe(false).toConnectData("t", utf8("{\"a\": s3cr3tpassw0rd}")))
        .isInstanceOf(DataException.class)
        .hasMessage("The record's value is not valid JSON (line 1, column 7)")
        .hasNoCause();
    assertThatThrownBy(() -> JsonConverters.floe(true).toConnectData("t", utf8("[1]")))
        .isInstanceOf(DataException.class)
        .hasMessageStartingWith("The record's value is not a JSON envelope");
    assertThatThrownBy(() -> JsonConverters.floe(true).toConnectData("t", new byte[0]))
        .isInstanceOf(DataException.class)
        .hasMessage("The record's value is empty: no JSON envelope");
  }

  @Test
  void schemaContentGivesTheSchemaOfEveryMessage() {
    JsonConverter converter = JsonConverters.floe(true, "schema.content", STRUCT);
    SchemaAndValue read = converter.toConnectData("t", utf8("{\"id\":5}"));
    assertThat(((Struct) read.value()).getInt64("id")).isEqualTo(5L);
    assertThat(read.schema().field("tags")).isNotNull();

    assertThatThrownBy(
            () ->
                JsonConverters.floe(true, "schema.content", "{\"type\":\"int32\",\"optional\":1}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.content")
        .hasMessageContaining("has an \"optional\" that is not a boolean");
  }

  @Test
  void isAHeaderConverterToo() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("converter.type", "header", "schemas.enable", "true"));
    Schema schema = SchemaBuilder.string().optional().build();
    byte[] header = converter.fromConnectHeader("t", "h", schema, "v");
    assertThat(new String(header, StandardCharsets.UTF_8))
        .isEqualTo("{\"schema\":{\"type\":\"string\",\"optional\":true},\"payload\":\"v\"}");
    assertThat(converter.toConnectHeader("t", "h", header))
        .isEqualTo(new SchemaAndValue(schema, "v"));
    assertThatThrownBy(() -> converter.toConnectHeader("t", "h", utf8("{\"schema\":null}")))
        .hasMessageStartingWith("The header is not a JSON envelope");
  }

  @Test
  void aValueThatDoesNotFitItsSchemaIsRefusedOnWrite() {
    Schema schema = SchemaBuilder.struct().field("n", Schema.INT32_SCHEMA).build();
    Map<String, Object> notAStruct = Map.of("n", 1);
    assertThatThrownBy(() -> JsonConverters.floe(true).fromConnectData("t", schema, notAStruct))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "The record's value: expected STRUCT, got a Java java.util.ImmutableCollections$Map1");
  }
}
