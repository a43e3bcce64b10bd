/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends requests to the schema registry: over the URLs in turn (starting with the last one that
 * answered), with authentication, and with rounds of retries and exponential backoff when no URL
 * answers. A connection failure, a timeout and a 5xx answer move on to the next URL; every other
 * answer is returned, except 401 and 403, which no other URL or retry would change.
 */
final class RegistryTransport {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryTransport.class);
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final String ACCEPT =
      CONTENT_TYPE + ", application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";

  /** Waits between retry rounds; a seam for tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /** An answer from one URL: its status and body. */
  record Response(RegistryEndpoint endpoint, int status, String body) {
    boolean ok() {
      return status / 100 == 2;
    }
  }

  private final List<RegistryEndpoint> endpoints;
  private final HttpClient http;
  private final Duration requestTimeout;
  private final RetryPolicy retryPolicy;
  private final Sleeper sleeper;
  private volatile int preferred;

  RegistryTransport(
      List<RegistryEndpoint> endpoints,
      HttpClient http,
      Duration requestTimeout,
      RetryPolicy retryPolicy,
      Sleeper sleeper) {
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("A schema registry client needs at least one URL");
    }
    this.endpoints = List.copyOf(endpoints);
    this.http = http;
    this.requestTimeout = requestTimeout;
    this.retryPolicy = retryPolicy;
    this.sleeper = sleeper;
  }

  /**
   * {@code GET} a path, e.g. {@code /schemas/ids/7}.
   *
   * @throws SchemaRegistryException when no URL answered through all retries, or on 401/403
   */
  Response get(String path) {
    return send("GET", path, null);
  }

  /** {@code POST} a JSON body to a path. */
  Response post(String path, String json) {
    return send("POST", path, json);
  }

  private Response send(String method, String path, String json) {
    String lastFailure = null;
    for (int round = 0; ; round++) {
      if (round > 0) {
        Duration wait = retryPolicy.backoffBefore(round);
        LOG.warn(
            "No schema registry URL of {} answered {} {} ({}); retry {} of {} in {} ms",
            endpoints,
            method,
            path,
            lastFailure,
            round,
            retryPolicy.retries(),
            wait.toMillis());
        pause(wait);
      }
      int start = preferred;
      for (int i = 0; i < endpoints.size(); i++) {
        int index = (start + i) % endpoints.size();
        RegistryEndpoint endpoint = endpoints.get(index);
        try {
          HttpResponse<String> answer = http.send(request(endpoint, method, path, json), body());
          int status = answer.statusCode();
          if (status / 100 == 5) {
            lastFailure = endpoint + " answered " + status;
            continue;
          }
          preferred = index;
          refuseUnauthorized(endpoint, status);
          return new Response(endpoint, status, answer.body() == null ? "" : answer.body());
        } catch (IOException e) {
          lastFailure = endpoint + ": " + e.getClass().getSimpleName() + describe(e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SchemaRegistryException(
              "Interrupted calling the schema registry at " + endpoint);
        }
      }
      if (round >= retryPolicy.retries()) {
        throw new SchemaRegistryException(
            "The schema registry is unavailable: "
                + method
                + " "
                + path
                + " failed on every URL of "
                + endpoints
                + " in "
                + (round + 1)
                + " rounds; last: "
                + lastFailure);
      }
    }
  }

  private HttpRequest request(RegistryEndpoint endpoint, String method, String path, String json) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint.resolve(path))
            .timeout(requestTimeout)
            .header("Accept", ACCEPT);
    endpoint.authorization().ifPresent(value -> request.header("Authorization", value));
    if (json == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", CONTENT_TYPE)
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    }
    return request.build();
  }

  private static HttpResponse.BodyHandler<String> body() {
    return HttpResponse.BodyHandlers.ofString();
  }

  private static void refuseUnauthorized(RegistryEndpoint endpoint, int status) {
    if (status == 401) {
      throw new SchemaRegistryException(
          "Authentication to the schema registry at "
              + endpoint
              + " failed (HTTP 401): check basic.auth.credentials.source, basic.auth.user.info"
              + " or bearer.auth.token");
    }
    if (status == 403) {
      throw new SchemaRegistryException(
          "Authorization by the schema registry at "
              + endpoint
              + " failed (HTTP 403): the configured user may not read or write these schemas");
    }
  }

  private static String describe(IOException e) {
    return e.getMessage() == null ? "" : " " + e.getMessage();
  }

  private void pause(Duration wait) {
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException("Interrupted waiting to retry the schema registry");
    }
  }

  /** The JDK client the converter uses: HTTP/1.1, no redirects, the given TLS context. */
  static HttpClient newHttpClient(AvroConverterConfig config) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(config.requestTimeout());
    config.sslContext().ifPresent(builder::sslContext);
    return builder.build();
  }
}
