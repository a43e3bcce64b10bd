/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.apache.avro.Schema;

/** Raw HTTP calls to a {@link SchemaRegistryServer}, for the tests of its API. */
final class RegistryTestClient {
  static final String REGISTRY_JSON = "application/vnd.schemaregistry.v1+json";

  static final String ORDER_V1 =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";

  /** {@link #ORDER_V1} written differently: other whitespace and attribute order. */
  static final String ORDER_V1_RESTYLED =
      "{ \"fields\" : [ { \"type\" : \"long\", \"name\" : \"id\" } ],\n"
          + "  \"name\" : \"Order\", \"type\" : \"record\" }";

  /** {@link #ORDER_V1} plus an optional field with a default: a backward-compatible change. */
  static final String ORDER_PLUS_OPTIONAL =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}";

  /** {@link #ORDER_V1} plus a required field: not backward compatible. */
  static final String ORDER_PLUS_REQUIRED =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"total\",\"type\":\"double\"}]}";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchemaRegistryServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  RegistryTestClient(SchemaRegistryServer server) {
    this.server = server;
  }

  /** An HTTP answer as received. */
  record Response(int status, String contentType, String text) {
    JsonNode json() {
      try {
        return JSON.readTree(text);
      } catch (IOException e) {
        throw new AssertionError("Not JSON: " + text, e);
      }
    }

    int errorCode() {
      return json().path("error_code").asInt();
    }

    String message() {
      return json().path("message").asText();
    }
  }

  /** A call with a registry JSON body (or none, when {@code body} is null). */
  Response call(String method, String path, String body) {
    return call(method, path, body, REGISTRY_JSON, null);
  }

  Response call(String method, String path, String body, String contentType, String authorization) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(10));
    if (contentType != null && body != null) {
      request.header("Content-Type", contentType);
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(null),
          response.body());
    } catch (IOException e) {
      throw new AssertionError(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(method + " " + path + " interrupted", e);
    }
  }

  /** Registers a schema, which must succeed, and returns its global id. */
  int register(String subject, String schema) {
    Response response = call("POST", "/subjects/" + subject + "/versions", schemaBody(schema));
    assertThat(response.status()).as(response.text()).isEqualTo(200);
    return response.json().get("id").asInt();
  }

  /** {@code {"schema":"..."}} */
  static String schemaBody(String schema) {
    ObjectNode body = JSON.createObjectNode();
    body.put("schema", schema);
    return body.toString();
  }

  /** The text the registry stores for a schema. */
  static String canonical(String schema) {
    return new Schema.Parser().parse(schema).toString();
  }

  static String basicAuth(String user, String password) {
    byte[] credentials = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(credentials);
  }
}
