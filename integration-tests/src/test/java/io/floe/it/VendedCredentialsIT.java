/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.it.eos.OrderEvents;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Await;
import io.floe.it.stack.CatalogAuthority;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.S3ProxyServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code rest-catalog-oauth2-vended.json} on a REST catalog of the managed kind: the connector logs
 * in with OAuth2 client credentials and writes with the storage keys the catalog vends with each
 * table, on the shared worker. Tokens and keys expire within the test, and the store refuses keys
 * past their time, so records written after that prove that Floe's workers and coordinator
 * refreshed both. The connector's own S3 keys open another bucket only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class VendedCredentialsIT {
  private static final String CANARY = "canary-5d0be2c4";
  private static final String BUCKET = "vended";
  private static final String TOPIC = "vended-orders";
  private static final String TABLE = "vended.orders";
  private static final String NAME = "floe-vended";
  private static final Duration TOKEN_LIFETIME = Duration.ofSeconds(8);
  private static final Duration KEY_LIFETIME = Duration.ofSeconds(5);

  @RegisterExtension final Services services = Services.closedAfterAll();

  private KafkaBroker broker;
  private ConnectWorker worker;
  private S3ProxyServer s3;
  private RestCatalogServer rest;
  private S3ProxyServer.GrantedKeys staticKeys;
  private Path secrets;

  @BeforeAll
  void startStack(SharedStack stack) throws Exception {
    broker = stack.broker();
    worker = stack.worker();
    s3 = services.own(S3ProxyServer.start());
    rest =
        services.own(
            RestCatalogServer.withVendedCredentials(
                s3,
                BUCKET,
                new CatalogAuthority.Settings(
                    "floe",
                    CANARY + "-client-secret",
                    "catalog",
                    TOKEN_LIFETIME,
                    KEY_LIFETIME,
                    CANARY)));
    s3.createBucket("elsewhere");
    staticKeys = s3.grant("elsewhere", Duration.ofHours(1), CANARY + "-static");
    secrets = StackDirs.newServiceDir("vended-secrets").resolve("catalog.properties");
    Files.writeString(
        secrets,
        "client-credential="
            + rest.clientProperties().get("credential")
            + "\naccess-key-id="
            + staticKeys.accessKeyId()
            + "\nsecret-access-key="
            + staticKeys.secretAccessKey()
            + "\n");
  }

  private String secret(String key) {
    return "${file:" + secrets + ":" + key + "}";
  }

  @Test
  void writesWithVendedKeysRefreshedAsTheyExpireEveryRecordOnce() throws Exception {
    try (S3Client own = s3.newClient(staticKeys)) {
      assertThat(own.listObjectsV2(b -> b.bucket("elsewhere")).contents()).isEmpty();
      assertThatThrownBy(() -> own.listObjectsV2(b -> b.bucket(BUCKET)))
          .as("the connector's own keys on the table's bucket")
          .hasMessageContaining("403");
    }
    Map<String, String> catalog = new HashMap<>(rest.clientProperties());
    catalog.put("credential", secret("client-credential"));
    catalog.put("s3.access-key-id", secret("access-key-id"));
    catalog.put("s3.secret-access-key", secret("secret-access-key"));
    Map<String, String> config =
        ConfigExamples.forStack("rest-catalog-oauth2-vended.json", broker, catalog);
    config.put("name", NAME);
    config.put("topics", TOPIC);
    config.put("iceberg.tables", TABLE);
    config.put("iceberg.tables.kafka-metadata-column", "_kafka");
    config.put("iceberg.control.topic", TOPIC + "-control");
    config.put("iceberg.control.commit.interval-ms", "1500");
    broker.createTopic(TOPIC, 2);
    long mark = worker.logFile().mark();
    Instant started = Instant.now();
    worker.rest().putConnector(NAME, config);
    worker.rest().awaitRunning(NAME, 2, Duration.ofSeconds(60));

    CatalogAuthority authority = rest.authority();
    String group = "connect-" + NAME;
    try (OrderEvents events = new OrderEvents(broker.bootstrapServers());
        Admin admin = broker.admin()) {
      events.send(TOPIC, 2, 0, 40);
      awaitCommitted(admin, group, 20);
      assertThat(authority.keysVendedWithTables()).as("keys vended with the table").isPositive();
      // the first tokens and keys are refused from here on (their lifetimes and graces)
      Instant firstOnesRefused = started.plus(TOKEN_LIFETIME).plus(Duration.ofSeconds(4));
      Await.until(
          "the connector's first tokens and keys to expire",
          Duration.ofSeconds(60),
          () -> Instant.now().isAfter(firstOnesRefused) && authority.tokenExchanges() > 0);
      events.send(TOPIC, 2, 40, 80);
      awaitCommitted(admin, group, 40);
      assertThat(authority.tokenExchanges()).as("tokens refreshed by exchange").isPositive();
      assertThat(authority.keysVendedOnRefresh())
          .as("keys fetched again at the tables' credentials endpoint")
          .isPositive();
      assertThat(authority.refusedRequests())
          .as("catalog requests refused for an expired token")
          .isZero();

      Catalog oracleCatalog = services.catalog("oracle", rest.clientProperties());
      TableOracle oracle = new TableOracle(oracleCatalog, List.of(TABLE));
      oracle.awaitRowCount(80, Duration.ofSeconds(30));
      oracle.assertExactlyOnce(admin, group, TOPIC, 80);
      worker.rest().deleteConnector(NAME);
      assertThat(worker.logFile().textSince(mark)).as("the worker log").doesNotContain(CANARY);
      Table table = oracleCatalog.loadTable(TableIdentifier.parse(TABLE));
      assertThat(table.properties().toString() + table.currentSnapshot().summary())
          .doesNotContain(CANARY);
    }
    System.out.printf(
        "VendedCredentialsIT: %d client-credential grants, %d token exchanges, %d keys vended"
            + " with tables, %d on refresh, %d requests refused, %d store refusals%n",
        authority.clientCredentialGrants(),
        authority.tokenExchanges(),
        authority.keysVendedWithTables(),
        authority.keysVendedOnRefresh(),
        authority.refusedRequests(),
        s3.refusedRequests());
  }

  private static void awaitCommitted(Admin admin, String group, long perPartition)
      throws InterruptedException {
    for (int partition = 0; partition < 2; partition++) {
      TableOracle.awaitCommittedOffset(
          admin, group, new TopicPartition(TOPIC, partition), perPartition, Duration.ofSeconds(60));
    }
  }
}
