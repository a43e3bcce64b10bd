/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.convert.ConnectSchemas;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.RecordConverters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Avro unions of several types and enums, from wire-format bytes to Iceberg rows: a union becomes a
 * struct with one optional field per branch (only the branch the value took is set), an enum a
 * string holding the symbol.
 */
class AvroUnionAndEnumTest {
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"shop\",\"fields\":["
                  + "{\"name\":\"id\",\"type\":\"long\"},"
                  + "{\"name\":\"amount\",\"type\":[\"null\",\"int\",\"string\"]},"
                  + "{\"name\":\"state\",\"type\":{\"type\":\"enum\",\"name\":\"State\","
                  + "\"symbols\":[\"NEW\",\"PAID\",\"REFUNDED\"]}}]}");

  private FakeRegistry registry;
  private AvroConverter converter;
  private int schemaId;

  @BeforeEach
  void start() {
    registry = FakeRegistry.start();
    schemaId = registry.add("payments-value", SCHEMA);
    Map<String, String> props = new HashMap<>();
    props.put(AvroConverter.SCHEMA_REGISTRY_URL, registry.url());
    converter = new AvroConverter();
    converter.configure(props, false);
  }

  @AfterEach
  void stop() {
    registry.close();
  }

  private byte[] encode(long id, Object amount, String state) throws IOException {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put("id", id);
    record.put("amount", amount);
    record.put("state", new GenericData.EnumSymbol(SCHEMA.getField("state").schema(), state));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(schemaId).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(SCHEMA).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private Record toRow(byte[] bytes, org.apache.iceberg.Schema table) {
    SchemaAndValue connect = converter.toConnectData("payments", bytes);
    return RecordConverters.forSchema(connect.schema(), table, ConvertOptions.defaults())
        .convert(connect.value());
  }

  @Test
  void aUnionBecomesAStructWithTheTakenBranchSetAndAnEnumItsSymbol() throws IOException {
    SchemaAndValue first = converter.toConnectData("payments", encode(1, 5, "NEW"));
    org.apache.iceberg.Schema table =
        ConnectSchemas.toIcebergSchema(first.schema(), ConvertOptions.defaults());
    Types.StructType amount = table.findType("amount").asStructType();
    assertThat(amount.fields()).hasSize(2).allSatisfy(f -> assertThat(f.isOptional()).isTrue());
    assertThat(amount.fields())
        .extracting(f -> f.type().typeId())
        .containsExactly(
            org.apache.iceberg.types.Type.TypeID.INTEGER,
            org.apache.iceberg.types.Type.TypeID.STRING);
    assertThat(table.findType("state")).isEqualTo(Types.StringType.get());

    Record asInt = toRow(encode(1, 5, "NEW"), table);
    Record asString = toRow(encode(2, "five", "PAID"), table);
    Record none = toRow(encode(3, null, "REFUNDED"), table);
    Record intBranch = (Record) asInt.getField("amount");
    assertThat(intBranch.get(0)).isEqualTo(5);
    assertThat(intBranch.get(1)).isNull();
    Record stringBranch = (Record) asString.getField("amount");
    assertThat(stringBranch.get(0)).isNull();
    assertThat(stringBranch.get(1)).isEqualTo("five");
    assertThat(none.getField("amount")).isNull();
    assertThat(asInt.getField("state")).isEqualTo("NEW");
    assertThat(asString.getField("state")).isEqualTo("PAID");
    assertThat(none.getField("state")).isEqualTo("REFUNDED");
  }
}
