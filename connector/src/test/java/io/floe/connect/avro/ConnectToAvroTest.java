/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class ConnectToAvroTest {

  /** Every kind of Avro type the converter maps, with docs, aliases and defaults. */
  private static final String RICH =
      "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"doc\":\"An order\","
          + "\"aliases\":[\"Purchase\"],\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\",\"doc\":\"Key\",\"aliases\":[\"order_id\"]},"
          + "{\"name\":\"qty\",\"type\":\"int\",\"default\":1},"
          + "{\"name\":\"small\",\"type\":{\"type\":\"int\",\"connect.type\":\"int8\"}},"
          + "{\"name\":\"mid\",\"type\":{\"type\":\"int\",\"connect.type\":\"int16\"}},"
          + "{\"name\":\"ratio\",\"type\":\"float\"},"
          + "{\"name\":\"score\",\"type\":\"double\",\"default\":0.5},"
          + "{\"name\":\"paid\",\"type\":\"boolean\",\"default\":false},"
          + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
          + "{\"name\":\"label\",\"type\":[\"string\",\"null\"],\"default\":\"none\"},"
          + "{\"name\":\"blob\",\"type\":\"bytes\"},"
          + "{\"name\":\"hash\",\"type\":{\"type\":\"fixed\",\"name\":\"Hash\",\"size\":4,"
          + "\"doc\":\"md5-ish\",\"aliases\":[\"Digest\"]}},"
          + "{\"name\":\"status\",\"type\":{\"type\":\"enum\",\"name\":\"Status\",\"doc\":\"State\","
          + "\"symbols\":[\"NEW\",\"PAID\",\"UNKNOWN\"],\"default\":\"UNKNOWN\"},\"default\":\"NEW\"},"
          + "{\"name\":\"price\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
          + "\"precision\":10,\"scale\":2}},"
          + "{\"name\":\"total\",\"type\":{\"type\":\"fixed\",\"name\":\"Money\",\"size\":8,"
          + "\"logicalType\":\"decimal\",\"precision\":12,\"scale\":3}},"
          + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
          + "{\"name\":\"at\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
          + "{\"name\":\"atMicros\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
          + "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
          + "{\"name\":\"tsMicros\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
          + "{\"name\":\"tsNanos\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\"}},"
          + "{\"name\":\"local\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}},"
          + "{\"name\":\"localMicros\",\"type\":{\"type\":\"long\","
          + "\"logicalType\":\"local-timestamp-micros\"}},"
          + "{\"name\":\"uid\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
          + "{\"name\":\"span\",\"type\":{\"type\":\"fixed\",\"name\":\"Span\",\"size\":12,"
          + "\"logicalType\":\"duration\"}},"
          + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
          + "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":[\"null\",\"long\"]}},"
          + "{\"name\":\"choice\",\"type\":[\"null\",\"int\",\"string\",\"Status\"],\"default\":null},"
          + "{\"name\":\"ship\",\"type\":{\"type\":\"record\",\"name\":\"Address\",\"doc\":\"Where\","
          + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]},\"doc\":\"Ship to\"},"
          + "{\"name\":\"bill\",\"type\":[\"null\",\"Address\"],\"default\":null},"
          + "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\","
          + "\"name\":\"Line\",\"fields\":[{\"name\":\"sku\",\"type\":\"string\"},"
          + "{\"name\":\"n\",\"type\":\"int\",\"default\":1}]}}}"
          + "]}";

  @Test
  void anAvroSchemaComesBackFromConnectUnchanged() {
    Schema avro = new Schema.Parser().parse(RICH);
    Schema back = ConnectToAvro.toAvro(AvroToConnect.toConnect(avro, 3));
    assertThat(back.toString()).isEqualTo(avro.toString());
    assertThat(back).isEqualTo(avro);
  }

  @Test
  void unionsWithNullLastAndNoDefaultComeBackWithNullFirst() {
    Schema avro =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                    + "{\"name\":\"f\",\"type\":[\"string\",\"null\"]}]}");
    Schema back = ConnectToAvro.toAvro(AvroToConnect.toConnect(avro));
    assertThat(back.getField("f").schema().getTypes().get(0).getType()).isEqualTo(Schema.Type.NULL);
    assertThat(back.getField("f").defaultVal())
        .isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
  }

  /** A Connect schema as another source connector might build it. */
  private static org.apache.kafka.connect.data.Schema connectSchema() {
    org.apache.kafka.connect.data.Schema line =
        SchemaBuilder.struct()
            .name("shop.Line")
            .field("sku", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .field("n", SchemaBuilder.int32().defaultValue(1).build())
            .build();
    return SchemaBuilder.struct()
        .name("shop.Order")
        .doc("An order")
        .field("b", org.apache.kafka.connect.data.Schema.INT8_SCHEMA)
        .field("s", org.apache.kafka.connect.data.Schema.INT16_SCHEMA)
        .field("i", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
        .field("l", SchemaBuilder.int64().defaultValue(5L).doc("five").build())
        .field("f", org.apache.kafka.connect.data.Schema.FLOAT32_SCHEMA)
        .field("d", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
        .field("ok", org.apache.kafka.connect.data.Schema.BOOLEAN_SCHEMA)
        .field("name", SchemaBuilder.string().optional().defaultValue("anon").build())
        .field("raw", org.apache.kafka.connect.data.Schema.BYTES_SCHEMA)
        .field("price", Decimal.builder(2).parameter(AvroParameters.DECIMAL_PRECISION, "8").build())
        .field("day", Date.SCHEMA)
        .field("at", Time.SCHEMA)
        .field("ts", Timestamp.builder().optional().build())
        .field("micros", SchemaBuilder.int64().name(AvroParameters.MICRO_TIMESTAMP).build())
        .field(
            "tags",
            SchemaBuilder.array(org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
                .build())
        .field(
            "attrs",
            SchemaBuilder.map(
                    org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
                    org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
                .build())
        .field("lines", SchemaBuilder.array(line).build())
        .build();
  }

  @Test
  void aConnectSchemaComesBackFromAvroWithItsTypesNamesAndDefaults() {
    org.apache.kafka.connect.data.Schema connect = connectSchema();
    Schema avro = ConnectToAvro.toAvro(connect);
    assertThat(avro.getFullName()).isEqualTo("shop.Order");
    assertThat(avro.getDoc()).isEqualTo("An order");
    assertThat(avro.getField("name").schema().getTypes().get(0).getType())
        .as("a non-null default comes first in its union")
        .isEqualTo(Schema.Type.STRING);
    assertThat(avro.getField("name").defaultVal()).isEqualTo("anon");
    assertThat(avro.getField("i").defaultVal())
        .isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
    assertThat(avro.getField("l").doc()).isEqualTo("five");
    org.apache.kafka.connect.data.Schema back = AvroToConnect.toConnect(avro);
    assertThat(shape(back))
        .as("the same but for the Connect default of an optional field, kept only as parameter")
        .isEqualTo(shape(connect).replace("name: STRING? =anon;", "name: STRING?;"));
    assertThat(back.field("name").schema().parameters())
        .containsEntry(AvroParameters.FIELD_DEFAULT, "\"anon\"");
  }

  @Test
  void connectValuesComeBackFromAvroBytes() {
    org.apache.kafka.connect.data.Schema connect = connectSchema();
    org.apache.kafka.connect.data.Schema line = connect.field("lines").schema().valueSchema();
    Struct value =
        new Struct(connect)
            .put("b", (byte) -3)
            .put("s", (short) 300)
            .put("i", null)
            .put("l", 7L)
            .put("f", 1.25f)
            .put("d", 2.5d)
            .put("ok", true)
            .put("name", null)
            .put("raw", new byte[] {0, 1, (byte) 0xff})
            .put("price", new BigDecimal("-12.34"))
            .put("day", new java.util.Date(19_000L * 86_400_000L))
            .put("at", new java.util.Date(45_296_789L))
            .put("ts", new java.util.Date(1_700_000_000_123L))
            .put("micros", 1_700_000_000_123_456L)
            .put("tags", java.util.Arrays.asList("a", null))
            .put("attrs", Map.of("k", 1L))
            .put("lines", List.of(new Struct(line).put("sku", "X").put("n", 2)));
    Schema avro = ConnectToAvro.toAvro(connect);
    Object datum = bytesRoundTrip(avro, ConnectToAvroValues.convert(avro, connect, value));
    org.apache.kafka.connect.data.Schema back = AvroToConnect.toConnect(avro);
    Struct read = (Struct) AvroToConnectValues.convert(avro, back, datum);
    read.validate();
    assertThat(plain(read)).isEqualTo(plain(value));
    assertThat(read.get("name")).as("a written null stays null despite the default").isNull();
  }

  @Test
  void unionStructsComeBackAsTheBranchWritten() {
    Schema avro =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"u\",\"type\":"
                    + "[\"null\",\"int\",\"string\"],\"default\":null}]}");
    org.apache.kafka.connect.data.Schema connect = AvroToConnect.toConnect(avro);
    org.apache.kafka.connect.data.Schema union = connect.field("u").schema();
    Struct value = new Struct(connect).put("u", new Struct(union).put("string", "s"));
    Object datum = bytesRoundTrip(avro, ConnectToAvroValues.convert(avro, connect, value));
    assertThat(((GenericData.Record) datum).get("u").toString()).isEqualTo("s");
    Struct read = (Struct) AvroToConnectValues.convert(avro, connect, datum);
    assertThat(read.getStruct("u").get("string")).isEqualTo("s");
    assertThat(read.getStruct("u").get("int")).isNull();
  }

  @Test
  void unnamedStructsAreNamedAfterTheirPath() {
    org.apache.kafka.connect.data.Schema inner =
        SchemaBuilder.struct()
            .field("x", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .build();
    org.apache.kafka.connect.data.Schema outer =
        SchemaBuilder.struct().field("inner", inner).field("again", inner).build();
    Schema avro = ConnectToAvro.toAvro(outer);
    assertThat(avro.getFullName()).isEqualTo("io.floe.connect.avro.ConnectDefault");
    assertThat(avro.getField("inner").schema().getFullName())
        .isEqualTo("io.floe.connect.avro.ConnectDefault_inner");
    assertThat(avro.getField("again").schema().getFullName())
        .isEqualTo("io.floe.connect.avro.ConnectDefault_again");
    assertThat(new Schema.Parser().parse(avro.toString())).isEqualTo(avro);
  }

  @Test
  void fieldNamesAvroForbidsAreRefusedNotRenamed() {
    org.apache.kafka.connect.data.Schema dashed =
        SchemaBuilder.struct()
            .field("my-field", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .build();
    assertThatThrownBy(() -> ConnectToAvro.toAvro(dashed))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("my-field");
  }

  @Test
  void sameNamedStructsOfDifferentShapeGetDistinctNames() {
    org.apache.kafka.connect.data.Schema a =
        SchemaBuilder.struct()
            .name("x.Item")
            .field("a", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .build();
    org.apache.kafka.connect.data.Schema b =
        SchemaBuilder.struct()
            .name("x.Item")
            .field("b", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .build();
    org.apache.kafka.connect.data.Schema outer =
        SchemaBuilder.struct()
            .name("x.Outer")
            .field("one", a)
            .field("two", b)
            .field("three", a)
            .build();
    Schema avro = ConnectToAvro.toAvro(outer);
    assertThat(avro.getField("one").schema().getFullName()).isEqualTo("x.Item");
    assertThat(avro.getField("two").schema().getFullName()).isEqualTo("x.Item_2");
    assertThat(avro.getField("three").schema()).isSameAs(avro.getField("one").schema());
    assertThat(new Schema.Parser().parse(avro.toString())).isEqualTo(avro);
  }

  @Test
  void refusesWhatAvroCannotHold() {
    org.apache.kafka.connect.data.Schema intKeys =
        SchemaBuilder.struct()
            .field(
                "m",
                SchemaBuilder.map(
                        org.apache.kafka.connect.data.Schema.INT32_SCHEMA,
                        org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
                    .build())
            .build();
    assertThatThrownBy(() -> ConnectToAvro.toAvro(intKeys))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("string keys");
    Schema enumSchema =
        new Schema.Parser().parse("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}");
    assertThatThrownBy(() -> ConnectToAvroValues.convert(enumSchema, null, "B"))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("not a symbol")
        .hasMessageNotContaining("\"B\"");
    Schema decimal =
        new Schema.Parser()
            .parse("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4,\"scale\":2}");
    assertThatThrownBy(() -> ConnectToAvroValues.convert(decimal, null, new BigDecimal("1.234")))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("scale 2");
    assertThatThrownBy(() -> ConnectToAvroValues.convert(decimal, null, new BigDecimal("123.45")))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("precision 4");
    assertThatThrownBy(
            () -> ConnectToAvroValues.convert(Schema.create(Schema.Type.INT), null, null))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("null");
  }

  @Test
  void validNamesReplaceWhatAvroForbids() {
    assertThat(NamedTypes.validName("my-server.db.1table.Value"))
        .isEqualTo("my_server.db._1table.Value");
  }

  private static Object bytesRoundTrip(Schema schema, Object datum) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      new GenericDatumWriter<>(schema).write(datum, encoder);
      encoder.flush();
      return new GenericDatumReader<>(schema)
          .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Type, name, optionality, default and fields, without Floe's Avro parameters. */
  private static String shape(org.apache.kafka.connect.data.Schema schema) {
    Map<String, String> params = new TreeMap<>();
    if (schema.parameters() != null) {
      schema
          .parameters()
          .forEach(
              (k, v) -> {
                if (!k.startsWith(AvroParameters.PREFIX)) {
                  params.put(k, v);
                }
              });
    }
    StringBuilder text =
        new StringBuilder()
            .append(schema.type())
            .append(schema.isOptional() ? "?" : "")
            .append(schema.name() == null ? "" : " " + schema.name())
            .append(schema.defaultValue() == null ? "" : " =" + plain(schema.defaultValue()))
            .append(params.isEmpty() ? "" : " " + params);
    switch (schema.type()) {
      case STRUCT -> {
        text.append(" {");
        for (Field field : schema.fields()) {
          text.append(field.name()).append(": ").append(shape(field.schema())).append("; ");
        }
        text.append("}");
      }
      case ARRAY -> text.append(" of ").append(shape(schema.valueSchema()));
      case MAP ->
          text.append(" ")
              .append(shape(schema.keySchema()))
              .append(" to ")
              .append(shape(schema.valueSchema()));
      default -> {}
    }
    return text.toString();
  }

  /** A value with structs as maps and bytes as buffers, so that equals compares contents. */
  private static Object plain(Object value) {
    if (value instanceof Struct struct) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Field field : struct.schema().fields()) {
        map.put(field.name(), plain(struct.getWithoutDefault(field.name())));
      }
      return map;
    }
    if (value instanceof byte[] bytes) {
      return ByteBuffer.wrap(bytes);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(plain(v)));
      return copy;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(k, plain(v)));
      return copy;
    }
    return value;
  }
}
