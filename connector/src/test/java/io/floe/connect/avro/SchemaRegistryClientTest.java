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
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SchemaRegistryClientTest {
  private static final Schema ORDER =
      SchemaBuilder.record("Order").namespace("com.example").fields().requiredInt("a").endRecord();

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

  private SchemaRegistryClient client(String urls, String... settings) {
    Map<String, String> props = new HashMap<>();
    props.put(AvroConverterConfig.SCHEMA_REGISTRY_URL, urls);
    props.put(AvroConverterConfig.RETRY_BACKOFF_MS, "100");
    props.put(AvroConverterConfig.RETRY_MAX_BACKOFF_MS, "250");
    props.put(AvroConverterConfig.REQUEST_TIMEOUT_MS, "5000");
    for (int i = 0; i < settings.length; i += 2) {
      props.put(settings[i], settings[i + 1]);
    }
    return SchemaRegistryClient.create(new AvroConverterConfig(props), sleeps::add);
  }

  @Test
  void fetchesEachIdOnceHoweverOftenItIsAskedFor() {
    int id = registry.add("orders-value", ORDER);
    SchemaRegistryClient client = client(registry.url());
    for (int i = 0; i < 100; i++) {
      assertThat(client.schemaById(id)).isEqualTo(ORDER);
    }
    assertThat(registry.count("GET /schemas/ids/" + id)).isEqualTo(1);
  }

  @Test
  void concurrentMissesOfOneIdMakeOneRequest() throws Exception {
    int id = registry.add("orders-value", ORDER);
    SchemaRegistryClient client = client(registry.url());
    registry.hold();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Schema>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        results.add(threads.submit(() -> client.schemaById(id)));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (registry.count("GET /schemas/ids/" + id) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Thread.sleep(200); // the other threads are now waiting, not requesting
      registry.open();
      for (Future<Schema> result : results) {
        assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(ORDER);
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(registry.count("GET /schemas/ids/" + id)).isEqualTo(1);
  }

  @Test
  void unknownIdIsABadRecordNamingIdAndRegistryAndIsNotRetried() {
    SchemaRegistryClient client = client(registry.url());
    assertThatThrownBy(() -> client.schemaById(42))
        .isExactlyInstanceOf(DataException.class)
        .hasMessage("Schema id 42 not found in registry " + registry.url());
    assertThat(registry.count("GET /schemas/ids/42")).isEqualTo(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void failsOverFromAnUnreachableUrlToTheNext() {
    int id = registry.add("orders-value", ORDER);
    SchemaRegistryClient client = client(FakeRegistry.deadUrl() + "," + registry.url());
    assertThat(client.schemaById(id)).isEqualTo(ORDER);
    assertThat(sleeps).as("failover needs no backoff").isEmpty();
  }

  @Test
  void failsOverFromAUrlAnswering5xxToTheNext() {
    try (FakeRegistry broken = FakeRegistry.start()) {
      broken.answerAll(500);
      int id = registry.add("orders-value", ORDER);
      SchemaRegistryClient client = client(broken.url() + "," + registry.url());
      assertThat(client.schemaById(id)).isEqualTo(ORDER);
      client.register("other-value", ORDER);
      assertThat(broken.totalRequests()).as("the answering URL is preferred afterwards").isOne();
    }
  }

  @Test
  void retriesRoundsWithExponentialBackoffUntilTheRegistryAnswers() {
    int id = registry.add("orders-value", ORDER);
    registry.failNext(3, 503);
    SchemaRegistryClient client = client(registry.url(), AvroConverterConfig.RETRIES, "5");
    assertThat(client.schemaById(id)).isEqualTo(ORDER);
    assertThat(sleeps)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(250));
  }

  @Test
  void givesUpAfterTheLastRetryAsARegistryFailure() {
    registry.answerAll(503);
    String dead = FakeRegistry.deadUrl();
    SchemaRegistryClient client =
        client(dead + "," + registry.url(), AvroConverterConfig.RETRIES, "2");
    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("unavailable")
        .hasMessageContaining("3 rounds")
        .hasMessageContaining(registry.url() + " answered 503")
        .hasMessageContaining(dead);
    assertThat(registry.count("GET /schemas/ids/1")).isEqualTo(3);
    assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void refusedCredentialsAreARegistryFailureWithoutRetries() {
    registry.requireAuthorization("Basic nobody");
    SchemaRegistryClient client =
        client(
            registry.url() + "," + FakeRegistry.deadUrl(),
            RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
            "USER_INFO",
            RegistrySecurityConfig.BASIC_AUTH_USER_INFO,
            "fred:s3cret-pw");
    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("Authentication")
        .hasMessageContaining("401")
        .hasMessageNotContaining("s3cret-pw")
        .hasMessageNotContaining("fred");
    assertThat(registry.totalRequests()).isOne();
    assertThat(sleeps).isEmpty();
  }

  @Test
  void forbiddenAccessIsARegistryFailure() {
    registry.answerAll(403);
    SchemaRegistryClient client = client(registry.url());
    assertThatThrownBy(() -> client.register("orders-value", ORDER))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("Authorization")
        .hasMessageContaining("403");
  }

  @Test
  void sendsBasicAuthFromUserInfo() {
    String header = basic("fred:s3cret-pw");
    registry.requireAuthorization(header);
    int id = registry.add("orders-value", ORDER);
    SchemaRegistryClient client =
        client(
            registry.url(),
            RegistrySecurityConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
            "USER_INFO",
            RegistrySecurityConfig.BASIC_AUTH_USER_INFO,
            "fred:s3cret-pw");
    assertThat(client.schemaById(id)).isEqualTo(ORDER);
    assertThat(registry.authorizations()).containsOnly(header);
  }

  @Test
  void sendsBasicAuthFromTheUrlByDefault() {
    String header = basic("fred:p@ss:word");
    registry.requireAuthorization(header);
    int id = registry.add("orders-value", ORDER);
    String url = registry.url().replace("http://", "http://fred:p%40ss%3Aword@");
    assertThat(client(url).schemaById(id)).isEqualTo(ORDER);
    assertThat(registry.authorizations()).containsOnly(header);
  }

  @Test
  void sendsABearerToken() {
    registry.requireAuthorization("Bearer t0ken");
    int id = registry.add("orders-value", ORDER);
    SchemaRegistryClient client =
        client(registry.url(), RegistrySecurityConfig.BEARER_AUTH_TOKEN, "t0ken");
    assertThat(client.schemaById(id)).isEqualTo(ORDER);
  }

  @Test
  void sendsNoCredentialsUnlessConfigured() {
    int id = registry.add("orders-value", ORDER);
    client(registry.url()).schemaById(id);
    assertThat(registry.authorizations()).containsOnlyNulls();
  }

  @Test
  void registersAndLooksUpUnderASubject() {
    SchemaRegistryClient client = client(registry.url());
    assertThatThrownBy(() -> client.lookup("orders-value", ORDER))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("not registered under subject orders-value");
    int id = client.register("orders-value", ORDER);
    assertThat(client.lookup("orders-value", ORDER)).isEqualTo(id);
    assertThat(registry.count("POST /subjects/orders-value/versions")).isOne();
    assertThat(registry.count("POST /subjects/orders-value")).isEqualTo(2);
  }

  @Test
  void encodesSubjectsInPaths() {
    SchemaRegistryClient client = client(registry.url());
    client.register("a b/c-value", ORDER);
    assertThat(registry.count("POST /subjects/a%20b%2Fc-value/versions")).isOne();
  }

  @Test
  void readsTheLatestVersionOncePerSubject() {
    registry.add("orders-value", ORDER);
    Schema v2 =
        SchemaBuilder.record("Order")
            .namespace("com.example")
            .fields()
            .requiredInt("a")
            .optionalString("b")
            .endRecord();
    int id2 = registry.add("orders-value", v2);
    SchemaRegistryClient client = client(registry.url());
    assertThat(client.latest("orders-value"))
        .isEqualTo(new SchemaRegistryClient.RegisteredSchema(id2, v2));
    client.latest("orders-value");
    assertThat(registry.count("GET /subjects/orders-value/versions/latest")).isOne();
    assertThatThrownBy(() -> client.latest("nothing-value"))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("Subject nothing-value has no schema");
  }

  @Test
  void resolvesSchemaReferences() {
    Schema address =
        SchemaBuilder.record("Address")
            .namespace("com.example")
            .fields()
            .requiredString("city")
            .endRecord();
    registry.add("address", address);
    int id =
        registry.addWithReference(
            "customers-value",
            "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.example\","
                + "\"fields\":[{\"name\":\"home\",\"type\":\"Address\"}]}",
            "address");
    Schema customer = client(registry.url()).schemaById(id);
    assertThat(customer.getField("home").schema()).isEqualTo(address);
    assertThat(registry.count("GET /subjects/address/versions/1")).isOne();
  }

  @Test
  void anAnswerFromSomethingElseThanTheRegistryApiIsARegistryFailure() {
    SchemaRegistryClient client = client(registry.url() + "/not-the-api");
    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining("base URL");
  }

  @Test
  void readsASubjectsOwnLevelElseTheGlobalOne() {
    registry.level("orders-value", "FULL_TRANSITIVE");
    registry.globalLevel("NONE");
    SchemaRegistryClient client = client(registry.url());
    assertThat(client.compatibilityLevel("orders-value")).isEqualTo("FULL_TRANSITIVE");
    assertThat(client.compatibilityLevel("payments-value")).isEqualTo("NONE");
    assertThat(registry.count("GET /config")).isZero();
  }

  @Test
  void readsTheGlobalLevelWhenTheRegistryHasNoneForTheSubjectAndIgnoresDefaultToGlobal() {
    registry.globalLevel("FORWARD");
    registry.ignoreDefaultToGlobal();
    assertThat(client(registry.url()).compatibilityLevel("orders-value")).isEqualTo("FORWARD");
    assertThat(registry.count("GET /config/orders-value")).isOne();
    assertThat(registry.count("GET /config")).isOne();
  }

  @Test
  void aLevelRequestTheRegistryFailsIsARegistryFailure() {
    registry.answerAll(500);
    SchemaRegistryClient client = client(registry.url(), AvroConverterConfig.RETRIES, "0");
    assertThatThrownBy(() -> client.compatibilityLevel("orders-value"))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("GET /config/orders-value?defaultToGlobal=true");
  }

  private static String basic(String userInfo) {
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }
}
