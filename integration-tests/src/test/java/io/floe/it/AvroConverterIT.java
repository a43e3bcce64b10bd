/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.avro.AvroConverter;
import io.floe.connect.avro.AvroParameters;
import io.floe.connect.avro.SchemaRegistryFailure;
import io.floe.it.avro.RegistryClient;
import io.floe.it.avro.WireFormat;
import io.floe.it.registry.Endpoint;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.Ports;
import io.floe.it.stack.Services;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Floe's AvroConverter, in process, against the schema registry test server over HTTP: schemas
 * registered through the converter, records decoded with one fetch per schema id, basic auth,
 * unknown ids, failover, and bytes from an independent Avro encoder.
 */
class AvroConverterIT {
  private static final String USER = "floe";
  private static final String PASSWORD = "s3cret-registry-pw";
  private static final String TOPIC = "orders";

  private static final org.apache.kafka.connect.data.Schema ORDER_V1 =
      SchemaBuilder.struct()
          .name("shop.Order")
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("customer", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .build();
  private static final org.apache.kafka.connect.data.Schema ORDER_V2 =
      SchemaBuilder.struct()
          .name("shop.Order")
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("customer", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .field("total", Decimal.builder(2).optional().build())
          .build();

  private SchemaRegistryServer secured;
  private SchemaRegistryServer open;

  @RegisterExtension final Services services = Services.closedAfterEach();

  @BeforeEach
  void startRegistries() {
    secured =
        services.own(SchemaRegistryServer.builder().basicAuth(USER, PASSWORD).build().start());
    open = services.own(SchemaRegistryServer.builder().build().start());
  }

  private static AvroConverter converter(String urls, String... settings) {
    Map<String, String> props = new HashMap<>();
    props.put("schema.registry.url", urls);
    props.put("schema.registry.retries", "1");
    props.put("schema.registry.retry.backoff-ms", "10");
    for (int i = 0; i < settings.length; i += 2) {
      props.put(settings[i], settings[i + 1]);
    }
    AvroConverter converter = new AvroConverter();
    converter.configure(props, false);
    return converter;
  }

  private AvroConverter securedConverter() {
    return converter(
        secured.url(),
        "basic.auth.credentials.source",
        "USER_INFO",
        "basic.auth.user.info",
        USER + ":" + PASSWORD);
  }

  private static int schemaId(byte[] payload) {
    return ByteBuffer.wrap(payload, 1, 4).getInt();
  }

  @Test
  void registersTwoVersionsAndDecodesAThousandRecordsWithOneFetchPerId() {
    AvroConverter writer = securedConverter();
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      boolean v2 = i % 2 == 1;
      Struct order =
          new Struct(v2 ? ORDER_V2 : ORDER_V1).put("id", (long) i).put("customer", "c" + i);
      if (v2) {
        order.put("total", new BigDecimal(i).movePointLeft(2));
      }
      payloads.add(writer.fromConnectData(TOPIC, order.schema(), order));
    }
    int v1 = schemaId(payloads.get(0));
    int v2 = schemaId(payloads.get(1));
    assertThat(v1).isNotEqualTo(v2);
    assertThat(secured.requestCount(Endpoint.REGISTER_SCHEMA)).isEqualTo(2);

    AvroConverter reader = securedConverter();
    for (int i = 0; i < payloads.size(); i++) {
      SchemaAndValue decoded = reader.toConnectData(TOPIC, payloads.get(i));
      Struct order = (Struct) decoded.value();
      assertThat(order.getInt64("id")).isEqualTo(i);
      assertThat(order.getString("customer")).isEqualTo("c" + i);
      boolean isV2 = i % 2 == 1;
      assertThat(decoded.schema().parameters())
          .containsEntry(AvroParameters.SCHEMA_ID, String.valueOf(isV2 ? v2 : v1));
      if (isV2) {
        assertThat(order.get("total")).isEqualTo(new BigDecimal(i).movePointLeft(2));
      } else {
        assertThat(decoded.schema().field("total")).isNull();
      }
    }
    assertThat(secured.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(2);
  }

  @Test
  void wrongOrMissingCredentialsStopTheTaskInsteadOfSkippingRecords() {
    byte[] payload = securedConverter().fromConnectData(TOPIC, ORDER_V1, order(1));
    AvroConverter wrong =
        converter(
            secured.url(),
            "basic.auth.credentials.source",
            "USER_INFO",
            "basic.auth.user.info",
            USER + ":not-the-password");
    assertThatThrownBy(() -> wrong.toConnectData(TOPIC, payload))
        .isInstanceOf(SchemaRegistryFailure.class)
        .hasMessageContaining("HTTP 401")
        .hasMessageContaining(secured.url())
        .hasMessageNotContaining("not-the-password");
    AvroConverter none = converter(secured.url());
    assertThatThrownBy(() -> none.toConnectData(TOPIC, payload))
        .isInstanceOf(SchemaRegistryFailure.class)
        .hasMessageContaining("HTTP 401");
    String inUrl = secured.url().replace("http://", "http://" + USER + ":" + PASSWORD + "@");
    Struct decoded = (Struct) converter(inUrl).toConnectData(TOPIC, payload).value();
    assertThat(decoded.getInt64("id")).isEqualTo(1L);
  }

  @Test
  void anUnknownSchemaIdIsABadRecord() {
    GenericRecord record = new GenericData.Record(avroOrder());
    record.put("id", 1L);
    record.put("customer", "c");
    byte[] payload = WireFormat.encode(9999, record);
    assertThatThrownBy(() -> converter(open.url()).toConnectData(TOPIC, payload))
        .isExactlyInstanceOf(DataException.class)
        .hasMessage("Schema id 9999 not found in registry " + open.url());
    assertThat(open.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(1);
  }

  @Test
  void failsOverFromAClosedPortToTheLiveRegistry() {
    String closed = "http://" + Ports.LOOPBACK + ":" + Ports.free();
    AvroConverter writer = converter(closed + "," + open.url());
    byte[] payload = writer.fromConnectData(TOPIC, ORDER_V1, order(7));
    Struct decoded =
        (Struct) converter(closed + "," + open.url()).toConnectData(TOPIC, payload).value();
    assertThat(decoded.getInt64("id")).isEqualTo(7L);
    assertThat(open.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(1);
    assertThat(open.requestCount(Endpoint.REGISTER_SCHEMA)).isEqualTo(1);
  }

  @Test
  void decodesWhatAnIndependentEncoderWrites() {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"demo\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"kind\",\"type\":{\"type\":\"enum\",\"name\":\"Kind\","
                    + "\"symbols\":[\"CLICK\",\"VIEW\"]}},"
                    + "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
                    + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
                    + "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
                    + "\"precision\":9,\"scale\":2}},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
                    + "{\"name\":\"value\",\"type\":[\"long\",\"string\"]},"
                    + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
                    + "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"int\"}}]}");
    int id = new RegistryClient(open.url()).register("events-value", schema);
    GenericRecord record = new GenericData.Record(schema);
    record.put("id", 42L);
    record.put("kind", new GenericData.EnumSymbol(schema.getField("kind").schema(), "VIEW"));
    record.put("at", 1_700_000_000_123_456L);
    record.put("day", 19_000);
    record.put("amount", ByteBuffer.wrap(new BigDecimal("12.34").unscaledValue().toByteArray()));
    record.put("note", null);
    record.put("value", "text");
    record.put("tags", Arrays.asList("a", "b"));
    record.put("attrs", Map.of("k", 3));

    SchemaAndValue decoded =
        converter(open.url()).toConnectData("events", WireFormat.encode(id, record));
    Struct event = (Struct) decoded.value();
    assertThat(event.getInt64("id")).isEqualTo(42L);
    assertThat(event.getString("kind")).isEqualTo("VIEW");
    assertThat(decoded.schema().field("kind").schema().parameters())
        .containsEntry(AvroParameters.ENUM_SYMBOLS, "CLICK,VIEW");
    assertThat(event.getInt64("at")).isEqualTo(1_700_000_000_123_456L);
    assertThat(decoded.schema().field("at").schema().name())
        .isEqualTo(AvroParameters.MICRO_TIMESTAMP);
    assertThat(event.get("day")).isEqualTo(new java.util.Date(19_000L * 86_400_000L));
    assertThat(event.get("amount")).isEqualTo(new BigDecimal("12.34"));
    assertThat(event.get("note")).isNull();
    assertThat(event.getStruct("value").getString("string")).isEqualTo("text");
    assertThat(event.getStruct("value").get("long")).isNull();
    assertThat(event.getArray("tags")).containsExactly("a", "b");
    assertThat(event.getMap("attrs")).containsEntry("k", 3);
  }

  @Test
  void writesWhatAnIndependentDecoderReads() throws IOException {
    byte[] payload = converter(open.url()).fromConnectData(TOPIC, ORDER_V1, order(5));
    assertThat(payload[0]).isZero();
    GenericRecord read =
        new GenericDatumReader<GenericRecord>(avroOrder())
            .read(null, DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, null));
    assertThat(read.get("id")).isEqualTo(5L);
    assertThat(read.get("customer").toString()).isEqualTo("c5");
  }

  private static Struct order(long id) {
    return new Struct(ORDER_V1).put("id", id).put("customer", "c" + id);
  }

  private static Schema avroOrder() {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"fields\":["
                + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"customer\",\"type\":\"string\"}]}");
  }
}
