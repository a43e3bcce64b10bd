/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.OrderEvents;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.AzuriteServer;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Ports;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.SqliteCatalogs;
import io.floe.it.stack.StackDirs;
import io.floe.it.stack.Surfaces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code adls.json} on Azurite: two Connect workers whose plugin folder holds the plugin zip with
 * the Azure add-on unzipped over it write a table through Iceberg's ADLSFileIO at {@code abfs://}
 * locations, with the account key given through {@code ${file:...}}; one worker is killed with
 * SIGKILL while records flow, and every record is in the table once. The key is found in no log,
 * REST answer or Connect topic.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class AdlsStorageIT {
  private static final String TAG = "floeAdlsCanary";
  private static final String GROUP = "adls";
  private static final String CONTAINER = "lake";
  private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration DELIVERED = Duration.ofSeconds(120);

  /**
   * README: without it, the JDK's HTTP client refuses the Content-Length header Azure's SDK sets
   * (and sets it itself), and the SDK warns at every request.
   */
  private static final String AZURE_JDK_HTTP_CLIENT =
      "-Djdk.httpclient.allowRestrictedHeaders=content-length";

  @RegisterExtension final Services services = Services.closedAfterAll();

  private KafkaBroker broker;
  private AzuriteServer azurite;
  private Path pluginPath;
  private ConnectWorker worker1;
  private ConnectWorker worker2;

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    azurite = services.own(AzuriteServer.start(TAG));
    azurite.createContainer(CONTAINER);
    pluginPath = PluginInstall.pluginPathWithAddOn("azure");
    // side by side: each start is mostly a JVM warming up
    CompletableFuture<ConnectWorker> second =
        CompletableFuture.supplyAsync(this::startWorker).thenApply(services::own);
    worker1 = services.own(startWorker());
    worker2 = second.join();
  }

  private ConnectWorker startWorker() {
    return ConnectWorker.start(
        broker,
        pluginPath,
        new ConnectWorker.Options()
            .groupId(GROUP)
            .fileConfigProvider()
            .jvmOptions(List.of(AZURE_JDK_HTTP_CLIENT)));
  }

  @Test
  void adlsExampleDeliversEveryRecordOnceThroughAWorkerKillOnAzurite() throws Exception {
    Map<String, String> catalog = catalogProperties();
    Path secrets = StackDirs.newServiceDir("adls-secrets").resolve("adls.properties");
    Files.writeString(secrets, "account-key=" + azurite.key() + "\n");
    Map<String, String> config =
        ConfigExamples.withMetadataAndQuickCommits(
            ConfigExamples.forStack("adls.json", broker, catalog));
    config.put(
        "iceberg.catalog.adls.auth.shared-key.account.key",
        "${file:" + secrets.toAbsolutePath() + ":account-key}");
    // the killed worker's sink consumers leave their group after 10 s, not the default 45 s
    config.put("consumer.override.session.timeout.ms", "10000");
    String name = config.get("name");
    String topic = config.get("topics");
    String table = config.get("iceberg.tables");
    // the connector's catalog name (iceberg.catalog), under which the JDBC catalog keeps its tables
    Catalog reader = services.catalog("iceberg", catalog);
    TableOracle oracle = new TableOracle(reader, List.of(table));

    broker.createTopic(topic, 4);
    worker1.rest().putConnector(name, config);
    worker1.rest().awaitRunning(name, 2, RUNNING_TIMEOUT);
    try (OrderEvents events = new OrderEvents(broker.bootstrapServers());
        Admin admin = broker.admin()) {
      events.send(topic, 4, 0, 400);
      oracle.awaitRowCount(400, DELIVERED);
      CompletableFuture<Void> flowing =
          CompletableFuture.runAsync(
              () -> {
                for (int batch = 0; batch < 8; batch++) {
                  events.send(topic, 4, 400 + batch * 100L, 400 + (batch + 1) * 100L);
                  Ports.sleep(Duration.ofMillis(300));
                }
              });
      Thread.sleep(1000);
      worker2.kill();
      flowing.get();
      oracle.awaitRowCount(1200, DELIVERED);
      oracle.assertExactlyOnce(admin, "connect-" + name, topic, 1200);
    }

    Table written = reader.loadTable(TableIdentifier.parse(table));
    assertThat(written.location()).startsWith(AzuriteServer.location(CONTAINER, "warehouse/"));
    assertThat(Files.readString(azurite.log()))
        .as("Azurite's access log: data files created through its blob endpoint")
        .containsPattern("\"PUT /" + AzuriteServer.ACCOUNT + "/" + CONTAINER + "/[^ ]*\\.parquet");
    String surfaces =
        Files.readString(worker1.log())
            + Files.readString(worker2.log())
            + Surfaces.rest(worker1.rest())
            + Surfaces.topic(broker, GROUP + "-configs")
            + Surfaces.topic(broker, GROUP + "-status");
    assertThat(surfaces).contains(name).doesNotContain(TAG).doesNotContain("is restricted by");
    worker1.rest().deleteConnector(name);
  }

  /**
   * A JDBC catalog on SQLite, warehouse {@code abfs://lake@<account host>/warehouse} through
   * ADLSFileIO on Azurite.
   */
  private Map<String, String> catalogProperties() {
    Path dir = StackDirs.newServiceDir("adls-catalog");
    Map<String, String> catalog =
        new LinkedHashMap<>(
            SqliteCatalogs.properties(
                dir.resolve("catalog.db"), AzuriteServer.location(CONTAINER, "warehouse")));
    catalog.putAll(azurite.fileIoProperties());
    return catalog;
  }
}
