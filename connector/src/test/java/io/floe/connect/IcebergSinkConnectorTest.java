/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.Namespaces;
import io.floe.connect.config.WorkerFiles;
import io.floe.connect.config.WorkerKafka;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergSinkConnectorTest {
  private static final String CANARY = "canary-a41f9e27";

  @TempDir Path dir;

  private WorkerKafka workerWith(String properties) throws IOException {
    return WorkerFiles.distributedWorker(dir, properties);
  }

  /** Connector {@code orders} writing topic {@code orders} to db.orders through a REST catalog. */
  static Map<String, String> ordersConnector() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "orders");
    props.put("topics", "orders");
    props.put("iceberg.tables", "db.orders");
    props.put("iceberg.catalog.type", "rest");
    props.put("iceberg.catalog.uri", "http://catalog");
    props.put("iceberg.kafka.bootstrap.servers", "broker:9092");
    return props;
  }

  private static Map<String, String> withCredentials() {
    Map<String, String> props = ordersConnector();
    props.put("iceberg.catalog.credential", "client:" + CANARY);
    props.put("iceberg.catalog.s3.secret-access-key", CANARY);
    props.put("iceberg.kafka.ssl.key.password", CANARY + "-key");
    props.put("iceberg.catalog.token-refresh-enabled", "true");
    return props;
  }

  private static List<String> startLogs(WorkerKafka worker, Map<String, String> props) {
    IcebergSinkConnector connector = new IcebergSinkConnector(worker);
    try (LogCapture logs = LogCapture.of(IcebergSinkConnector.class)) {
      connector.start(props);
      connector.stop();
      return logs.lines();
    }
  }

  @Test
  void aConnectorThatCannotReachItsCatalogStartsAndLeavesTheNamespacesToItsTasks()
      throws IOException {
    Map<String, String> props = withCredentials();
    props.put("iceberg.catalog.uri", "http://127.0.0.1:1");
    props.put("iceberg.tables.auto-create-enabled", "true");
    IcebergSinkConnector connector =
        new IcebergSinkConnector(workerWith("bootstrap.servers=broker:9092\n"));
    try (LogCapture namespaces = LogCapture.of(Namespaces.class);
        LogCapture loader = LogCapture.of(CatalogLoader.class)) {
      connector.start(props);

      assertThat(connector.taskConfigs(2)).hasSize(2);
      assertThat(namespaces.at("WARN"))
          .singleElement()
          .asString()
          .contains("Could not create the namespaces of the listed tables [db]")
          .contains("The tasks create the missing ones");
      assertThat(namespaces.text() + loader.text()).doesNotContain(CANARY);
    } finally {
      connector.stop();
    }
  }

  @Test
  void logsOneWarningNamingEachClearTextCredentialKeyButNoValue() throws IOException {
    List<String> lines =
        startLogs(workerWith("bootstrap.servers=broker:9092\n"), withCredentials());

    assertThat(lines.stream().filter(l -> l.startsWith("WARN Credentials")))
        .singleElement()
        .asString()
        .contains(
            "iceberg.catalog.credential, iceberg.catalog.s3.secret-access-key,"
                + " iceberg.kafka.ssl.key.password:")
        .doesNotContain("token-refresh-enabled");
    assertThat(String.join("\n", lines)).doesNotContain(CANARY);
  }

  @Test
  void onlyNotesTheCredentialKeysWhenTheWorkerHasAConfigProvider() throws IOException {
    List<String> lines =
        startLogs(
            workerWith("bootstrap.servers=broker:9092\nconfig.providers=file\n"),
            withCredentials());

    assertThat(lines).noneMatch(l -> l.startsWith("WARN Credential"));
    assertThat(lines.stream().filter(l -> l.startsWith("INFO Credential-bearing keys set:")))
        .singleElement()
        .asString()
        .contains("cannot tell", "the worker defines file");
    assertThat(String.join("\n", lines)).doesNotContain(CANARY);
  }

  @Test
  void warnsOnceAtStartForEachApacheSinkKeyFloeDoesNotUse() throws IOException {
    Map<String, String> props = withCredentials();
    props.put("iceberg.control.commit.threads", "8");
    props.put("iceberg.control.commit.max-consecutive-failures", "3");
    List<String> lines = startLogs(workerWith("bootstrap.servers=broker:9092\n"), props);

    assertThat(lines.stream().filter(l -> l.contains("iceberg.control.commit.threads")))
        .singleElement()
        .asString()
        .startsWith("WARN iceberg.control.commit.threads is an Apache Iceberg sink setting");
    assertThat(
            lines.stream()
                .filter(l -> l.contains("iceberg.control.commit.max-consecutive-failures")))
        .singleElement()
        .asString()
        .startsWith("WARN ")
        .contains("iceberg.control.commit.retry-timeout-ms");
  }
}
