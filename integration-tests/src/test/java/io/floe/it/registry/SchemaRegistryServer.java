/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import com.sun.net.httpserver.HttpServer;
import io.floe.it.stack.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process schema registry that speaks the Avro subset of the Confluent Schema Registry REST
 * API, for tests and the quickstart: Kafka Connect's Avro converter and Confluent's serializers can
 * use it as their {@code schema.registry.url}. State lives in memory and dies with the server.
 *
 * <p>Served: {@code /subjects} (register, look up, list, get by version or {@code latest}, soft and
 * permanent delete), {@code /schemas} (by global id, its subjects and versions, types) and {@code
 * /config} (global and per-subject compatibility, checked with Avro's own SchemaCompatibility). See
 * {@link Endpoint} for the full list. Errors carry the documented statuses and {@code error_code}s.
 * Thread-safe.
 *
 * <pre>{@code
 * try (SchemaRegistryServer registry = SchemaRegistryServer.builder().build().start()) {
 *   String url = registry.url(); // http://127.0.0.1:<port>
 *   ...
 *   assertThat(registry.requestCount(Endpoint.SCHEMA_BY_ID)).isEqualTo(1);
 * }
 * }</pre>
 */
public final class SchemaRegistryServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryServer.class);
  private static final int THREADS = 8;

  private final int requestedPort;
  private final BasicAuth auth;
  private final RegistryHttpHandler handler;
  private HttpServer http;
  private ExecutorService executor;
  private boolean closed;

  private SchemaRegistryServer(Builder builder) {
    this.requestedPort = builder.port;
    this.auth = builder.auth;
    CompatibilityConfig config = new CompatibilityConfig();
    this.handler = new RegistryHttpHandler(auth, new RegistryApi(new SchemaStore(config), config));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options of a {@link SchemaRegistryServer}: its port and optional basic authentication. */
  public static final class Builder {
    private int port;
    private BasicAuth auth = BasicAuth.open();

    private Builder() {}

    /** The port on 127.0.0.1 to listen on; 0, the default, picks a free one at start. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("Not a port: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Requires HTTP basic authentication with this user and password: any other request gets 401
     * with {@code {"error_code":401,"message":"Unauthorized"}}.
     */
    public Builder basicAuth(String user, String password) {
      this.auth = BasicAuth.of(user, password);
      return this;
    }

    /** A server not yet listening; call {@link #start()}. */
    public SchemaRegistryServer build() {
      return new SchemaRegistryServer(this);
    }
  }

  /**
   * Starts listening; returns this server, for chaining.
   *
   * @throws UncheckedIOException when the port cannot be bound
   * @throws IllegalStateException when started before, or closed
   */
  public synchronized SchemaRegistryServer start() {
    if (http != null || closed) {
      throw new IllegalStateException("A schema registry server starts only once");
    }
    try {
      http = HttpServer.create(new InetSocketAddress(Ports.LOOPBACK, requestedPort), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot listen on " + Ports.LOOPBACK + ":" + requestedPort, e);
    }
    executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
    http.setExecutor(executor);
    http.createContext("/", handler);
    http.start();
    LOG.info(
        "Schema registry listening on {} (basic auth {})", url(), auth.enabled() ? "on" : "off");
    return this;
  }

  /** {@code http://127.0.0.1:<port>}, the value for {@code schema.registry.url}. */
  public synchronized String url() {
    return "http://" + Ports.LOOPBACK + ":" + port();
  }

  /** The port listened on; known once started. */
  public synchronized int port() {
    if (http == null) {
      throw new IllegalStateException("The schema registry server is not started");
    }
    return http.getAddress().getPort();
  }

  /**
   * How many requests reached an endpoint since start (or the last {@link #resetRequestCounts()}),
   * whatever their outcome. Requests refused by authentication, and requests to unknown paths or
   * with the wrong method, are not counted. For example {@code requestCount(Endpoint.SCHEMA_BY_ID)}
   * is the number of schema fetches by global id, which a caching deserializer makes once per id.
   */
  public long requestCount(Endpoint endpoint) {
    return handler.count(endpoint);
  }

  /** Sets every request count back to zero. */
  public void resetRequestCounts() {
    handler.resetCounts();
  }

  /** Stops listening and ends the request threads; safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (http == null) {
      return;
    }
    http.stop(0);
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
    LOG.info("Schema registry on port {} stopped", http.getAddress().getPort());
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "schema-registry-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Runs a registry until the process is stopped, printing its URL on the first line of standard
   * output. Argument: the port (default 0, any free port). No authentication.
   */
  public static void main(String[] args) throws InterruptedException {
    if (args.length > 1) {
      System.err.println("Usage: SchemaRegistryServer [port]");
      System.exit(2);
    }
    int port = args.length == 1 ? Integer.parseInt(args[0]) : 0;
    SchemaRegistryServer server = builder().port(port).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "schema-registry-shutdown"));
    System.out.println(server.url());
    new CountDownLatch(1).await();
  }
}
