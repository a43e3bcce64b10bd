/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.Secrets;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the Iceberg catalog (and through it the FileIO) from {@code iceberg.catalog.*}, with the
 * Hadoop configuration of {@code iceberg.hadoop-conf-dir} and {@code iceberg.hadoop.*} ({@link
 * HadoopConf}).
 *
 * <p>Loading is retried with backoff: tasks of one connector start at the same moment and race to
 * initialise the same catalog (a JDBC catalog upgrading its schema, a REST server still starting).
 * When the attempts are spent the task fails with the root cause.
 */
public final class CatalogLoader {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogLoader.class);

  /** How many times, and with which first backoff (doubled each time), loading is attempted. */
  public record RetryPolicy(int attempts, Duration firstBackoff, Duration maxBackoff) {
    public static final RetryPolicy DEFAULT =
        new RetryPolicy(6, Duration.ofMillis(250), Duration.ofSeconds(5));
  }

  /** Waits between attempts; a seam so tests need not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /** The FileIO a JDBC catalog uses when {@code io-impl} names none, as Iceberg's default. */
  private static final String HADOOP_FILE_IO = "org.apache.iceberg.hadoop.HadoopFileIO";

  private final RetryPolicy retry;
  private final Sleeper sleeper;

  public CatalogLoader() {
    this(RetryPolicy.DEFAULT, duration -> Thread.sleep(duration.toMillis()));
  }

  public CatalogLoader(RetryPolicy retry, Sleeper sleeper) {
    this.retry = retry;
    this.sleeper = sleeper;
  }

  public Catalog load(FloeSinkConfig config) {
    Map<String, String> props = properties(config);
    Configuration conf = inPluginLoader(() -> HadoopConf.of(config));
    String description =
        config.catalogImpl().orElseGet(() -> config.catalogType().map(Enum::name).orElse("?"));

    Duration backoff = retry.firstBackoff();
    for (int attempt = 1; ; attempt++) {
      try {
        Catalog catalog = build(config.catalogName(), props, conf);
        LOG.info("Loaded Iceberg catalog '{}' ({})", config.catalogName(), description);
        return catalog;
      } catch (RuntimeException e) {
        String cause = config.secrets().mask(rootCauseMessage(e));
        if (attempt >= retry.attempts()) {
          String message =
              String.format(
                  "Cannot load Iceberg catalog '%s' (%s) after %d attempts: %s. Check the"
                      + " iceberg.catalog.* properties and that the catalog is reachable.",
                  config.catalogName(), description, attempt, cause);
          throw unreachable(e)
              ? new CatalogUnreachableException(message, e)
              : new ConnectException(message, e);
        }
        LOG.warn(
            "Loading Iceberg catalog '{}' ({}) failed (attempt {} of {}): {}; retrying in {} ms",
            config.catalogName(),
            description,
            attempt,
            retry.attempts(),
            cause,
            backoff.toMillis());
        pause(backoff);
        backoff = min(backoff.multipliedBy(2), retry.maxBackoff());
      }
    }
  }

  /** Closes {@code catalog}; a failure is logged with {@code secrets} masked (a JDBC URL, say). */
  public static void close(Catalog catalog, Secrets secrets) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Closing catalog '{}' failed: {}", catalog.name(), secrets.describe(e));
      }
    }
  }

  /**
   * Timeouts of the REST catalog's HTTP client, unless {@code iceberg.catalog.*} sets them: without
   * them a request to a server that stopped answering waits forever, and the coordinator with it. A
   * commit whose answer times out is an unknown outcome, which the coordinator checks before it
   * tries again.
   */
  static final Map<String, String> REST_CLIENT_DEFAULTS =
      Map.of(
          "rest.client.connection-timeout-ms", "10000",
          "rest.client.socket-timeout-ms", "60000");

  /** The catalog's properties: {@code iceberg.catalog.*}, its type or class, and defaults. */
  static Map<String, String> properties(FloeSinkConfig config) {
    Map<String, String> props = new HashMap<>(config.catalogProperties());
    config
        .catalogType()
        .ifPresent(type -> props.put(CatalogUtil.ICEBERG_CATALOG_TYPE, type.icebergName()));
    config.catalogImpl().ifPresent(impl -> props.put(CatalogProperties.CATALOG_IMPL, impl));
    boolean rest =
        CatalogUtil.ICEBERG_CATALOG_TYPE_REST.equals(props.get(CatalogUtil.ICEBERG_CATALOG_TYPE))
            || RESTCatalog.class.getName().equals(props.get(CatalogProperties.CATALOG_IMPL));
    if (rest) {
      REST_CLIENT_DEFAULTS.forEach(props::putIfAbsent);
    }
    return props;
  }

  private static Catalog build(String name, Map<String, String> props, Configuration conf) {
    return inPluginLoader(
        () ->
            isJdbc(props)
                ? buildJdbc(name, props, conf)
                : CatalogUtil.buildIcebergCatalog(name, props, conf));
  }

  /**
   * Runs {@code step} with the plugin's class loader as the context class loader: Iceberg and
   * Hadoop look classes up through it, and inside a Connect plugin it must be the plugin's own
   * loader, or the bundled classes are not found.
   */
  private static <T> T inPluginLoader(java.util.function.Supplier<T> step) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(CatalogLoader.class.getClassLoader());
    try {
      return step.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static boolean isJdbc(Map<String, String> props) {
    return CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC.equalsIgnoreCase(
            props.get(CatalogUtil.ICEBERG_CATALOG_TYPE))
        || JdbcCatalog.class.getName().equals(props.get(CatalogProperties.CATALOG_IMPL));
  }

  /**
   * A JDBC catalog, built as {@link CatalogUtil#buildIcebergCatalog} would, except that the FileIO
   * it opens is kept: {@link JdbcCatalog#initialize} opens its FileIO before it connects to the
   * database, and when the connection fails (wrong password, database down) nothing would close
   * that FileIO. Each failed attempt would leave one behind (with its HTTP client for S3FileIO),
   * and a catalog waited for is attempted many times.
   */
  private static Catalog buildJdbc(String name, Map<String, String> props, Configuration conf) {
    List<FileIO> opened = new ArrayList<>();
    JdbcCatalog catalog =
        new JdbcCatalog(
            properties -> {
              FileIO io =
                  CatalogUtil.loadFileIO(
                      properties.getOrDefault(CatalogProperties.FILE_IO_IMPL, HADOOP_FILE_IO),
                      properties,
                      conf);
              opened.add(io);
              return io;
            },
            null,
            true);
    catalog.setConf(conf);
    try {
      catalog.initialize(name, props);
      return catalog;
    } catch (RuntimeException e) {
      for (FileIO io : opened) {
        try {
          io.close();
        } catch (RuntimeException closeFailure) {
          e.addSuppressed(closeFailure);
        }
      }
      throw e;
    }
  }

  private void pause(Duration backoff) {
    try {
      sleeper.sleep(backoff);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("Interrupted while waiting to retry loading the catalog", e);
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * Whether a failure looks like the catalog (or its database) being out of reach rather than
   * misconfigured: an I/O error anywhere in the chain, a JDBC connection error (SQL state class
   * 08), or a server error or unavailability answered by a REST catalog. Wrong credentials, an
   * unknown class or a malformed URI are not.
   */
  public static boolean unreachable(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.io.IOException
          || t instanceof org.apache.iceberg.exceptions.ServiceUnavailableException
          || t instanceof org.apache.iceberg.exceptions.ServiceFailureException
          || t instanceof java.sql.SQLTransientException) {
        return true;
      }
      if (t instanceof java.sql.SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("08")) {
        return true;
      }
    }
    return false;
  }

  /** The innermost cause's class and message. */
  public static String rootCauseMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
