/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.avro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.Schema;

/** Registers schemas with a Confluent-API schema registry, as a producer in a test would. */
public final class RegistryClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  private final String baseUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public RegistryClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** {@code POST /subjects/{subject}/versions}; returns the schema's global id. */
  public int register(String subject, Schema schema) {
    try {
      String body = JSON.writeValueAsString(Map.of("schema", schema.toString()));
      HttpRequest request =
          HttpRequest.newBuilder(
                  URI.create(
                      baseUrl
                          + "/subjects/"
                          + URLEncoder.encode(subject, StandardCharsets.UTF_8)
                          + "/versions"))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", CONTENT_TYPE)
              .header("Accept", CONTENT_TYPE)
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "Registering under "
                + subject
                + " failed: "
                + response.statusCode()
                + " "
                + response.body());
      }
      JsonNode answer = JSON.readTree(response.body());
      return answer.path("id").asInt();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot reach the schema registry at " + baseUrl, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted registering a schema", e);
    }
  }
}
