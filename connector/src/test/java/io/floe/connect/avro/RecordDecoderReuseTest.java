/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The decoder reuses each schema's last datum and reads strings as {@link String}s: a value it
 * returned never changes when the next record is decoded, and what it reads is what a decoder
 * without reuse reads.
 */
class RecordDecoderReuseTest {
  private static final Schema ORDER =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Order", "namespace": "t", "fields": [
                {"name": "id", "type": "long"},
                {"name": "customer", "type": "string"},
                {"name": "note", "type": ["null", "string"], "default": null},
                {"name": "choice", "type": ["null", "string", "int"], "default": null},
                {"name": "tags", "type": {"type": "array", "items": "string"}},
                {"name": "attributes", "type": {"type": "map", "values": "string"}},
                {"name": "lines", "type": {"type": "array", "items": {"type": "record",
                  "name": "Line", "fields": [
                    {"name": "sku", "type": "string"},
                    {"name": "blob", "type": "bytes"}]}}},
                {"name": "address", "type": ["null", {"type": "record", "name": "Address",
                  "fields": [{"name": "city", "type": "string"}]}], "default": null},
                {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}},
                {"name": "status", "type": {"type": "enum", "name": "Status",
                  "symbols": ["NEW", "PAID"]}},
                {"name": "utf8", "type": {"type": "string", "avro.java.string": "Utf8"}},
                {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal",
                  "precision": 9, "scale": 2}}
              ]}
              """);

  private FakeRegistry registry;

  @BeforeEach
  void startRegistry() {
    registry = FakeRegistry.start();
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void aDecodedValueStaysAsItWasWhenTheNextRecordIsDecoded() throws IOException {
    int id = registry.add("orders-value", ORDER);
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      payloads.add(wire(id, order(i)));
    }
    AvroConverter reusing = converter();
    List<Object> kept = new ArrayList<>();
    for (byte[] payload : payloads) {
      kept.add(reusing.toConnectData("orders", payload).value());
    }
    for (int i = 0; i < payloads.size(); i++) {
      // a converter of its own per record: nothing to reuse
      Object fresh = converter().toConnectData("orders", payloads.get(i)).value();
      assertThat(kept.get(i)).as("record %d", i).isEqualTo(fresh);
    }
    Struct last = (Struct) kept.get(5);
    assertThat(last.get("customer")).isExactlyInstanceOf(String.class).isEqualTo("customer-5");
    assertThat(last.getArray("tags")).containsExactly("a5", "b5", "c5", "d5", "e5", "f5");
    assertThat(last.getMap("attributes")).containsEntry("k5", "v5").hasSize(1);
    assertThat(last.getMap("attributes").keySet().iterator().next())
        .isExactlyInstanceOf(String.class);
    assertThat(last.get("utf8")).isExactlyInstanceOf(String.class).isEqualTo("u5");
    Struct first = (Struct) kept.get(0);
    assertThat(first.getArray("tags")).containsExactly("a0");
    assertThat(((Struct) first.getArray("lines").get(0)).getBytes("blob")).containsExactly(0, 0);
    assertThat(first.getStruct("address")).isNull();
    assertThat(first.get("choice")).isNull();
  }

  @Test
  void theReadersCopyMarksEveryStringAndMapAndEncodesAlike() {
    Schema copy = JavaStrings.of(ORDER);
    assertThat(copy).isNotSameAs(ORDER);
    assertThat(copy.getField("customer").schema().getProp(GenericData.STRING_PROP))
        .isEqualTo("String");
    assertThat(copy.getField("attributes").schema().getProp(GenericData.STRING_PROP))
        .isEqualTo("String");
    assertThat(
            copy.getField("lines")
                .schema()
                .getElementType()
                .getField("sku")
                .schema()
                .getProp(GenericData.STRING_PROP))
        .isEqualTo("String");
    assertThat(copy.getField("utf8").schema().getProp(GenericData.STRING_PROP)).isEqualTo("Utf8");
    assertThat(ORDER.getField("customer").schema().getProp(GenericData.STRING_PROP)).isNull();
    // the property is a reader's hint: same parsing form, same bytes
    assertThat(org.apache.avro.SchemaNormalization.toParsingForm(copy))
        .isEqualTo(org.apache.avro.SchemaNormalization.toParsingForm(ORDER));
  }

  private AvroConverter converter() {
    AvroConverter converter = new AvroConverter(duration -> {});
    converter.configure(Map.of(AvroConverter.SCHEMA_REGISTRY_URL, registry.url()), false);
    return converter;
  }

  /** Records that differ in every container's size and every union's branch. */
  private static GenericRecord order(int i) {
    Schema line = ORDER.getField("lines").schema().getElementType();
    Schema address = ORDER.getField("address").schema().getTypes().get(1);
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", (long) i);
    order.put("customer", "customer-" + i);
    order.put("note", i % 2 == 0 ? null : "note-" + i);
    order.put("choice", i % 3 == 0 ? null : i % 3 == 1 ? "s" + i : (Object) i);
    List<Object> tags = new ArrayList<>();
    List<Object> lines = new ArrayList<>();
    for (int j = 0; j <= i; j++) {
      tags.add(new Utf8(String.valueOf((char) ('a' + j)) + i));
      GenericRecord item = new GenericData.Record(line);
      item.put("sku", "sku-" + i + "-" + j);
      item.put("blob", ByteBuffer.wrap(new byte[i + 2]));
      lines.add(item);
    }
    order.put("tags", tags);
    order.put("lines", lines);
    order.put("attributes", Map.of("k" + i, "v" + i));
    if (i % 2 == 1) {
      GenericRecord where = new GenericData.Record(address);
      where.put("city", "city-" + i);
      order.put("address", where);
    }
    order.put(
        "digest",
        new GenericData.Fixed(
            ORDER.getField("digest").schema(), new byte[] {(byte) i, 1, 2, (byte) (i * 7)}));
    order.put(
        "status",
        new GenericData.EnumSymbol(ORDER.getField("status").schema(), i % 2 == 0 ? "NEW" : "PAID"));
    order.put("utf8", "u" + i);
    order.put("amount", ByteBuffer.wrap(java.math.BigInteger.valueOf(12345L * i).toByteArray()));
    return order;
  }

  private static byte[] wire(int id, GenericRecord record) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WireFormat.writeHeader(bytes, id);
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(ORDER).write(record, encoder);
    encoder.flush();
    return bytes.toByteArray();
  }
}
