/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * A few endpoints of the Confluent Schema Registry API on a JDK HTTP server, with request counts
 * and switches for failures: enough to test the client against real HTTP.
 */
public final class FakeRegistry implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Map<Integer, String> schemas = new ConcurrentHashMap<>();
  private final Map<Integer, String> references = new ConcurrentHashMap<>();
  private final Map<String, List<Integer>> subjects = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Map<String, String> levels = new ConcurrentHashMap<>();
  private volatile String globalLevel = "BACKWARD";
  private volatile boolean defaultToGlobalIgnored;
  private volatile int failureStatus = 503;
  private volatile String requiredAuthorization;
  private volatile int fixedStatus;
  private volatile CountDownLatch gate;

  private FakeRegistry() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.createContext("/", this::handle);
    server.start();
  }

  public static FakeRegistry start() {
    return new FakeRegistry();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** A URL nothing listens on. */
  public static String deadUrl() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The id the next new schema gets; ids count up from 1 by default. */
  void nextId(int id) {
    nextId.set(id);
  }

  /** Registers a schema directly; returns its id. */
  public int add(String subject, Schema schema) {
    return register(subject, schema.toString());
  }

  /** Registers schema text that refers to a type of another subject's version 1 by name. */
  int addWithReference(String subject, String schemaText, String referencedSubject) {
    int id = register(subject, schemaText);
    references.put(id, referencedSubject);
    return id;
  }

  /** How many requests came for a method and path, e.g. {@code GET /schemas/ids/1}. */
  public int count(String methodAndPath) {
    AtomicInteger count = counts.get(methodAndPath);
    return count == null ? 0 : count.get();
  }

  public int totalRequests() {
    return counts.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** The Authorization headers received, in order (null when absent). */
  List<String> authorizations() {
    synchronized (authorizations) {
      return new ArrayList<>(authorizations);
    }
  }

  /** Sets a subject's own compatibility level. */
  public void level(String subject, String level) {
    levels.put(subject, level);
  }

  /** Sets the global compatibility level ({@code BACKWARD} by default). */
  public void globalLevel(String level) {
    globalLevel = level;
  }

  /**
   * Answers {@code GET /config/{subject}} of a subject without a level of its own with 404 error
   * 40408 even with {@code defaultToGlobal=true}, as registries that do not read it do.
   */
  public void ignoreDefaultToGlobal() {
    defaultToGlobalIgnored = true;
  }

  /** Answers the next {@code n} requests with this 5xx status. */
  void failNext(int n, int status) {
    failureStatus = status;
    failuresLeft.set(n);
  }

  /** Answers every request with this status and a registry error body. */
  void answerAll(int status) {
    fixedStatus = status;
  }

  /** Refuses requests without exactly this Authorization header with 401. */
  public void requireAuthorization(String header) {
    requiredAuthorization = header;
  }

  /** Holds schema-by-id answers until {@link #open()}. */
  void hold() {
    gate = new CountDownLatch(1);
  }

  void open() {
    gate.countDown();
  }

  private synchronized int register(String subject, String schema) {
    for (Map.Entry<Integer, String> entry : schemas.entrySet()) {
      if (entry.getValue().equals(schema)) {
        subjects.computeIfAbsent(subject, s -> new ArrayList<>()).add(entry.getKey());
        return entry.getKey();
      }
    }
    int id = nextId.getAndIncrement();
    schemas.put(id, schema);
    subjects.computeIfAbsent(subject, s -> new ArrayList<>()).add(id);
    return id;
  }

  private void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    byte[] body = exchange.getRequestBody().readAllBytes();
    authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
    counts.computeIfAbsent(method + " " + path, k -> new AtomicInteger()).incrementAndGet();
    Object[] reply;
    try {
      reply = answer(exchange, method, path, body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reply = error(500, 50001, "interrupted");
    }
    byte[] bytes = JSON.writeValueAsBytes(reply[1]);
    exchange.getResponseHeaders().set("Content-Type", RegistryTransport.CONTENT_TYPE);
    exchange.sendResponseHeaders((Integer) reply[0], bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private Object[] answer(HttpExchange exchange, String method, String path, byte[] body)
      throws IOException, InterruptedException {
    String required = requiredAuthorization;
    if (required != null
        && !required.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return error(401, 401, "Unauthorized");
    }
    if (fixedStatus != 0) {
      return error(fixedStatus, fixedStatus, "fixed answer");
    }
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return error(failureStatus, failureStatus * 100, "failing on purpose");
    }
    String[] parts = path.substring(1).split("/");
    if (method.equals("GET") && parts[0].equals("config")) {
      return level(parts, exchange.getRequestURI().getRawQuery());
    }
    if (method.equals("GET") && parts.length == 3 && parts[0].equals("schemas")) {
      CountDownLatch held = gate;
      if (held != null) {
        held.await(10, TimeUnit.SECONDS);
      }
      return schemaById(Integer.parseInt(parts[2]));
    }
    if (parts.length >= 2 && parts[0].equals("subjects")) {
      String subject = URLDecoder.decode(parts[1], StandardCharsets.UTF_8);
      if (method.equals("POST") && parts.length == 3) {
        String schema =
            new Schema.Parser().parse(JSON.readTree(body).path("schema").asText()).toString();
        return new Object[] {200, Map.of("id", register(subject, schema))};
      }
      List<Integer> versions = subjects.get(subject);
      if (versions == null) {
        return error(404, 40401, "Subject '" + subject + "' not found.");
      }
      if (method.equals("POST") && parts.length == 2) {
        String schema =
            new Schema.Parser().parse(JSON.readTree(body).path("schema").asText()).toString();
        int index = -1;
        for (int i = 0; i < versions.size(); i++) {
          if (schemas.get(versions.get(i)).equals(schema)) {
            index = i;
          }
        }
        return index < 0
            ? error(404, 40403, "Schema not found")
            : new Object[] {
              200,
              Map.of(
                  "subject",
                  subject,
                  "id",
                  versions.get(index),
                  "version",
                  index + 1,
                  "schema",
                  schema)
            };
      }
      if (method.equals("GET") && parts.length == 4) {
        int index =
            parts[3].equals("latest") ? versions.size() - 1 : Integer.parseInt(parts[3]) - 1;
        int id = versions.get(index);
        return new Object[] {
          200, Map.of("subject", subject, "id", id, "version", index + 1, "schema", schemas.get(id))
        };
      }
    }
    return error(404, 404, "HTTP 404 Not Found");
  }

  private Object[] level(String[] parts, String query) {
    if (parts.length == 1) {
      return new Object[] {200, Map.of("compatibilityLevel", globalLevel)};
    }
    String own = levels.get(URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
    if (own != null) {
      return new Object[] {200, Map.of("compatibilityLevel", own)};
    }
    boolean toGlobal = query != null && query.contains("defaultToGlobal=true");
    return toGlobal && !defaultToGlobalIgnored
        ? new Object[] {200, Map.of("compatibilityLevel", globalLevel)}
        : error(404, 40408, "Subject does not have subject-level compatibility configured");
  }

  private Object[] schemaById(int id) {
    String schema = schemas.get(id);
    if (schema == null) {
      return error(404, 40403, "Schema " + id + " not found");
    }
    String referenced = references.get(id);
    if (referenced == null) {
      return new Object[] {200, Map.of("schema", schema)};
    }
    JsonNode reference =
        JSON.valueToTree(Map.of("name", "ref", "subject", referenced, "version", 1));
    return new Object[] {200, Map.of("schema", schema, "references", List.of(reference))};
  }

  private static Object[] error(int status, int code, String message) {
    return new Object[] {status, Map.of("error_code", code, "message", message)};
  }

  @Override
  public void close() {
    if (gate != null) {
      gate.countDown();
    }
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
