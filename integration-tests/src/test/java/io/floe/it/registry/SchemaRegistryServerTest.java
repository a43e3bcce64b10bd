/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import static io.floe.it.registry.RegistryTestClient.ORDER_PLUS_OPTIONAL;
import static io.floe.it.registry.RegistryTestClient.ORDER_PLUS_REQUIRED;
import static io.floe.it.registry.RegistryTestClient.ORDER_V1;
import static io.floe.it.registry.RegistryTestClient.ORDER_V1_RESTYLED;
import static io.floe.it.registry.RegistryTestClient.REGISTRY_JSON;
import static io.floe.it.registry.RegistryTestClient.basicAuth;
import static io.floe.it.registry.RegistryTestClient.canonical;
import static io.floe.it.registry.RegistryTestClient.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.registry.RegistryTestClient.Response;
import io.floe.it.stack.Ports;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The registry's subjects and schemas endpoints, errors, auth and routing, over real HTTP. */
class SchemaRegistryServerTest {
  private SchemaRegistryServer registry;
  private RegistryTestClient client;

  @BeforeEach
  void startRegistry() {
    registry = SchemaRegistryServer.builder().build().start();
    client = new RegistryTestClient(registry);
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  private Response call(String method, String path, String body) {
    return client.call(method, path, body);
  }

  private Response call(String method, String path, String body, String type, String auth) {
    return client.call(method, path, body, type, auth);
  }

  private int register(String subject, String schema) {
    return client.register(subject, schema);
  }

  @Test
  void registeredSchemaIsServedByItsGlobalIdAsRegistryJson() {
    Response registered = call("POST", "/subjects/orders-value/versions", schemaBody(ORDER_V1));
    assertThat(registered.status()).isEqualTo(200);
    assertThat(registered.contentType()).isEqualTo(REGISTRY_JSON);
    assertThat(registered.text()).isEqualTo("{\"id\":1}");

    Response byId = call("GET", "/schemas/ids/1", null);
    assertThat(byId.status()).isEqualTo(200);
    assertThat(byId.contentType()).isEqualTo(REGISTRY_JSON);
    assertThat(byId.json().fieldNames()).toIterable().containsExactly("schema");
    assertThat(byId.json().get("schema").asText()).isEqualTo(canonical(ORDER_V1));

    Response text = call("GET", "/schemas/ids/1/schema", null);
    assertThat(text.status()).isEqualTo(200);
    assertThat(text.text()).isEqualTo(canonical(ORDER_V1));
  }

  @Test
  void sameSchemaInAnotherSubjectKeepsItsGlobalIdAndGetsThatSubjectsOwnVersion() {
    int ordersId = register("orders-value", ORDER_V1);
    register("payments-value", ORDER_PLUS_OPTIONAL);
    int auditId = register("audit-value", ORDER_PLUS_OPTIONAL);
    int reusedId = register("audit-value", ORDER_V1);

    assertThat(reusedId).isEqualTo(ordersId);
    assertThat(auditId).isNotEqualTo(ordersId);
    Response auditLatest = call("GET", "/subjects/audit-value/versions/latest", null);
    assertThat(auditLatest.json().get("version").asInt()).isEqualTo(2);
    assertThat(auditLatest.json().get("id").asInt()).isEqualTo(ordersId);

    Response versions = call("GET", "/schemas/ids/" + ordersId + "/versions", null);
    assertThat(versions.status()).isEqualTo(200);
    assertThat(versions.json().toString())
        .isEqualTo(
            "[{\"subject\":\"audit-value\",\"version\":2},"
                + "{\"subject\":\"orders-value\",\"version\":1}]");
    Response subjects = call("GET", "/schemas/ids/" + ordersId + "/subjects", null);
    assertThat(subjects.json().toString()).isEqualTo("[\"audit-value\",\"orders-value\"]");
  }

  @Test
  void reRegisteringAnEquivalentSchemaReturnsTheSameIdWithoutANewVersion() {
    int first = register("orders-value", ORDER_V1);
    int again = register("orders-value", ORDER_V1_RESTYLED);
    int third = register("orders-value", ORDER_V1);

    assertThat(again).isEqualTo(first);
    assertThat(third).isEqualTo(first);
    assertThat(call("GET", "/subjects/orders-value/versions", null).json().toString())
        .isEqualTo("[1]");
  }

  @Test
  void unknownSchemaIdIsNotFoundWithErrorCode40403() {
    Response response = call("GET", "/schemas/ids/7", null);

    assertThat(response.status()).isEqualTo(404);
    assertThat(response.contentType()).isEqualTo(REGISTRY_JSON);
    assertThat(response.text())
        .isEqualTo("{\"error_code\":40403,\"message\":\"Schema 7 not found\"}");
    assertThat(call("GET", "/schemas/ids/7/versions", null).errorCode()).isEqualTo(40403);
    assertThat(call("GET", "/schemas/ids/abc", null).errorCode()).isEqualTo(404);
  }

  @Test
  void schemaTypesAreAvroOnly() {
    Response response = call("GET", "/schemas/types", null);

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.text()).isEqualTo("[\"AVRO\"]");
  }

