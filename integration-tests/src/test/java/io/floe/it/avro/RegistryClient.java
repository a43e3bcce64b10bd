/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.avro;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.apache.avro.Schema;

/** Registers schemas with a Confluent-API schema registry, as a producer in a test would. */
public final class RegistryClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  private final String baseUrl;
  private final String authorization;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public RegistryClient(String baseUrl) {
    this(baseUrl, null);
  }

  /** A client that logs in with HTTP basic auth as {@code user:password}. */
  public RegistryClient(String baseUrl, String userInfo) {
    this.baseUrl = baseUrl;
    this.authorization =
        userInfo == null
            ? null
            : "Basic "
                + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code POST /subjects/{subject}/versions}; returns the schema's global id. */
  public int register(String subject, Schema schema) {
    String body = send("POST", "/versions", subject, Map.of("schema", schema.toString()));
    try {
      return JSON.readTree(body).path("id").asInt();
    } catch (IOException e) {
      throw new IllegalStateException("Not JSON from the schema registry: " + body, e);
    }
  }

  /**
   * {@code PUT /config/{subject}}: the subject's compatibility level, e.g. {@code NONE} to let a
   * producer register a schema that readers of older versions cannot read.
   */
  public void setCompatibility(String subject, String level) {
    send("PUT", null, subject, Map.of("compatibility", level));
  }

  /** Sends a JSON body to {@code /subjects/{subject}{path}}, or {@code /config/{subject}}. */
  private String send(String method, String subjectPath, String subject, Map<String, String> json) {
    String encoded = URLEncoder.encode(subject, StandardCharsets.UTF_8);
    String path = subjectPath == null ? "/config/" + encoded : "/subjects/" + encoded + subjectPath;
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(baseUrl + path))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", CONTENT_TYPE)
              .header("Accept", CONTENT_TYPE)
              .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(json)));
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            method + " " + path + " failed: " + response.statusCode() + " " + response.body());
      }
      return response.body();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot reach the schema registry at " + baseUrl, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted calling the schema registry", e);
    }
  }
}
