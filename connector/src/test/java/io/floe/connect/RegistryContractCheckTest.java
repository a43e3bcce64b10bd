/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.avro.FakeRegistry;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.contract.TestContracts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RegistryContractCheckTest {
  private static final String CANARY = "canary-5d0c2b71";
  private static final String CONTRACT =
      TestContracts.orders("id integer required", "customer string required");
  private static final Schema ORDER = order(",{\"name\":\"customer\",\"type\":\"string\"}");

  private FakeRegistry registry;

  @BeforeEach
  void startRegistry() {
    registry = FakeRegistry.start();
    registry.requireAuthorization(
        "Basic "
            + Base64.getEncoder()
                .encodeToString(("floe:" + CANARY).getBytes(StandardCharsets.UTF_8)));
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  private static Schema order(String moreFields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}"
                + moreFields
                + "]}");
  }

  private static Map<String, String> props(String registryUrl) {
    Map<String, String> props = IcebergSinkConnectorTest.ordersConnector();
    props.put("topics", "orders,payments");
    props.put("iceberg.table.db.orders.contract", CONTRACT);
    props.put("value.converter", "io.floe.connect.avro.AvroConverter");
    props.put("value.converter.schema.registry.url", registryUrl);
    props.put("value.converter.basic.auth.credentials.source", "USER_INFO");
    props.put("value.converter.basic.auth.user.info", "floe:" + CANARY);
    return props;
  }

  private static Optional<RegistryContractCheck> check(Map<String, String> props) {
    return RegistryContractCheck.of(props, new FloeSinkConfig(props));
  }

  private static LogCapture run(Map<String, String> props) {
    LogCapture logs = LogCapture.of(RegistryContractCheck.class);
    check(props).orElseThrow().run();
    return logs;
  }

  /** The one line the check of topic {@code orders} logs, which must be a WARN. */
  private String onlyWarningOfOrders() {
    Map<String, String> props = props(registry.url());
    props.put("topics", "orders");
    try (LogCapture logs = run(props)) {
      assertThat(logs.lines()).hasSize(1);
      assertThat(logs.at("WARN")).hasSize(1);
      return logs.at("WARN").get(0);
    }
  }

  @Test
  void warnsOnceNamingTableSubjectAndLevelWhereTheLevelIsNoneAndNotWhereItIsFullTransitive() {
    registry.add("orders-value", ORDER);
    registry.add("payments-value", ORDER);
    registry.level("orders-value", "NONE");
    registry.level("payments-value", "FULL_TRANSITIVE");
    try (LogCapture logs = run(props(registry.url()))) {
      assertThat(logs.at("WARN"))
          .singleElement()
          .asString()
          .startsWith(
              "WARN Subject orders-value of the schema registry, at compatibility level NONE"
                  + " (latest schema id 1), does not protect the data contract 'orders' version"
                  + " 1.0.0 of table db.orders: NONE checks nothing")
          .endsWith(
              "Records that break the contract are bad records (dead-lettered, or failing the"
                  + " task): set the subject's compatibility level to FULL_TRANSITIVE or"
                  + " FORWARD_TRANSITIVE");
      assertThat(logs.at("INFO"))
          .singleElement()
          .asString()
          .isEqualTo(
              "INFO Subject payments-value of the schema registry, at compatibility level"
                  + " FULL_TRANSITIVE (latest schema id 1), protects the data contract 'orders'"
                  + " version 1.0.0 of table db.orders");
      assertThat(logs.text()).doesNotContain(CANARY);
    }
    // one level request per subject, one latest schema per subject
    assertThat(registry.count("GET /config/orders-value")).isOne();
    assertThat(registry.count("GET /subjects/orders-value/versions/latest")).isOne();
  }

  @Test
  void warnsWhereTheLatestSchemaLacksARequiredFieldWhateverTheLevel() {
    registry.add("orders-value", ORDER);
    int id = registry.add("orders-value", order(""));
    registry.globalLevel("FULL_TRANSITIVE");
    assertThat(onlyWarningOfOrders())
        .contains("at compatibility level FULL_TRANSITIVE (latest schema id " + id + ")")
        .contains(
            "its latest schema (id "
                + id
                + "): it has no field customer, which the contract requires. Records")
        .endsWith(
            "task): register a schema with the contract's required fields non-null, of its"
                + " types and without defaults, or change the contract");
  }

  @Test
  void aSubjectWithoutSchemaIsJudgedByItsLevel() {
    registry.globalLevel("BACKWARD");
    assertThat(onlyWarningOfOrders())
        .contains("at compatibility level BACKWARD (latest schema not read: Subject orders-value")
        .contains("it lets a new schema drop the required fields [id, customer]");
  }

  @Test
  void aRegistryThatDoesNotAnswerIsOneWarningWithinTheCheckTimeout() throws IOException {
    // accepts connections and never answers
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Map<String, String> props = props("http://127.0.0.1:" + silent.getLocalPort());
      props.put("value.converter.schema.registry.request.timeout-ms", "600000");
      long start = System.nanoTime();
      try (LogCapture logs = run(props)) {
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took)
            .isLessThan(RegistryContractCheck.MAX_REQUEST_TIMEOUT.plus(Duration.ofSeconds(5)));
        assertThat(logs.lines())
            .singleElement()
            .asString()
            .startsWith(
                "WARN Cannot check the schema registry against the data contracts of tables"
                    + " [db.orders]; the connector starts anyway")
            .contains("http://127.0.0.1:" + silent.getLocalPort())
            .doesNotContain(CANARY);
      }
    }
  }

  @Test
  void runsOnlyWithARegistryForValuesAndATableWithAContract() {
    Map<String, String> noRegistry = props(registry.url());
    noRegistry.remove("value.converter.schema.registry.url");
    assertThat(check(noRegistry)).isEmpty();
    Map<String, String> noContract = props(registry.url());
    noContract.remove("iceberg.table.db.orders.contract");
    assertThat(check(noContract)).isEmpty();
    // Confluent's converter, with the same keys, is checked too
    Map<String, String> confluent = props(registry.url());
    confluent.put("value.converter", "io.confluent.connect.avro.AvroConverter");
    assertThat(check(confluent)).isPresent();
  }

  @Test
  void topicsByRegexOrSubjectsByRecordNameAreToldAndNotChecked() {
    Map<String, String> regex = props(registry.url());
    regex.remove("topics");
    regex.put("topics.regex", "orders.*");
    try (LogCapture logs = run(regex)) {
      assertThat(logs.lines())
          .singleElement()
          .asString()
          .startsWith("INFO The schema registry is not checked")
          .contains("topics.regex orders.*");
    }
    Map<String, String> byRecord = props(registry.url());
    byRecord.put("value.converter.value.subject.name.strategy", "RecordNameStrategy");
    try (LogCapture logs = run(byRecord)) {
      assertThat(logs.lines())
          .singleElement()
          .asString()
          .contains("RecordNameStrategy names subjects after the record");
    }
    assertThat(registry.totalRequests()).isZero();
  }

  @Test
  void runsOnItsOwnThreadSoTheConnectorDoesNotWaitForIt() throws InterruptedException {
    registry.add("orders-value", ORDER);
    registry.globalLevel("NONE");
    try (LogCapture logs = LogCapture.of(RegistryContractCheck.class)) {
      Thread thread = check(props(registry.url())).orElseThrow().start("orders");
      assertThat(thread.isDaemon()).isTrue();
      assertThat(thread.getName()).isEqualTo("floe-registry-check-orders");
      thread.join(10_000);
      assertThat(logs.at("WARN")).hasSize(2);
    }
  }

  @Test
  void aCheckWaitingForTheRegistryEndsQuietlyWhenTheConnectorStops() throws Exception {
    // accepts connections and never answers
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        LogCapture logs = LogCapture.of(RegistryContractCheck.class)) {
      Thread thread =
          check(props("http://127.0.0.1:" + silent.getLocalPort())).orElseThrow().start("orders");
      Thread.sleep(200);
      thread.interrupt();
      thread.join(2_000);
      assertThat(thread.isAlive()).isFalse();
      assertThat(logs.lines()).isEmpty();
    }
  }
}
