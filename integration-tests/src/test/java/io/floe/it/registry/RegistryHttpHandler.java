/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the registry: authenticates, routes, checks the request's content type, counts
 * requests per endpoint, and writes every answer, errors included, as registry JSON.
 */
final class RegistryHttpHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);

  /** The request media types the Confluent server consumes. */
  private static final Set<String> ACCEPTED_BODY_TYPES =
      Set.of(
          "application/vnd.schemaregistry.v1+json",
          "application/vnd.schemaregistry+json",
          "application/json",
          "application/octet-stream");

  private final BasicAuth auth;
  private final RegistryApi api;
  private final Map<Endpoint, LongAdder> counts = new EnumMap<>(Endpoint.class);

  RegistryHttpHandler(BasicAuth auth, RegistryApi api) {
    this.auth = auth;
    this.api = api;
    for (Endpoint endpoint : Endpoint.values()) {
      counts.put(endpoint, new LongAdder());
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      Reply reply;
      try {
        reply = answer(exchange, method, path);
      } catch (RegistryException e) {
        reply = Reply.error(e);
      } catch (RuntimeException e) {
        LOG.error("Schema registry failed on {} {}", method, path, e);
        reply = Reply.error(RegistryException.internal("Internal server error: " + e));
      }
      LOG.debug("{} {} -> {}", method, path, reply.status());
      send(exchange, reply);
    }
  }

  private Reply answer(HttpExchange exchange, String method, String path) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    if (!auth.permits(exchange.getRequestHeaders().getFirst("Authorization"))) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"SchemaRegistry\"");
      throw RegistryException.unauthorized();
    }
    Router.Route route = Router.resolve(method, path);
    counts.get(route.endpoint()).increment();
    if (route.endpoint().takesBody()) {
      checkContentType(exchange.getRequestHeaders().getFirst("Content-Type"));
    }
    Map<String, String> query = Router.query(exchange.getRequestURI().getRawQuery());
    return api.answer(route.endpoint(), route.params(), query, body);
  }

  /** A body without a content type is read as JSON; a content type that isn't JSON is a 415. */
  private static void checkContentType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return;
    }
    String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!ACCEPTED_BODY_TYPES.contains(mediaType)) {
      throw RegistryException.unsupportedMediaType();
    }
  }

  /**
   * Writes the answer and closes the connection. The JDK server sends headers and body as two small
   * TCP segments; on a kept-alive connection Nagle's algorithm then holds the body until the
   * client's delayed ACK, about 40 ms per request. A fresh loopback connection per request costs
   * far less.
   */
  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", Reply.CONTENT_TYPE);
    exchange.getResponseHeaders().set("Connection", "close");
    // a HEAD answer has headers only: the JDK server refuses body bytes for it
    boolean head = exchange.getRequestMethod().equals("HEAD");
    byte[] body = head ? new byte[0] : reply.body();
    exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
  }

  long count(Endpoint endpoint) {
    return counts.get(endpoint).sum();
  }

  void resetCounts() {
    counts.values().forEach(LongAdder::reset);
  }
}
