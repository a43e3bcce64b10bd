/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AvroConverterTest {
  /** {@code record Small {int a; string b}}, the record of the hand-built byte vectors. */
  private static final Schema SMALL =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Small\",\"namespace\":\"t\",\"fields\":["
                  + "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}]}");

  private FakeRegistry registry;
  private final List<Duration> sleeps = new ArrayList<>();

  @BeforeEach
  void startRegistry() {
    registry = FakeRegistry.start();
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  private AvroConverter converter(boolean isKey, String... settings) {
    Map<String, String> props = new HashMap<>();
    props.put(AvroConverter.SCHEMA_REGISTRY_URL, registry.url());
    props.put(AvroConverterConfig.RETRY_BACKOFF_MS, "10");
    for (int i = 0; i < settings.length; i += 2) {
      props.put(settings[i], settings[i + 1]);
    }
    AvroConverter converter = new AvroConverter(sleeps::add);
    converter.configure(props, isKey);
    return converter;
  }

  /** Magic byte, big-endian id, then a=1 (zig-zag 0x02) and b="x" (length 0x02, 'x'). */
  private static byte[] small(int id) {
    return new byte[] {
      0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, 0x02, 0x02, 0x78
    };
  }

  private static List<String> urlErrors(String urls) {
    return AvroConverter.CONFIG_DEF
        .validate(Map.of(AvroConverter.SCHEMA_REGISTRY_URL, urls))
        .stream()
        .filter(v -> v.name().equals(AvroConverter.SCHEMA_REGISTRY_URL))
        .map(ConfigValue::errorMessages)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void acceptsSeveralRegistryUrls() {
    assertThat(urlErrors("http://a:8081, https://b.example.com:8081/ccompat")).isEmpty();
  }

  @Test
  void rejectsUrlsThatAreNotHttp() {
    assertThat(urlErrors("registry:8081")).singleElement().asString().contains("http://");
    assertThat(urlErrors("http://ok:8081,ftp://x")).hasSize(1);
  }

  @Test
  void requiresTheRegistryUrl() {
    assertThatThrownBy(() -> new AvroConverter().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(AvroConverter.SCHEMA_REGISTRY_URL);
  }

  @Test
  void decodesAHandBuiltWireFormatRecord() {
    registry.nextId(0x01020304);
    int id = registry.add("small-value", SMALL);
    SchemaAndValue decoded = converter(false).toConnectData("small", small(id));
    Struct struct = (Struct) decoded.value();
    assertThat(struct.getInt32("a")).isEqualTo(1);
    assertThat(struct.getString("b")).isEqualTo("x");
    assertThat(decoded.schema().name()).isEqualTo("t.Small");
    assertThat(decoded.schema().parameters())
        .containsEntry(AvroParameters.SCHEMA_ID, String.valueOf(id));
  }

  @Test
  void encodesToTheHandBuiltBytesAndRegistersUnderTheTopicSubject() {
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(SMALL);
    Struct value = new Struct(schema).put("a", 1).put("b", "x");
    registry.nextId(0x00abcdef);
    byte[] bytes = converter(false).fromConnectData("small", schema, value);
    assertThat(bytes).containsExactly(0, 0x00, 0xab, 0xcd, 0xef, 0x02, 0x02, 'x');
    assertThat(registry.count("POST /subjects/small-value/versions")).isOne();
  }

  @Test
  void roundTripsThroughTheRegistryAndFetchesEachIdOnce() {
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(SMALL);
    AvroConverter writer = converter(false);
    AvroConverter reader = converter(false);
    for (int i = 0; i < 1000; i++) {
      byte[] bytes =
          writer.fromConnectData("small", schema, new Struct(schema).put("a", i).put("b", "v" + i));
      Struct read = (Struct) reader.toConnectData("small", bytes).value();
      assertThat(read.getInt32("a")).isEqualTo(i);
      assertThat(read.getString("b")).isEqualTo("v" + i);
    }
    assertThat(registry.count("POST /subjects/small-value/versions")).isOne();
    assertThat(registry.count("GET /schemas/ids/1")).isOne();
  }

  @Test
  void nullIsATombstoneBothWays() {
    AvroConverter converter = converter(false);
    assertThat(converter.toConnectData("small", null)).isEqualTo(SchemaAndValue.NULL);
    assertThat(converter.fromConnectData("small", AvroToConnect.toConnect(SMALL), null)).isNull();
    assertThat(registry.totalRequests()).isZero();
  }

  @Test
  void bytesNotInTheWireFormatAreABadRecordNamingTopicAndReasonOnly() {
    AvroConverter converter = converter(false);
    byte[] json = "{\"card\":\"4111\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> converter.toConnectData("payments", json))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("payments")
        .hasMessageContaining("first byte is 0x7b, not the magic byte 0x00")
        .hasMessageNotContaining("4111");
    assertThatThrownBy(() -> converter.toConnectData("payments", new byte[] {0, 0, 1}))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("payments")
        .hasMessageContaining("3 bytes, fewer than the 5-byte header");
    assertThat(registry.totalRequests()).isZero();
  }

  @Test
  void bytesThatDoNotMatchTheirSchemaAreABadRecord() {
    int id = registry.add("small-value", SMALL);
    AvroConverter converter = converter(false);
    byte[] extra = java.util.Arrays.copyOf(small(id), 9);
    assertThatThrownBy(() -> converter.toConnectData("small", extra))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("bytes left over")
        .hasMessageContaining("schema id " + id);
    byte[] truncated = java.util.Arrays.copyOf(small(id), 7);
    assertThatThrownBy(() -> converter.toConnectData("small", truncated))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("does not decode with its writer schema id " + id);
  }

  @Test
  void anUnknownSchemaIdIsABadRecord() {
    assertThatThrownBy(() -> converter(false).toConnectData("small", small(42)))
        .isExactlyInstanceOf(DataException.class)
        .hasMessage("Schema id 42 not found in registry " + registry.url());
  }

  @Test
  void aRegistryOutageStopsTheTaskWithAnErrorInsteadOfSkippingRecords() {
    registry.answerAll(503);
    AvroConverter converter = converter(false, AvroConverterConfig.RETRIES, "3");
    assertThatThrownBy(() -> converter.toConnectData("small", small(1)))
        .isInstanceOf(SchemaRegistryFailure.class)
        .isInstanceOf(Error.class)
        .isNotInstanceOf(Exception.class)
        .hasMessageContaining("unavailable")
        .hasCauseInstanceOf(SchemaRegistryException.class);
    assertThat(sleeps)
        .containsExactly(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40));
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(SMALL);
    assertThatThrownBy(
            () ->
                converter.fromConnectData(
                    "small", schema, new Struct(schema).put("a", 1).put("b", "x")))
        .isInstanceOf(SchemaRegistryFailure.class);
  }

  @Test
  void refusedCredentialsStopTheTaskWithoutShowingThem() {
    registry.requireAuthorization("Basic other");
    AvroConverter converter =
        converter(
            false,
            RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
            "USER_INFO",
            RegistrySecurityConfig.BASIC_AUTH_USER_INFO,
            "fred:hunter2");
    assertThatThrownBy(() -> converter.toConnectData("small", small(1)))
        .isInstanceOf(SchemaRegistryFailure.class)
        .hasMessageContaining("401")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void looksUpInsteadOfRegisteringWhenAutoRegisterIsOff() {
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(SMALL);
    Struct value = new Struct(schema).put("a", 1).put("b", "x");
    AvroConverter converter = converter(false, AvroConverterConfig.AUTO_REGISTER_SCHEMAS, "false");
    assertThatThrownBy(() -> converter.fromConnectData("small", schema, value))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("not registered under subject small-value");
    int id = registry.add("small-value", SMALL);
    AvroConverter again = converter(false, AvroConverterConfig.AUTO_REGISTER_SCHEMAS, "false");
    assertThat(again.fromConnectData("small", schema, value)).containsExactly(small(id));
    assertThat(registry.count("POST /subjects/small-value/versions")).isZero();
  }

  @Test
  void writesWithTheLatestVersionWhenAsked() {
    registry.add("small-value", SMALL);
    Schema v2 =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Small\",\"namespace\":\"t\",\"fields\":["
                    + "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"},"
                    + "{\"name\":\"c\",\"type\":[\"null\",\"long\"],\"default\":null}]}");
    int v2Id = registry.add("small-value", v2);
    org.apache.kafka.connect.data.Schema v1 = AvroToConnect.toConnect(SMALL);
    AvroConverter converter =
        converter(
            false,
            AvroConverterConfig.AUTO_REGISTER_SCHEMAS,
            "false",
            AvroConverterConfig.USE_LATEST_VERSION,
            "true");
    byte[] bytes = converter.fromConnectData("small", v1, new Struct(v1).put("a", 1).put("b", "x"));
    assertThat(WireFormat.schemaId("small", bytes)).isEqualTo(v2Id);
    Struct read = (Struct) converter.toConnectData("small", bytes).value();
    assertThat(read.get("c")).isNull();
    assertThat(read.getString("b")).isEqualTo("x");
  }

  @Test
  void namesSubjectsWithTheConfiguredStrategy() {
    org.apache.kafka.connect.data.Schema schema = AvroToConnect.toConnect(SMALL);
    Struct value = new Struct(schema).put("a", 1).put("b", "x");
    converter(true, AvroConverterConfig.KEY_SUBJECT_NAME_STRATEGY, "RecordNameStrategy")
        .fromConnectData("orders", schema, value);
    converter(
            false,
            AvroConverterConfig.VALUE_SUBJECT_NAME_STRATEGY,
            "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy")
        .fromConnectData("orders", schema, value);
    converter(true).fromConnectData("orders", schema, value);
    assertThat(registry.count("POST /subjects/t.Small/versions")).isOne();
    assertThat(registry.count("POST /subjects/orders-t.Small/versions")).isOne();
    assertThat(registry.count("POST /subjects/orders-key/versions")).isOne();
  }

  @Test
  void refusesValuesWithoutASchemaOrThatDoNotFitIt() {
    AvroConverter converter = converter(false);
    assertThatThrownBy(() -> converter.fromConnectData("small", null, Map.of("a", 1)))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("needs a Connect schema");
    org.apache.kafka.connect.data.Schema schema =
        SchemaBuilder.struct()
            .name("t.Small")
            .field("a", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .build();
    assertThatThrownBy(() -> converter.fromConnectData("small", schema, "not a struct"))
        .isExactlyInstanceOf(DataException.class)
        .hasMessageContaining("topic small");
  }

  @Test
  void configurationIsStrict() {
    assertThatThrownBy(
            () ->
                converter(
                    false, AvroConverterConfig.VALUE_SUBJECT_NAME_STRATEGY, "topicnamestrategy"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(AvroConverterConfig.VALUE_SUBJECT_NAME_STRATEGY);
    assertThatThrownBy(
            () ->
                converter(
                    false,
                    AvroConverterConfig.VALUE_SUBJECT_NAME_STRATEGY,
                    "com.acme.TopicNameStrategy"))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(
            () ->
                converter(
                    false, RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "SASL_INHERIT"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
    assertThatThrownBy(
            () ->
                converter(false, RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.BASIC_AUTH_USER_INFO);
    assertThatThrownBy(
            () ->
                converter(
                    false,
                    RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
                    "USER_INFO",
                    RegistrySecurityConfig.BASIC_AUTH_USER_INFO,
                    "no-colon-secret"))
        .isInstanceOf(ConfigException.class)
        .hasMessageNotContaining("no-colon-secret");
    assertThatThrownBy(() -> converter(false, AvroConverterConfig.USE_LATEST_VERSION, "true"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(AvroConverterConfig.AUTO_REGISTER_SCHEMAS);
    assertThatThrownBy(
            () ->
                converter(
                    false,
                    RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
                    "USER_INFO",
                    RegistrySecurityConfig.BASIC_AUTH_USER_INFO,
                    "u:p",
                    RegistrySecurityConfig.BEARER_AUTH_TOKEN,
                    "tok"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.BEARER_AUTH_TOKEN);
    assertThatThrownBy(
            () -> converter(false, RegistrySecurityConfig.BASIC_AUTH_USER_INFO, "u:unused-pw"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE + "=USER_INFO")
        .hasMessageNotContaining("unused-pw");
    assertThatThrownBy(() -> converter(false, AvroConverterConfig.SCHEMA_CACHE_SIZE, "0"))
        .isInstanceOf(ConfigException.class);
  }

  @Test
  void credentialsInAUrlAreNeverShown() {
    String url = registry.url().replace("http://", "http://fred:hunter2@");
    Map<String, String> props =
        Map.of(
            AvroConverter.SCHEMA_REGISTRY_URL,
            url,
            RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
            "NONE");
    assertThatThrownBy(() -> new AvroConverter().configure(props, false))
        .isInstanceOf(ConfigException.class)
        .hasMessageNotContaining("hunter2");
    AvroConverterConfig config =
        new AvroConverterConfig(Map.of(AvroConverter.SCHEMA_REGISTRY_URL, url));
    assertThat(config.endpoints().toString()).doesNotContain("hunter2").doesNotContain("fred");
    assertThat(urlErrors("ftp://fred:hunter2@host"))
        .singleElement()
        .asString()
        .doesNotContain("hunter2");
    AvroConverterConfig secret =
        new AvroConverterConfig(
            Map.of(
                AvroConverter.SCHEMA_REGISTRY_URL,
                registry.url(),
                RegistrySecurityConfig.BEARER_AUTH_TOKEN,
                "tok-hunter2"));
    assertThat(secret.values().toString()).doesNotContain("tok-hunter2");
  }

  @Test
  void definesTheKeysUsersKnow() {
    assertThat(AvroConverter.CONFIG_DEF.names())
        .contains(
            "schema.registry.url",
            "basic.auth.credentials.source",
            "basic.auth.user.info",
            "bearer.auth.token",
            "schema.registry.ssl.truststore.location",
            "schema.registry.ssl.truststore.password",
            "schema.registry.ssl.truststore.type",
            "schema.registry.ssl.keystore.location",
            "schema.registry.ssl.keystore.password",
            "schema.registry.ssl.keystore.type",
            "schema.registry.ssl.key.password",
            "auto.register.schemas",
            "use.latest.version",
            "key.subject.name.strategy",
            "value.subject.name.strategy",
            "schema.cache.size",
            "schema.registry.request.timeout-ms",
            "schema.registry.retries",
            "schema.registry.retry.backoff-ms",
            "schema.registry.retry.max-backoff-ms");
    assertThat(new AvroConverter().config()).isSameAs(AvroConverter.CONFIG_DEF);
  }
}
