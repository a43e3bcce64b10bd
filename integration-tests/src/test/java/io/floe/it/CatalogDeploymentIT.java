/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.PostgresServer;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.S3ProxyServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The config examples for real catalogs, pointed at real services, deploy and run: the catalog
 * clients, JDBC drivers and S3FileIO bundled in the zip load inside plugin isolation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class CatalogDeploymentIT {
  private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);

  private KafkaBroker broker;
  private S3ProxyServer s3;
  private ConnectWorker worker;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /** The shared broker; a worker of its own, which defines no config provider. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    s3 = services.own(S3ProxyServer.start());
    worker =
        services.own(
            ConnectWorker.start(
                broker,
                PluginInstall.pluginPath(),
                new ConnectWorker.Options().groupId("catalogs")));
  }

  /** The example with its {@code iceberg.catalog.*} keys replaced by the given catalog's. */
  private Map<String, String> withCatalog(String example, Map<String, String> catalog) {
    return ConfigExamples.forStack(example, broker, catalog);
  }

  @Test
  void restCatalogOnS3ExampleRunsAgainstRealServices() throws Exception {
    try (RestCatalogServer rest = RestCatalogServer.withS3Warehouse(s3, "lakehouse")) {
      Map<String, String> config = withCatalog("rest-catalog-s3.json", rest.clientProperties());
      broker.createTopic(config.get("topics"), 2);
      worker.rest().putConnector(config.get("name"), config);
      worker.rest().awaitRunning(config.get("name"), 2, RUNNING_TIMEOUT);
      // this worker defines no config provider: the S3 keys can only be in clear text
      assertThat(Files.readString(worker.log()))
          .contains(
              "WARN Credentials given in clear text in iceberg.catalog.s3.access-key-id,"
                  + " iceberg.catalog.s3.secret-access-key: the Connect worker defines no config"
                  + " provider")
          .doesNotContain(S3ProxyServer.SECRET_KEY);
      worker.rest().deleteConnector(config.get("name"));
    }
  }

  @Test
  void jdbcOnPostgresExampleRunsAndCreatesTheCatalogTables() throws Exception {
    try (PostgresServer postgres = PostgresServer.start()) {
      Map<String, String> catalog =
          new java.util.HashMap<>(postgres.jdbcCatalogProperties("s3://lakehouse/pg"));
      catalog.putAll(s3.s3FileIoProperties());
      s3.createBucket("lakehouse");
      Map<String, String> config = withCatalog("jdbc-postgres.json", catalog);
      broker.createTopic(config.get("topics"), 2);
      worker.rest().putConnector(config.get("name"), config);
      worker.rest().awaitRunning(config.get("name"), 2, RUNNING_TIMEOUT);

      try (Connection sql = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
          Statement statement = sql.createStatement();
          ResultSet tables =
              statement.executeQuery(
                  "SELECT table_name FROM information_schema.tables"
                      + " WHERE table_name IN ('iceberg_tables', 'iceberg_namespace_properties')"
                      + " ORDER BY table_name")) {
        assertThat(tables.next()).isTrue();
        assertThat(tables.getString(1)).isEqualTo("iceberg_namespace_properties");
        assertThat(tables.next()).isTrue();
        assertThat(tables.getString(1)).isEqualTo("iceberg_tables");
      }
      worker.rest().deleteConnector(config.get("name"));
    }
  }
}
