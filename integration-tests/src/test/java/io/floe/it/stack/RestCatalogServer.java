/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import jakarta.servlet.http.HttpServlet;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Iceberg REST catalog: Iceberg's own {@code RESTCatalogServlet} and {@code RESTCatalogAdapter}
 * on Jetty in this JVM, listening on 127.0.0.1 only, on a free port. The adapter serves a {@code
 * JdbcCatalog} kept in a SQLite file in {@code target/it-work/rest-catalog-<n>/catalog.db}.
 *
 * <p>The warehouse is either a local folder in the service folder ({@link #withLocalWarehouse()})
 * or a prefix in an S3Proxy bucket ({@link #withS3Warehouse}). The server's {@code /v1/config}
 * answers with no defaults or overrides, so clients must bring their own FileIO settings: {@link
 * #clientProperties()} includes them.
 *
 * <p>A catalog {@linkplain #withVendedCredentials with vended credentials} is secured as managed
 * catalogs are: an OAuth2 token endpoint, bearer tokens on every request, and per-table keys to its
 * S3Proxy bucket in the answers to table loads and creates ({@link CatalogAuthority}).
 */
public final class RestCatalogServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestCatalogServer.class);

  /** The path of the REST call that commits several tables at once. */
  public static final String TRANSACTION_COMMIT = "/v1/transactions/commit";

  private final Path dir;
  private final String warehouse;
  private final Map<String, String> fileIoProperties;
  private final CatalogAuthority authority;
  private final Catalog backend;
  private final RESTCatalogAdapter adapter;
  private final Server server;
  private final FaultyServlet servlet;
  private final URI uri;
  private final long startupMillis;
  private boolean closed;

  private RestCatalogServer(
      Path dir,
      String warehouse,
      Map<String, String> fileIoProperties,
      CatalogAuthority authority,
      Catalog backend,
      RESTCatalogAdapter adapter,
      Server server,
      FaultyServlet servlet,
      URI uri,
      long startupMillis) {
    this.dir = dir;
    this.warehouse = warehouse;
    this.fileIoProperties = fileIoProperties;
    this.authority = authority;
    this.backend = backend;
    this.adapter = adapter;
    this.server = server;
    this.servlet = servlet;
    this.uri = uri;
    this.startupMillis = startupMillis;
  }

  /** A REST catalog whose warehouse is the folder {@code warehouse/} in its service folder. */
  public static RestCatalogServer withLocalWarehouse() {
    Path dir = StackDirs.newServiceDir("rest-catalog");
    return start(dir, dir.resolve("warehouse").toString(), Map.of(), null);
  }

  /**
   * A REST catalog whose warehouse is {@code s3://<bucket>/rest} on {@code s3}; creates the bucket
   * if needed.
   */
  public static RestCatalogServer withS3Warehouse(S3ProxyServer s3, String bucket) {
    s3.createBucket(bucket);
    Path dir = StackDirs.newServiceDir("rest-catalog");
    return start(dir, "s3://" + bucket + "/rest", s3.s3FileIoProperties(), null);
  }

  /**
   * A REST catalog whose warehouse is {@code s3://<bucket>/rest} on {@code s3}, secured by an
   * OAuth2 token endpoint with {@code settings}, that vends keys to the bucket with its tables;
   * creates the bucket if needed. The catalog itself writes with the store's own keys.
   */
  public static RestCatalogServer withVendedCredentials(
      S3ProxyServer s3, String bucket, CatalogAuthority.Settings settings) {
    s3.createBucket(bucket);
    Path dir = StackDirs.newServiceDir("rest-catalog");
    return start(
        dir,
        "s3://" + bucket + "/rest",
        s3.s3FileIoProperties(),
        new CatalogAuthority(settings, s3, bucket));
  }

  private static RestCatalogServer start(
      Path dir,
      String warehouse,
      Map<String, String> fileIoProperties,
      CatalogAuthority authority) {
    long begin = System.nanoTime();
    Map<String, String> backendProps =
        new LinkedHashMap<>(SqliteCatalogs.properties(dir.resolve("catalog.db"), warehouse));
    backendProps.putAll(fileIoProperties);
    Catalog backend =
        CatalogUtil.buildIcebergCatalog("rest-backend", backendProps, new Configuration(false));
    RESTCatalogAdapter adapter = new RESTCatalogAdapter(backend);
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(Ports.LOOPBACK);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    HttpServlet catalogServlet = new RESTCatalogServlet(adapter);
    FaultyServlet servlet =
        new FaultyServlet(
            authority == null ? catalogServlet : new AuthServlet(authority, catalogServlet));
    context.addServlet(new ServletHolder(servlet), "/*");
    CompressionHandler compression = new CompressionHandler(context);
    compression.putCompression(new GzipCompression());
    server.setHandler(compression);
    server.setStopAtShutdown(false);
    try {
      server.start();
    } catch (Exception e) {
      stopAfterFailedStart(server, backend, e);
      throw new IllegalStateException(
          "REST catalog server did not start (files in " + dir + ")", e);
    }
    URI uri = URI.create("http://" + Ports.LOOPBACK + ":" + connector.getLocalPort());
    if (authority != null) {
      authority.serving(uri);
    }
    long millis = (System.nanoTime() - begin) / 1_000_000;
    LOG.info("REST catalog started at {} in {} ms, warehouse {}", uri, millis, warehouse);
    return new RestCatalogServer(
        dir,
        warehouse,
        Map.copyOf(fileIoProperties),
        authority,
        backend,
        adapter,
        server,
        servlet,
        uri,
        millis);
  }

  private static void stopAfterFailedStart(Server server, Catalog backend, Exception cause) {
    try {
      server.stop();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
    try {
      closeCatalog(backend);
    } catch (UncheckedIOException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Stops answering: the port is closed, so clients get connection refused, as when the catalog
   * service is down. The backing catalog and its files stay.
   */
  public synchronized void stopServing() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Stopping the REST catalog failed", e);
    }
    LOG.info("REST catalog at {} stopped serving", uri);
  }

  /** Serves again on the same port after {@link #stopServing}. */
  public synchronized void resumeServing() {
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    connector.setPort(uri.getPort());
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("Restarting the REST catalog on " + uri + " failed", e);
    }
    LOG.info("REST catalog at {} serves again", uri);
  }

  /**
   * Answers 400 to every request whose path ends with {@code pathSuffix} (say {@code
   * /tables/orders} to fail loads and commits of one table) until {@link #clearFaults}.
   */
  public void failRequestsEndingWith(String pathSuffix) {
    servlet.failPathsEndingWith(pathSuffix);
    LOG.info("REST catalog at {} answers 400 to requests ending with {}", uri, pathSuffix);
  }

  /**
   * Answers 500 to the next {@code times} POSTs whose path ends with {@code pathSuffix} (say {@link
   * #TRANSACTION_COMMIT}), without applying them.
   */
  public void failBeforeApplying(String pathSuffix, int times) {
    servlet.fail("POST", pathSuffix, FaultyServlet.When.BEFORE_APPLYING, times);
    LOG.info("REST catalog at {} fails the next {} POST {} unapplied", uri, times, pathSuffix);
  }

  /**
   * Applies the next {@code times} POSTs whose path ends with {@code pathSuffix} but answers 500:
   * the commit landed and the client cannot tell (an ambiguous commit).
   */
  public void failAfterApplying(String pathSuffix, int times) {
    servlet.fail("POST", pathSuffix, FaultyServlet.When.AFTER_APPLYING, times);
    LOG.info("REST catalog at {} fails the next {} POST {} once applied", uri, times, pathSuffix);
  }

  /** A request the server holds until the test releases it. */
  public static final class HeldRequest {
    private final FaultyServlet.Hold hold;
    private final String what;

    private HeldRequest(FaultyServlet.Hold hold, String what) {
      this.hold = hold;
      this.what = what;
    }

    /** Waits until the request arrived and is held; fails after {@code timeout}. */
    public void awaitHeld(Duration timeout) throws InterruptedException {
      if (!hold.awaitHeld(timeout)) {
        throw new AssertionError("No " + what + " arrived within " + timeout);
      }
    }

    /** Lets the held request end with a 500. */
    public void release() {
      hold.release();
    }
  }

  /**
   * Holds the next POST whose path ends with {@code pathSuffix} before applying it; once released,
   * it gets a 500 and is never applied (the client died inside the commit).
   */
  public HeldRequest holdUnapplied(String pathSuffix) {
    LOG.info("REST catalog at {} holds the next POST {} unapplied", uri, pathSuffix);
    return new HeldRequest(
        servlet.hold("POST", pathSuffix, FaultyServlet.When.BEFORE_APPLYING), "POST " + pathSuffix);
  }

  /**
   * Applies the next POST whose path ends with {@code pathSuffix}, then holds its answer; once
   * released, it gets a 500 (the commit landed, the client died before it knew).
   */
  public HeldRequest holdApplied(String pathSuffix) {
    LOG.info("REST catalog at {} holds the answer to the next POST {}", uri, pathSuffix);
    return new HeldRequest(
        servlet.hold("POST", pathSuffix, FaultyServlet.When.AFTER_APPLYING), "POST " + pathSuffix);
  }

  /** How many requests got an injected 500 ({@link #failBeforeApplying} and the like) so far. */
  public int injectedFailures() {
    return servlet.failedCount();
  }

  /** Ends every injected fault; held requests are released. */
  public void clearFaults() {
    servlet.clear();
    LOG.info("REST catalog at {} answers every request again", uri);
  }

  /** {@code http://127.0.0.1:<port>}; the REST API is under {@code /v1/}. */
  public URI uri() {
    return uri;
  }

  /** The warehouse location the catalog puts new tables under. */
  public String warehouse() {
    return warehouse;
  }

  /** The service folder (SQLite file, local warehouse). */
  public Path dir() {
    return dir;
  }

  public long startupMillis() {
    return startupMillis;
  }

  /**
   * Catalog properties for a client of this server, e.g. a connector's {@code iceberg.catalog.*}:
   * {@code type=rest}, {@code uri}, and for an S3 warehouse the S3FileIO settings of {@link
   * S3ProxyServer#s3FileIoProperties()} (the client opens data files itself). For a local warehouse
   * the client's default FileIO reads the plain paths. For a catalog with vended credentials, the
   * store's keys are left out and the {@link CatalogAuthority#clientProperties() OAuth2 client's}
   * are in.
   */
  public Map<String, String> clientProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("type", "rest");
    props.put("uri", uri.toString());
    props.putAll(fileIoProperties);
    if (authority != null) {
      props.remove("s3.access-key-id");
      props.remove("s3.secret-access-key");
      props.putAll(authority.clientProperties());
    }
    return props;
  }

  /**
   * The authority of a catalog {@linkplain #withVendedCredentials with vended credentials}.
   *
   * @throws IllegalStateException for a catalog without one
   */
  public CatalogAuthority authority() {
    if (authority == null) {
      throw new IllegalStateException("The REST catalog at " + uri + " is not secured");
    }
    return authority;
  }

  /** Stops Jetty and closes the backing catalog. Safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    IllegalStateException failure = null;
    try {
      server.stop();
      LOG.info("REST catalog at {} stopped", uri);
    } catch (Exception e) {
      failure = new IllegalStateException("Cannot stop the REST catalog server at " + uri, e);
    }
    try {
      adapter.close();
      closeCatalog(backend);
    } catch (IOException | RuntimeException e) {
      if (failure == null) {
        failure = new IllegalStateException("Cannot close the catalog behind " + uri, e);
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeCatalog(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close catalog " + catalog.name(), e);
      }
    }
  }
}
