/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A client of the Kafka Connect REST API: the only way tests talk to a worker. */
public final class ConnectRest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public ConnectRest(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** An HTTP answer: status and parsed JSON body (null when the body is empty). */
  public record Response(int status, JsonNode body) {
    public boolean ok() {
      return status / 100 == 2;
    }
  }

  public String baseUrl() {
    return baseUrl;
  }

  /** True once the worker has joined its cluster and answers {@code GET /connectors}. */
  public boolean isServing() {
    try {
      return send("GET", "/connectors", null).status() == 200;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  /** {@code GET /connector-plugins?connectorsOnly=false}: connectors, converters, transforms. */
  public List<JsonNode> plugins() {
    List<JsonNode> plugins = new ArrayList<>();
    expectOk(send("GET", "/connector-plugins?connectorsOnly=false", null)).forEach(plugins::add);
    return plugins;
  }

  /** {@code PUT /connector-plugins/{class}/config/validate}; the answer's JSON. */
  public JsonNode validate(String connectorClass, Map<String, String> config) {
    return expectOk(
        send(
            "PUT",
            "/connector-plugins/" + encode(connectorClass) + "/config/validate",
            json(config)));
  }

  /** Creates or updates a connector ({@code PUT /connectors/{name}/config}). */
  /** The error messages of a {@link #validate} answer, by config key; only keys with errors. */
  public static Map<String, List<String>> errorsByKey(JsonNode validation) {
    Map<String, List<String>> errors = new HashMap<>();
    for (JsonNode config : validation.path("configs")) {
      JsonNode value = config.path("value");
      List<String> messages = new ArrayList<>();
      value.path("errors").forEach(m -> messages.add(m.asText()));
      if (!messages.isEmpty()) {
        errors.put(value.path("name").asText(), messages);
      }
    }
    return errors;
  }

  public JsonNode putConnector(String name, Map<String, String> config) {
    return expectOk(send("PUT", "/connectors/" + encode(name) + "/config", json(config)));
  }

  public JsonNode status(String name) {
    return expectOk(send("GET", "/connectors/" + encode(name) + "/status", null));
  }

  public void deleteConnector(String name) {
    expectOk(send("DELETE", "/connectors/" + encode(name), null));
  }

  /**
   * Waits until the connector and {@code tasks} tasks are RUNNING. Fails at once, with the trace,
   * if the connector or a task FAILED.
   */
  public JsonNode awaitRunning(String name, int tasks, Duration timeout) {
    return Await.until(
        "connector " + name + " RUNNING with " + tasks + " task(s)",
        timeout,
        () -> {
          JsonNode status = statusIfKnown(name);
          if (status != null) {
            failIfFailed(name, status);
          }
          return status;
        },
        status -> status != null && isRunning(status, tasks));
  }

  /** The connector's status, or null while the worker does not know it (yet). */
  private JsonNode statusIfKnown(String name) {
    Response response = send("GET", "/connectors/" + encode(name) + "/status", null);
    return response.ok() ? response.body() : null;
  }

  /** Waits until some task of the connector is FAILED and returns that task's status. */
  public JsonNode awaitTaskFailed(String name, Duration timeout) {
    JsonNode status =
        Await.until(
            "a FAILED task of " + name,
            timeout,
            () -> statusIfKnown(name),
            s -> s != null && failedTask(s) != null);
    return failedTask(status);
  }

  /**
   * Waits until the connector or one of its tasks is FAILED and returns its trace: for failures
   * that may show on either, such as a refused login.
   */
  public String awaitFailure(String name, Duration timeout) {
    JsonNode status =
        Await.until(
            "connector " + name + " or a task of it FAILED",
            timeout,
            () -> statusIfKnown(name),
            s -> s != null && failure(s) != null);
    return failure(status);
  }

  private static String failure(JsonNode status) {
    if ("FAILED".equals(status.path("connector").path("state").asText())) {
      return status.path("connector").path("trace").asText();
    }
    JsonNode task = failedTask(status);
    return task == null ? null : task.path("trace").asText();
  }

  private static JsonNode failedTask(JsonNode status) {
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        return task;
      }
    }
    return null;
  }

  /**
   * Restarts every FAILED task, one by one (each call returns once the worker running the task has
   * restarted it), and waits until the status no longer shows them FAILED.
   *
   * @return the ids of the restarted tasks
   */
  public List<Integer> restartFailedTasks(String name) {
    List<Integer> restarted = new ArrayList<>();
    for (JsonNode task : status(name).path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        int id = task.path("id").asInt();
        expectOk(send("POST", "/connectors/" + encode(name) + "/tasks/" + id + "/restart", null));
        restarted.add(id);
      }
    }
    // the status topic shows the restart a little later: wait until no restarted task reads FAILED
    Await.until(
        "restarted tasks " + restarted + " of " + name + " to leave FAILED",
        Duration.ofSeconds(30),
        () -> !anyFailed(name, restarted));
    return restarted;
  }

  private boolean anyFailed(String name, List<Integer> tasks) {
    for (JsonNode task : status(name).path("tasks")) {
      if (tasks.contains(task.path("id").asInt()) && "FAILED".equals(task.path("state").asText())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isRunning(JsonNode status, int tasks) {
    if (!"RUNNING".equals(status.path("connector").path("state").asText())) {
      return false;
    }
    int running = 0;
    for (JsonNode task : status.path("tasks")) {
      if ("RUNNING".equals(task.path("state").asText())) {
        running++;
      }
    }
    return running == tasks;
  }

  private static void failIfFailed(String name, JsonNode status) {
    if ("FAILED".equals(status.path("connector").path("state").asText())) {
      throw new AssertionError(
          "Connector " + name + " FAILED: " + status.path("connector").path("trace").asText());
    }
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        throw new AssertionError(
            "Task " + task.path("id") + " of " + name + " FAILED: " + task.path("trace").asText());
      }
    }
  }

  private static JsonNode expectOk(Response response) {
    if (!response.ok()) {
      throw new IllegalStateException(
          "Connect REST answered " + response.status() + ": " + response.body());
    }
    return response.body();
  }

  /** Sends a request; {@code body} is JSON or null. */
  public Response send(String method, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(60))
            .header("Accept", "application/json");
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String text = response.body();
      JsonNode json = text == null || text.isBlank() ? null : JSON.readTree(text);
      return new Response(response.statusCode(), json);
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + baseUrl + path + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted: " + method + " " + path, e);
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot write JSON for " + value, e);
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
