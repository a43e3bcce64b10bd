/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.LogCapture;
import io.floe.connect.config.FloeSinkConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogLoaderTest {

  /** A catalog whose first initialisations fail, as a catalog still starting up does. */
  public static class FlakyCatalog extends InMemoryCatalog {
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

    @Override
    public void initialize(String name, Map<String, String> properties) {
      if (FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("wrapper", new IOException("connection refused"));
      }
      super.initialize(name, properties);
    }
  }

  /** A catalog whose client quotes its password when it cannot connect, as some drivers do. */
  public static class QuotingCatalog extends InMemoryCatalog {
    @Override
    public void initialize(String name, Map<String, String> properties) {
      throw new IllegalStateException(
          "wrapper",
          new IOException("login refused for password " + properties.get("jdbc.password")));
    }
  }

  /** A FileIO that counts how many of its instances are open. */
  public static class CountedFileIO extends org.apache.iceberg.inmemory.InMemoryFileIO {
    static final AtomicInteger OPEN = new AtomicInteger();

    @Override
    public void initialize(Map<String, String> properties) {
      super.initialize(properties);
      OPEN.incrementAndGet();
    }

    @Override
    public void close() {
      OPEN.decrementAndGet();
      super.close();
    }
  }

  /** A catalog that takes a Hadoop configuration, as the Hadoop and Hive catalogs do. */
  public static class ConfiguredCatalog extends InMemoryCatalog
      implements org.apache.hadoop.conf.Configurable {
    private org.apache.hadoop.conf.Configuration conf;

    @Override
    public void setConf(org.apache.hadoop.conf.Configuration conf) {
      this.conf = conf;
    }

    @Override
    public org.apache.hadoop.conf.Configuration getConf() {
      return conf;
    }
  }

  private static FloeSinkConfig config(Map<String, String> extra) {
    Map<String, String> props = new java.util.HashMap<>(extra);
    props.put("iceberg.tables", "db.t");
    return new FloeSinkConfig(props);
  }

  @Test
  void retriesWithBackoffUntilTheCatalogAnswers() {
    FlakyCatalog.FAILURES_LEFT.set(3);
    List<Duration> sleeps = new ArrayList<>();
    CatalogLoader loader =
        new CatalogLoader(
            new CatalogLoader.RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(300)),
            sleeps::add);
    Catalog catalog =
        loader.load(config(Map.of("iceberg.catalog.catalog-impl", FlakyCatalog.class.getName())));
    assertThat(catalog).isInstanceOf(FlakyCatalog.class);
    assertThat(sleeps)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
  }

  @Test
  void aSecretQuotedByTheCatalogClientIsMaskedInTheRetryWarningsAndTheFailure() {
    String canary = "canary-9c0e51d3";
    CatalogLoader loader =
        new CatalogLoader(
            new CatalogLoader.RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)), d -> {});
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.catalog.catalog-impl",
                QuotingCatalog.class.getName(),
                "iceberg.catalog.jdbc.password",
                canary));
    try (LogCapture logs = LogCapture.of(CatalogLoader.class)) {
      assertThatThrownBy(() -> loader.load(config))
          .hasMessageContaining("login refused for password [hidden]")
          .hasMessageNotContaining(canary);
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .contains("login refused for password [hidden]")
          .doesNotContain(canary);
    }
  }

  @Test
  void failsWithTheRootCauseWhenAttemptsAreSpent() {
    FlakyCatalog.FAILURES_LEFT.set(10);
    CatalogLoader loader =
        new CatalogLoader(
            new CatalogLoader.RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1)), d -> {});
    assertThatThrownBy(
            () ->
                loader.load(
                    config(Map.of("iceberg.catalog.catalog-impl", FlakyCatalog.class.getName()))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("after 3 attempts")
        .hasMessageContaining("IOException: connection refused")
        .hasMessageContaining("iceberg.catalog.*");
  }

  @Test
  void tasksStartingTogetherAllLoadOneFreshSqliteCatalog(@TempDir Path dir) throws Exception {
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.catalog.type",
                "jdbc",
                "iceberg.catalog.uri",
                "jdbc:sqlite:" + dir.resolve("catalog.db"),
                "iceberg.catalog.jdbc.schema-version",
                "V1",
                "iceberg.catalog.warehouse",
                dir.resolve("warehouse").toString()));
    int tasks = 6;
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    try {
      List<Callable<Catalog>> loads = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        loads.add(() -> new CatalogLoader().load(config));
      }
      List<Catalog> catalogs = new ArrayList<>();
      for (Future<Catalog> future : pool.invokeAll(loads)) {
        catalogs.add(future.get());
      }
      ((SupportsNamespaces) catalogs.get(0)).createNamespace(Namespace.of("db"));
      assertThat(((SupportsNamespaces) catalogs.get(tasks - 1)).namespaceExists(Namespace.of("db")))
          .isTrue();
      for (Catalog catalog : catalogs) {
        ((Closeable) catalog).close();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aJdbcCatalogThatCannotConnectLeavesNoFileIoOpen(@TempDir Path dir) {
    CountedFileIO.OPEN.set(0);
    CatalogLoader loader =
        new CatalogLoader(
            new CatalogLoader.RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1)), d -> {});
    FloeSinkConfig config =
        config(
            Map.of(
                "iceberg.catalog.type",
                "jdbc",
                "iceberg.catalog.uri",
                "jdbc:sqlite:" + dir.resolve("no-such-folder").resolve("catalog.db"),
                "iceberg.catalog.io-impl",
                CountedFileIO.class.getName(),
                "iceberg.catalog.warehouse",
                dir.resolve("warehouse").toString()));
    assertThatThrownBy(() -> loader.load(config)).hasMessageContaining("after 3 attempts");
    assertThat(CountedFileIO.OPEN).as("FileIOs left open by 3 failed attempts").hasValue(0);
  }

  @Test
  void aRestCatalogGetsClientTimeoutsUnlessTheConfigSetsThem() {
    Map<String, String> props =
        CatalogLoader.properties(
            config(
                Map.of(
                    "iceberg.catalog.type", "rest",
                    "iceberg.catalog.uri", "http://localhost:1",
                    "iceberg.catalog.rest.client.socket-timeout-ms", "1234")));
    assertThat(props)
        .containsEntry("rest.client.connection-timeout-ms", "10000")
        .containsEntry("rest.client.socket-timeout-ms", "1234");
    assertThat(
            CatalogLoader.properties(
                config(Map.of("iceberg.catalog.catalog-impl", FlakyCatalog.class.getName()))))
        .doesNotContainKeys("rest.client.connection-timeout-ms", "rest.client.socket-timeout-ms");
  }

  @Test
  void aRestCatalogServerThatNeverAnswersFailsTheLoadInsteadOfHangingIt() throws Exception {
    try (java.net.ServerSocket silent = new java.net.ServerSocket(0)) {
      CatalogLoader loader =
          new CatalogLoader(
              new CatalogLoader.RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1)),
              d -> {});
      long started = System.nanoTime();
      assertThatThrownBy(
              () ->
                  loader.load(
                      config(
                          Map.of(
                              "iceberg.catalog.type", "rest",
                              "iceberg.catalog.uri", "http://127.0.0.1:" + silent.getLocalPort(),
                              "iceberg.catalog.rest.client.socket-timeout-ms", "300",
                              "iceberg.catalog.rest.client.max-retries", "0"))))
          .isInstanceOf(ConnectException.class)
          .hasMessageContaining("Cannot load Iceberg catalog");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
    }
  }

  @Test
  void aCatalogReceivesTheHadoopSiteFilesAndProperties(@TempDir Path dir) throws IOException {
    java.nio.file.Files.writeString(
        dir.resolve("core-site.xml"),
        "<configuration>"
            + "<property><name>fs.defaultFS</name><value>hdfs://nn:8020</value></property>"
            + "<property><name>fs.s3a.endpoint</name><value>http://from-file</value></property>"
            + "</configuration>");
    java.nio.file.Files.writeString(
        dir.resolve("hdfs-site.xml"),
        "<configuration>"
            + "<property><name>dfs.replication</name><value>2</value></property>"
            + "</configuration>");
    Catalog catalog =
        new CatalogLoader()
            .load(
                config(
                    Map.of(
                        "iceberg.catalog.catalog-impl",
                        ConfiguredCatalog.class.getName(),
                        "iceberg.hadoop-conf-dir",
                        dir.toString(),
                        "iceberg.hadoop.fs.s3a.endpoint",
                        "http://from-key",
                        "iceberg.hadoop.fs.s3a.secret.key",
                        "canary-secret-3f1a")));
    org.apache.hadoop.conf.Configuration conf = ((ConfiguredCatalog) catalog).getConf();
    assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://nn:8020");
    assertThat(conf.get("dfs.replication")).isEqualTo("2");
    assertThat(conf.get("fs.s3a.endpoint")).isEqualTo("http://from-key");
    assertThat(conf.get("fs.s3a.secret.key")).isEqualTo("canary-secret-3f1a");
    assertThat(conf.get("hadoop.tmp.dir")).as("no Hadoop defaults from the class path").isNull();
  }

  @Test
  void aHadoopConfDirThatIsNoDirectoryFailsNamingTheKey(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                new CatalogLoader()
                    .load(
                        config(
                            Map.of(
                                "iceberg.catalog.catalog-impl",
                                ConfiguredCatalog.class.getName(),
                                "iceberg.hadoop-conf-dir",
                                dir.resolve("missing").toString()))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("iceberg.hadoop-conf-dir")
        .hasMessageContaining("not a directory");
  }
}