  @Test
  void subjectsAndTheirVersionsAreListed() {
    register("orders-value", ORDER_V1);
    register("orders-value", ORDER_PLUS_OPTIONAL);
    register("customers-key", "\"string\"");

    assertThat(call("GET", "/subjects", null).text())
        .isEqualTo("[\"customers-key\",\"orders-value\"]");
    assertThat(call("GET", "/subjects/orders-value/versions", null).text()).isEqualTo("[1,2]");

    Response unknown = call("GET", "/subjects/nope/versions", null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.text())
        .isEqualTo("{\"error_code\":40401,\"message\":\"Subject 'nope' not found.\"}");
  }

  @Test
  void aVersionIsFoundByNumberByLatestAndByMinusOne() {
    int v1 = register("orders-value", ORDER_V1);
    int v2 = register("orders-value", ORDER_PLUS_OPTIONAL);

    JsonNode first = call("GET", "/subjects/orders-value/versions/1", null).json();
    assertThat(first.get("subject").asText()).isEqualTo("orders-value");
    assertThat(first.get("version").asInt()).isEqualTo(1);
    assertThat(first.get("id").asInt()).isEqualTo(v1);
    assertThat(first.get("schema").asText()).isEqualTo(canonical(ORDER_V1));
    assertThat(first.has("schemaType")).isFalse();
    for (String latest : List.of("latest", "-1")) {
      JsonNode newest = call("GET", "/subjects/orders-value/versions/" + latest, null).json();
      assertThat(newest.get("version").asInt()).as(latest).isEqualTo(2);
      assertThat(newest.get("id").asInt()).as(latest).isEqualTo(v2);
    }

    Response bare = call("GET", "/subjects/orders-value/versions/latest/schema", null);
    assertThat(bare.status()).isEqualTo(200);
    assertThat(bare.text()).isEqualTo(canonical(ORDER_PLUS_OPTIONAL));
  }

