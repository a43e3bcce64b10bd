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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AvroToConnectTest {
  private static final org.apache.kafka.connect.data.Schema.Type INT8 =
      org.apache.kafka.connect.data.Schema.Type.INT8;

  /** A record with one field {@code f} of this JSON type. */
  private static Schema record(String fieldType) {
    return parse(
        "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"fields\":[{\"name\":\"f\",\"type\":"
            + fieldType
            + "}]}");
  }

  private static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }

  private static org.apache.kafka.connect.data.Schema fieldSchema(String fieldType) {
    return AvroToConnect.toConnect(record(fieldType)).field("f").schema();
  }

  /** Writes a value of the record's field {@code f} and reads it back as the converter would. */
  private static Object roundTrip(String fieldType, Object value) {
    Schema schema = record(fieldType);
    GenericRecord record = new GenericData.Record(schema);
    record.put("f", value);
    Struct struct =
        (Struct)
            AvroToConnectValues.convert(
                schema, AvroToConnect.toConnect(schema), read(schema, record));
    return struct.get("f");
  }

  private static Object read(Schema schema, Object datum) {
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

  static Stream<Arguments> types() {
    return Stream.of(
        Arguments.of("\"int\"", "INT32", null, 7, 7),
        Arguments.of("{\"type\":\"int\",\"connect.type\":\"int8\"}", "INT8", null, 7, (byte) 7),
        Arguments.of("{\"type\":\"int\",\"connect.type\":\"int16\"}", "INT16", null, 7, (short) 7),
        Arguments.of("\"long\"", "INT64", null, 7L, 7L),
        Arguments.of("\"float\"", "FLOAT32", null, 1.5f, 1.5f),
        Arguments.of("\"double\"", "FLOAT64", null, 2.5d, 2.5d),
        Arguments.of("\"boolean\"", "BOOLEAN", null, true, true),
        Arguments.of("\"string\"", "STRING", null, "x", "x"),
        Arguments.of(
            "\"bytes\"", "BYTES", null, ByteBuffer.wrap(new byte[] {1, 2}), new byte[] {1, 2}),
        Arguments.of(
            "{\"type\":\"int\",\"logicalType\":\"date\"}",
            "INT32",
            Date.LOGICAL_NAME,
            19_000,
            new java.util.Date(19_000L * 86_400_000L)),
        Arguments.of(
            "{\"type\":\"int\",\"logicalType\":\"time-millis\"}",
            "INT32",
            Time.LOGICAL_NAME,
            3_600_000,
            new java.util.Date(3_600_000L)),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"time-micros\"}",
            "INT64",
            AvroParameters.MICRO_TIME,
            3_600_000_001L,
            3_600_000_001L),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
            "INT64",
            Timestamp.LOGICAL_NAME,
            1_700_000_000_123L,
            new java.util.Date(1_700_000_000_123L)),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}",
            "INT64",
            AvroParameters.MICRO_TIMESTAMP,
            1_700_000_000_123_456L,
            1_700_000_000_123_456L),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\"}",
            "INT64",
            AvroParameters.NANO_TIMESTAMP,
            1_700_000_000_123_456_789L,
            1_700_000_000_123_456_789L),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}",
            "INT64",
            Timestamp.LOGICAL_NAME,
            1_700_000_000_123L,
            new java.util.Date(1_700_000_000_123L)),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}",
            "INT64",
            AvroParameters.MICRO_TIMESTAMP,
            1_700_000_000_123_456L,
            1_700_000_000_123_456L),
        Arguments.of(
            "{\"type\":\"long\",\"logicalType\":\"local-timestamp-nanos\"}",
            "INT64",
            AvroParameters.NANO_TIMESTAMP,
            1_700_000_000_123_456_789L,
            1_700_000_000_123_456_789L),
        Arguments.of(
            "{\"type\":\"string\",\"logicalType\":\"uuid\"}",
            "STRING",
            AvroParameters.UUID,
            "5b1e3f9e-8a43-4c4f-9f58-000000000001",
            "5b1e3f9e-8a43-4c4f-9f58-000000000001"),
        Arguments.of(
            "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}",
            "BYTES",
            Decimal.LOGICAL_NAME,
            ByteBuffer.wrap(new java.math.BigInteger("-12345").toByteArray()),
            new BigDecimal("-123.45")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("types")
  void mapsEachTypeAndValue(
      String avroType, String connectType, String connectName, Object avroValue, Object expected) {
    org.apache.kafka.connect.data.Schema schema = fieldSchema(avroType);
    assertThat(schema.type().name()).isEqualTo(connectType);
    assertThat(schema.name()).isEqualTo(connectName);
    assertThat(schema.isOptional()).isFalse();
    assertThat(roundTrip(avroType, avroValue)).isEqualTo(expected);
  }

  @Test
  void localTimestampsAreMarkedZoneLessAndZonedOnesAreNot() {
    assertThat(
            fieldSchema("{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}")
                .parameters())
        .containsEntry(AvroParameters.LOGICAL_TYPE, "local-timestamp-micros");
    assertThat(fieldSchema("{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}").parameters())
        .isNull();
    assertThat(
            fieldSchema("{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}")
                .parameters())
        .containsEntry(AvroParameters.LOGICAL_TYPE, "local-timestamp-millis");
  }

  @Test
  void decimalKeepsScaleAndPrecisionOnBytesAndFixed() {
    org.apache.kafka.connect.data.Schema bytes =
        fieldSchema("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}");
    assertThat(bytes.parameters())
        .containsEntry(Decimal.SCALE_FIELD, "2")
        .containsEntry(AvroParameters.DECIMAL_PRECISION, "9");
    String fixedType =
        "{\"type\":\"fixed\",\"name\":\"Money\",\"size\":4,\"logicalType\":\"decimal\","
            + "\"precision\":9,\"scale\":2}";
    org.apache.kafka.connect.data.Schema fixed = fieldSchema(fixedType);
    assertThat(fixed.name()).isEqualTo(Decimal.LOGICAL_NAME);
    assertThat(fixed.parameters())
        .containsEntry(Decimal.SCALE_FIELD, "2")
        .containsEntry(AvroParameters.DECIMAL_PRECISION, "9")
        .containsEntry(AvroParameters.FIXED_SIZE, "4")
        .containsEntry(AvroParameters.TYPE_NAME, "t.Money");
    Schema money = record(fixedType).getField("f").schema();
    Object value =
        new GenericData.Fixed(
            money, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xcf, (byte) 0xc7});
    assertThat(roundTrip(fixedType, value)).isEqualTo(new BigDecimal("-123.45"));
  }

  @Test
  void nullableUnionsInEitherOrderAreOptional() {
    for (String union : List.of("[\"null\",\"string\"]", "[\"string\",\"null\"]")) {
      org.apache.kafka.connect.data.Schema schema = fieldSchema(union);
      assertThat(schema.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.STRING);
      assertThat(schema.isOptional()).isTrue();
      assertThat(roundTrip(union, "x")).isEqualTo("x");
      assertThat(roundTrip(union, null)).isNull();
    }
  }

  @Test
  void unionsOfSeveralTypesAreStructsWithOneOptionalFieldPerBranch() {
    String union =
        "[\"null\",\"int\",\"string\",{\"type\":\"record\",\"name\":\"Point\",\"fields\":"
            + "[{\"name\":\"x\",\"type\":\"int\"}]},{\"type\":\"array\",\"items\":\"long\"}]";
    org.apache.kafka.connect.data.Schema schema = fieldSchema(union);
    assertThat(schema.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.STRUCT);
    assertThat(schema.name()).isEqualTo(AvroParameters.UNION);
    assertThat(schema.isOptional()).isTrue();
    assertThat(schema.fields())
        .extracting(Field::name)
        .containsExactly("int", "string", "Point", "array");
    assertThat(schema.fields()).allMatch(f -> f.schema().isOptional());

    Struct anInt = (Struct) roundTrip(union, 5);
    assertThat(anInt.get("int")).isEqualTo(5);
    assertThat(anInt.get("string")).isNull();
    Schema point = record(union).getField("f").schema().getTypes().get(3);
    GenericRecord p = new GenericData.Record(point);
    p.put("x", 3);
    Struct aPoint = (Struct) roundTrip(union, p);
    assertThat(aPoint.getStruct("Point").get("x")).isEqualTo(3);
    assertThat(aPoint.get("int")).isNull();
    assertThat(roundTrip(union, null)).isNull();
    assertThat(fieldSchema("[\"int\",\"string\"]").isOptional()).isFalse();
  }

  @Test
  void unionBranchesSharingASimpleNameUseTheirFullNames() {
    String union =
        "[{\"type\":\"enum\",\"name\":\"a.Kind\",\"symbols\":[\"X\"]},"
            + "{\"type\":\"enum\",\"name\":\"b.Kind\",\"symbols\":[\"Y\"]},\"string\"]";
    assertThat(fieldSchema(union).fields())
        .extracting(Field::name)
        .containsExactly("a_Kind", "b_Kind", "string");
  }

  @Test
  void enumsAreStringsThatKeepTheirNameSymbolsAndDefault() {
    String type =
        "{\"type\":\"enum\",\"name\":\"Color\",\"namespace\":\"paint\",\"doc\":\"Colours\","
            + "\"aliases\":[\"Colour\"],\"symbols\":[\"RED\",\"GREEN\",\"OTHER\"],\"default\":\"OTHER\"}";
    org.apache.kafka.connect.data.Schema schema = fieldSchema(type);
    assertThat(schema.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.STRING);
    assertThat(schema.name()).isNull();
    assertThat(schema.parameters())
        .containsEntry(AvroParameters.TYPE_NAME, "paint.Color")
        .containsEntry(AvroParameters.ENUM_SYMBOLS, "RED,GREEN,OTHER")
        .containsEntry(AvroParameters.ENUM_DEFAULT, "OTHER")
        .containsEntry(AvroParameters.TYPE_DOC, "Colours")
        .containsEntry(AvroParameters.TYPE_ALIASES, "paint.Colour");
    Schema color = record(type).getField("f").schema();
    assertThat(roundTrip(type, new GenericData.EnumSymbol(color, "GREEN"))).isEqualTo("GREEN");
  }

  @Test
  void fixedIsBytesThatKeepsItsNameAndSize() {
    String type = "{\"type\":\"fixed\",\"name\":\"Hash\",\"size\":3}";
    org.apache.kafka.connect.data.Schema schema = fieldSchema(type);
    assertThat(schema.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.BYTES);
    assertThat(schema.parameters())
        .containsEntry(AvroParameters.FIXED_SIZE, "3")
        .containsEntry(AvroParameters.TYPE_NAME, "t.Hash");
    Schema hash = record(type).getField("f").schema();
    assertThat(roundTrip(type, new GenericData.Fixed(hash, new byte[] {7, 8, 9})))
        .isEqualTo(new byte[] {7, 8, 9});
  }

  @Test
  void logicalTypesWithoutAConnectCounterpartKeepTheirTypeAndAreNamed() {
    org.apache.kafka.connect.data.Schema duration =
        fieldSchema("{\"type\":\"fixed\",\"name\":\"D\",\"size\":12,\"logicalType\":\"duration\"}");
    assertThat(duration.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.BYTES);
    assertThat(duration.parameters()).containsEntry(AvroParameters.LOGICAL_TYPE, "duration");
    org.apache.kafka.connect.data.Schema custom =
        fieldSchema("{\"type\":\"string\",\"logicalType\":\"my-own\"}");
    assertThat(custom.parameters()).containsEntry(AvroParameters.LOGICAL_TYPE, "my-own");
  }

  @Test
  void arraysAndMapsKeepTheirElementTypes() {
    org.apache.kafka.connect.data.Schema array =
        fieldSchema("{\"type\":\"array\",\"items\":[\"null\",\"int\"]}");
    assertThat(array.type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.ARRAY);
    assertThat(array.valueSchema().isOptional()).isTrue();
    assertThat(roundTrip("{\"type\":\"array\",\"items\":[\"null\",\"int\"]}", List.of(1, 2)))
        .isEqualTo(List.of(1, 2));
    String mapType = "{\"type\":\"map\",\"values\":\"string\"}";
    org.apache.kafka.connect.data.Schema map = fieldSchema(mapType);
    assertThat(map.keySchema().type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.STRING);
    assertThat(roundTrip(mapType, Map.of("k", "v"))).isEqualTo(Map.of("k", "v"));
  }

  @Test
  void keepsDocsAliasesAndDefaultsOfRecordsAndFields() {
    Schema avro =
        parse(
            "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"crm\",\"doc\":\"A customer\","
                + "\"aliases\":[\"Client\"],\"fields\":["
                + "{\"name\":\"id\",\"type\":\"long\",\"doc\":\"The key\",\"aliases\":[\"key\",\"cid\"]},"
                + "{\"name\":\"tier\",\"type\":\"int\",\"default\":7},"
                + "{\"name\":\"name\",\"type\":\"string\",\"default\":\"anon\"},"
                + "{\"name\":\"flag\",\"type\":\"bytes\",\"default\":\"\\u00ff\"},"
                + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
                + "{\"name\":\"label\",\"type\":[\"string\",\"null\"],\"default\":\"none\"},"
                + "{\"name\":\"home\",\"type\":{\"type\":\"record\",\"name\":\"Address\",\"doc\":\"Where\","
                + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]},\"doc\":\"Home address\","
                + "\"default\":{\"city\":\"Paris\"}}]}");
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(avro, 17);
    assertThat(schema.name()).isEqualTo("crm.Customer");
    assertThat(schema.doc()).isEqualTo("A customer");
    assertThat(schema.parameters())
        .containsEntry(AvroParameters.SCHEMA_ID, "17")
        .containsEntry(AvroParameters.TYPE_ALIASES, "crm.Client");

    org.apache.kafka.connect.data.Schema id = schema.field("id").schema();
    assertThat(id.doc()).isEqualTo("The key");
    assertThat(id.parameters()).containsEntry(AvroParameters.FIELD_ALIASES, "key,cid");
    assertThat(id.defaultValue()).isNull();

    org.apache.kafka.connect.data.Schema tier = schema.field("tier").schema();
    assertThat(tier.defaultValue()).isEqualTo(7);
    assertThat(tier.parameters()).containsEntry(AvroParameters.FIELD_DEFAULT, "7");
    assertThat(schema.field("name").schema().defaultValue()).isEqualTo("anon");
    assertThat(schema.field("flag").schema().defaultValue()).isEqualTo(new byte[] {(byte) 0xff});

    org.apache.kafka.connect.data.Schema note = schema.field("note").schema();
    assertThat(note.defaultValue()).as("a written null must stay null").isNull();
    assertThat(note.parameters()).containsEntry(AvroParameters.FIELD_DEFAULT, "null");
    org.apache.kafka.connect.data.Schema label = schema.field("label").schema();
    assertThat(label.defaultValue()).isNull();
    assertThat(label.parameters()).containsEntry(AvroParameters.FIELD_DEFAULT, "\"none\"");

    org.apache.kafka.connect.data.Schema home = schema.field("home").schema();
    assertThat(home.doc()).isEqualTo("Home address");
    assertThat(home.parameters())
        .containsEntry(AvroParameters.TYPE_DOC, "Where")
        .containsEntry(AvroParameters.FIELD_DEFAULT, "{\"city\":\"Paris\"}");
  }

  @Test
  void toleratesDefaultsThatDoNotFitTheirType() {
    Schema avro =
        new Schema.Parser()
            .setValidateDefaults(false)
            .parse(
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                    + "{\"name\":\"f\",\"type\":\"int\",\"default\":\"oops\"}]}");
    org.apache.kafka.connect.data.Schema f = AvroToConnect.toConnect(avro).field("f").schema();
    assertThat(f.defaultValue()).isNull();
    assertThat(f.parameters()).containsEntry(AvroParameters.FIELD_DEFAULT, "\"oops\"");
  }

  @Test
  void refusesRecursiveRecords() {
    Schema node =
        parse(
            "{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                + "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");
    assertThatThrownBy(() -> AvroToConnect.toConnect(node))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("Node contains itself");
  }

  @Test
  void refusesAnIntOutOfRangeForItsConnectType() {
    assertThatThrownBy(() -> roundTrip("{\"type\":\"int\",\"connect.type\":\"int8\"}", 300))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("INT8")
        .hasMessageNotContaining("300");
  }

  @Test
  void nestedRecordsArraysOfRecordsAndMapsOfRecordsConvert() {
    String item =
        "{\"type\":\"record\",\"name\":\"Item\",\"fields\":[{\"name\":\"sku\",\"type\":\"string\"}]}";
    Schema avro = record("{\"type\":\"array\",\"items\":" + item + "}");
    Schema itemSchema = avro.getField("f").schema().getElementType();
    GenericRecord one = new GenericData.Record(itemSchema);
    one.put("sku", "A-1");
    GenericRecord outer = new GenericData.Record(avro);
    outer.put("f", List.of(one));
    org.apache.kafka.connect.data.Schema connect = AvroToConnect.toConnect(avro);
    Struct struct = (Struct) AvroToConnectValues.convert(avro, connect, read(avro, outer));
    struct.validate();
    assertThat(((Struct) struct.getArray("f").get(0)).getString("sku")).isEqualTo("A-1");
    assertThat(connect.field("f").schema().valueSchema().name()).isEqualTo("t.Item");
    assertThat(INT8.name()).isEqualTo("INT8");
  }
}