  @Test
  void unknownVersionIs40402AndUnknownSubjectIs40401() {
    register("orders-value", ORDER_V1);

    Response missingVersion = call("GET", "/subjects/orders-value/versions/3", null);
    assertThat(missingVersion.status()).isEqualTo(404);
    assertThat(missingVersion.text())
        .isEqualTo("{\"error_code\":40402,\"message\":\"Version 3 not found.\"}");
    Response missingSubject = call("GET", "/subjects/nope/versions/1", null);
    assertThat(missingSubject.status()).isEqualTo(404);
    assertThat(missingSubject.errorCode()).isEqualTo(40401);
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "0", "-2", "1.5", "99999999999"})
  void invalidVersionIs42202(String version) {
    register("orders-value", ORDER_V1);

    Response response = call("GET", "/subjects/orders-value/versions/" + version, null);

    assertThat(response.status()).isEqualTo(422);
    assertThat(response.errorCode()).isEqualTo(42202);
    assertThat(response.message()).contains("'" + version + "'");
  }

  @Test
  void lookupFindsTheVersionHoldingAnEquivalentSchema() {
    register("orders-value", ORDER_V1);
    int id = register("orders-value", ORDER_PLUS_OPTIONAL);

    Response found = call("POST", "/subjects/orders-value", schemaBody(ORDER_PLUS_OPTIONAL));
    assertThat(found.status()).isEqualTo(200);
    assertThat(found.json().get("subject").asText()).isEqualTo("orders-value");
    assertThat(found.json().get("version").asInt()).isEqualTo(2);
    assertThat(found.json().get("id").asInt()).isEqualTo(id);
    assertThat(found.json().get("schema").asText()).isEqualTo(canonical(ORDER_PLUS_OPTIONAL));

    Response notInSubject = call("POST", "/subjects/orders-value", schemaBody(ORDER_PLUS_REQUIRED));
    assertThat(notInSubject.status()).isEqualTo(404);
    assertThat(notInSubject.text())
        .isEqualTo("{\"error_code\":40403,\"message\":\"Schema not found\"}");
    Response noSubject = call("POST", "/subjects/nope", schemaBody(ORDER_V1));
    assertThat(noSubject.status()).isEqualTo(404);
    assertThat(noSubject.errorCode()).isEqualTo(40401);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"type\":\"record\",\"fields\":[]}",
        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
            + "\"default\":\"x\"}]}",
        "{\"type\":\"recrod\",\"name\":\"R\",\"fields\":[]}",
        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"Missing\"}]}",
        "{not json",
        ""
      })
  void invalidAvroIsRejectedWith42201(String schema) {
    Response response = call("POST", "/subjects/orders-value/versions", schemaBody(schema));

    assertThat(response.status()).as(response.text()).isEqualTo(422);
    assertThat(response.errorCode()).isEqualTo(42201);
    assertThat(response.message()).startsWith("Invalid schema");
    assertThat(call("GET", "/subjects", null).text()).isEqualTo("[]");
  }

  @Test
  void otherSchemaTypesAndReferencesAreRejectedWith42201() {
    Response protobuf =
        call(
            "POST",
            "/subjects/orders-value/versions",
            "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}");
    assertThat(protobuf.status()).isEqualTo(422);
    assertThat(protobuf.errorCode()).isEqualTo(42201);

    Response references =
        call(
            "POST",
            "/subjects/orders-value/versions",
            "{\"schema\":\"\\\"string\\\"\",\"references\":"
                + "[{\"name\":\"x\",\"subject\":\"y\",\"version\":1}]}");
    assertThat(references.status()).isEqualTo(422);
    assertThat(references.errorCode()).isEqualTo(42201);

    Response explicitAvro =
        call(
            "POST",
            "/subjects/orders-value/versions",
            "{\"schemaType\":\"AVRO\",\"schema\":\"\\\"string\\\"\",\"references\":[]}");
    assertThat(explicitAvro.status()).isEqualTo(200);
  }

  @Test
  void malformedBodiesAre400AndAMissingBodyIs422() {
    Response notJson = call("POST", "/subjects/orders-value/versions", "{\"schema\": ");
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.errorCode()).isEqualTo(400);
    Response notAnObject = call("POST", "/subjects/orders-value/versions", "[1,2]");
    assertThat(notAnObject.status()).isEqualTo(400);
    assertThat(notAnObject.errorCode()).isEqualTo(400);
    Response schemaNotText =
        call("POST", "/subjects/orders-value/versions", "{\"schema\":{\"type\":\"string\"}}");
    assertThat(schemaNotText.status()).isEqualTo(400);
    Response empty = call("POST", "/subjects/orders-value/versions", "");
    assertThat(empty.status()).isEqualTo(422);
    assertThat(empty.errorCode()).isEqualTo(422);
  }

  @Test
  void basicAuthTurnsAwayMissingAndWrongCredentialsWith401() {
    try (SchemaRegistryServer secured =
        SchemaRegistryServer.builder().basicAuth("connect", "s3cret").build().start()) {
      RegistryTestClient securedClient = new RegistryTestClient(secured);
      Response none = securedClient.call("GET", "/subjects", null, null, null);
      assertThat(none.status()).isEqualTo(401);
      assertThat(none.contentType()).isEqualTo(REGISTRY_JSON);
      assertThat(none.text()).isEqualTo("{\"error_code\":401,\"message\":\"Unauthorized\"}");

      Response wrong =
          securedClient.call("GET", "/subjects", null, null, basicAuth("connect", "guess"));
      assertThat(wrong.status()).isEqualTo(401);
      Response garbage = securedClient.call("GET", "/subjects", null, null, "Basic !!!");
      assertThat(garbage.status()).isEqualTo(401);
      assertThat(secured.requestCount(Endpoint.LIST_SUBJECTS)).isZero();

      Response right =
          securedClient.call("GET", "/subjects", null, null, basicAuth("connect", "s3cret"));
      assertThat(right.status()).isEqualTo(200);
      assertThat(right.text()).isEqualTo("[]");
      assertThat(secured.requestCount(Endpoint.LIST_SUBJECTS)).isEqualTo(1);
    }
  }

  @Test
  void unknownPathIs404AndWrongMethodIs405() {
    Response unknown = call("GET", "/nothing/here", null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo(404);
    assertThat(unknown.contentType()).isEqualTo(REGISTRY_JSON);

    Response wrongMethod = call("PUT", "/subjects", "{}");
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.errorCode()).isEqualTo(405);
    assertThat(call("DELETE", "/schemas/ids/1", null).status()).isEqualTo(405);
    Response head = call("HEAD", "/subjects", null);
    assertThat(head.status()).isEqualTo(405);
    assertThat(head.text()).isEmpty();
    assertThat(call("GET", "/", null).text()).isEqualTo("{}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "application/vnd.schemaregistry.v1+json",
        "application/vnd.schemaregistry+json",
        "application/json",
        "application/json; charset=utf-8"
      })
  void registryAndPlainJsonBodiesAreAccepted(String contentType) {
    Response response =
        call("POST", "/subjects/s/versions", schemaBody(ORDER_V1), contentType, null);

    assertThat(response.status()).isEqualTo(200);
  }

  @Test
  void aBodyThatIsNotJsonByItsContentTypeIs415() {
    Response response =
        call("POST", "/subjects/s/versions", schemaBody(ORDER_V1), "text/plain", null);

    assertThat(response.status()).isEqualTo(415);
    assertThat(response.errorCode()).isEqualTo(415);
  }

  @Test
  void subjectNamesArePercentDecoded() {
    register("orders.v1%2Dvalue", ORDER_V1);
    register("my%20topic%2Fpart-value", ORDER_V1);
    register("a+b", ORDER_V1);

    assertThat(call("GET", "/subjects", null).text())
        .isEqualTo("[\"a+b\",\"my topic/part-value\",\"orders.v1-value\"]");
    JsonNode version = call("GET", "/subjects/orders.v1-value/versions/1", null).json();
    assertThat(version.get("subject").asText()).isEqualTo("orders.v1-value");
    assertThat(call("GET", "/subjects/my%20topic%2Fpart-value/versions", null).text())
        .isEqualTo("[1]");
  }

  @Test
  void requestsAreCountedPerEndpoint() {
    int id = register("orders-value", ORDER_V1);
    call("GET", "/schemas/ids/" + id, null);
    call("GET", "/schemas/ids/" + id, null);
    call("GET", "/schemas/ids/999", null);
    call("GET", "/no/such/path", null);

    assertThat(registry.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(3);
    assertThat(registry.requestCount(Endpoint.REGISTER_SCHEMA)).isEqualTo(1);
    assertThat(registry.requestCount(Endpoint.GET_VERSION)).isZero();

    registry.resetRequestCounts();
    assertThat(registry.requestCount(Endpoint.SCHEMA_BY_ID)).isZero();
    call("GET", "/schemas/ids/" + id, null);
    assertThat(registry.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(1);
  }

  @Test
  void concurrentRegistrationsOfOneSchemaShareOneIdAndOneVersion() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        String subject = "topic-" + (i % 4) + "-value";
        tasks.add(() -> register(subject, ORDER_V1));
      }
      List<Integer> ids = new ArrayList<>();
      for (Future<Integer> future : pool.invokeAll(tasks)) {
        ids.add(future.get());
      }

      assertThat(ids).containsOnly(1);
      for (int i = 0; i < 4; i++) {
        assertThat(call("GET", "/subjects/topic-" + i + "-value/versions", null).text())
            .isEqualTo("[1]");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void serverListensOnTheGivenPortAndStartsOnlyOnce() {
    int port = Ports.free();
    try (SchemaRegistryServer fixed = SchemaRegistryServer.builder().port(port).build().start()) {
      assertThat(fixed.url()).isEqualTo("http://127.0.0.1:" + port);
      assertThat(new RegistryTestClient(fixed).call("GET", "/subjects", null, null, null).status())
          .isEqualTo(200);
      assertThatThrownBy(fixed::start).isInstanceOf(IllegalStateException.class);
    }
    assertThat(Ports.isOpen(port)).isFalse();
  }
}
