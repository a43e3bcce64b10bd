/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Acls;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaTls;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Readme;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import io.floe.it.stack.Surfaces;
import io.floe.it.stack.TlsCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A broker that takes only mutual TLS, with ACLs on: the Connect worker logs in with its own
 * certificate ({@code User:connect}), and the connector of {@code config-examples/kafka-mtls.json}
 * with the connector's ({@code User:floe}), for Connect's sink consumer and Floe's control clients
 * alike, the other TLS settings of the control clients coming from the worker's properties file.
 * Every store password reaches the worker and the connector through {@code ${file:…}}, and part of
 * each is a canary that must show nowhere. A trust store of another authority and an expired
 * certificate fail with what is wrong.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SharedStack.Extension.class)
class TlsIT {
  private static final String CANARY = "canary-4b9e17d2c0";
  private static final String WORKER_USER = "connect";
  private static final String WORKER_GROUP = "tlsworker";
  private static final String USER = "floe";
  private static final String NAME = "orders-mtls";
  private static final Duration FAIL_WITHIN = Duration.ofSeconds(60);

  @RegisterExtension final Services services = Services.closedAfterAll();

  private Path secrets;
  private Path workerKeystore;
  private Path floeKeystore;
  private Path expiredKeystore;
  private Path otherTruststore;
  private KafkaTls tls;
  private KafkaBroker broker;
  private Admin admin;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private KafkaProducer<String, String> producer;
  private final List<ConnectWorker> workers = new ArrayList<>();

  @BeforeAll
  void startStack(SharedStack stack) throws Exception {
    Path dir = StackDirs.newServiceDir("tls");
    TlsCertificates authority = TlsCertificates.authority(dir, "floe-test-ca", CANARY + "-store");
    tls = KafkaTls.mutual(authority);
    workerKeystore = authority.keystore(WORKER_USER);
    floeKeystore = authority.keystore(USER);
    Instant now = Instant.now();
    expiredKeystore =
        authority.keystore(
            "floe-expired", USER, now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(9)));
    otherTruststore =
        TlsCertificates.authority(dir.resolve("other"), "another-ca", authority.password())
            .truststore("other-truststore");
    secrets = dir.resolve("kafka-tls.properties");
    Files.writeString(
        secrets,
        "keystore-password="
            + authority.password()
            + "\ntruststore-password="
            + authority.password()
            + "\n");

    broker = services.own(KafkaBroker.startSecured(tls));
    admin = services.own(broker.admin());
    grantAcls();
    rest = stack.rest();
    catalog = services.catalog("tls", rest.clientProperties());
    worker = startWorker();
    producer = services.own(broker.stringProducer());
  }

  /**
   * The worker's principal may use only its own group and topics; the connector's may read and
   * write any topic, group and transactional id. So the connector runs only if every client of it
   * logs in with its own certificate.
   */
  private void grantAcls() {
    List<AclBinding> acls = new ArrayList<>();
    String worker = KafkaTls.principal(WORKER_USER);
    acls.addAll(Acls.allowLiteral(worker, ResourceType.GROUP, WORKER_GROUP, AclOperation.ALL));
    acls.addAll(Acls.allowPrefixed(worker, ResourceType.TOPIC, WORKER_GROUP, AclOperation.ALL));
    String floe = KafkaTls.principal(USER);
    for (ResourceType type :
        List.of(ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID)) {
      acls.addAll(Acls.allowLiteral(floe, type, "*", AclOperation.ALL));
    }
    Acls.create(admin, acls);
  }

  /**
   * A worker of group {@value #WORKER_GROUP} logging in as {@value #WORKER_USER}, its store
   * passwords by {@code ${file:…}}, with the README's client override policy, and Floe logging at
   * TRACE so that every level it logs at is searched.
   */
  private ConnectWorker startWorker() {
    ConnectWorker started =
        services.own(
            ConnectWorker.start(
                broker,
                PluginInstall.pluginPath(),
                new ConnectWorker.Options()
                    .groupId(WORKER_GROUP)
                    // a killed worker's sink consumers leave their group soon
                    .workerProperty("consumer.session.timeout.ms", "6000")
                    .workerProperty("consumer.heartbeat.interval.ms", "2000")
                    .workerProperties(
                        tls.workerProperties(
                            workerKeystore,
                            secret("keystore-password"),
                            secret("truststore-password")))
                    .workerProperties(
                        Readme.workerPropertiesSetting(
                            "connector.client.config.override.policy", "Allowlist"))
                    .fileConfigProvider()));
    workers.add(started);
    assertThat(started.rest().send("PUT", "/admin/loggers/io.floe", "{\"level\":\"TRACE\"}").ok())
        .isTrue();
    return started;
  }

  private String secret(String key) {
    return "${file:" + secrets + ":" + key + "}";
  }

  /**
   * {@code kafka-mtls.json} on this stack: its key store and secrets file replaced by the test's,
   * the catalog by the shared REST catalog, quick commits.
   */
  private Map<String, String> connector(String topic) {
    Map<String, String> config = ConfigExamples.load("kafka-mtls.json");
    config.remove("name");
    config.replaceAll(
        (key, value) ->
            value
                .replace("/etc/kafka-connect/tls/floe-orders.p12", floeKeystore.toString())
                .replace("/etc/kafka-connect/secrets/kafka-tls.properties", secrets.toString()));
    config.keySet().removeIf(key -> key.startsWith("iceberg.catalog."));
    rest.clientProperties().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("topics", topic);
    config.put("iceberg.tables", "db." + topic.replace('-', '_'));
    config.put("iceberg.control.topic", topic + "-control");
    config.put("iceberg.control.commit.retry-timeout-ms", "10000");
    return ConfigExamples.withMetadataAndQuickCommits(config);
  }

  private void send(String topic, int from, int to) throws Exception {
    for (int id = from; id < to; id++) {
      producer
          .send(new ProducerRecord<>(topic, id % 2, "k" + id, "{\"id\":" + id + "}"))
          .get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(1)
  void everyClientLogsInWithItsCertificateAndRecordsLandExactlyOnceThroughAWorkerKill()
      throws Exception {
    broker.createTopic(NAME, 2);
    TableOracle oracle = new TableOracle(catalog, List.of("db.orders_mtls"));
    send(NAME, 0, 50);
    worker.rest().putConnector(NAME, connector(NAME));
    worker.rest().awaitRunning(NAME, 2, Duration.ofSeconds(60));
    oracle.awaitRowCount(50, Duration.ofSeconds(60));

    send(NAME, 50, 80);
    worker.kill();
    send(NAME, 80, 100);
    worker = startWorker();
    worker.rest().awaitRunning(NAME, 2, Duration.ofSeconds(90));
    oracle.awaitRowCount(100, Duration.ofSeconds(90));
    oracle.assertExactlyOnce(admin, "connect-" + NAME, NAME, 100);
  }

  @Test
  @Order(2)
  void aTruststoreOfAnotherAuthorityFailsTheTaskSayingTheBrokerIsNotTrusted() {
    String name = "untrusted-mtls";
    broker.createTopic(name, 1);
    Map<String, String> config = connector(name);
    config.put("iceberg.kafka.ssl.truststore.location", otherTruststore.toString());
    worker.rest().putConnector(name, config);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .contains(
            "The control clients could not log in to the Kafka cluster of the control topic at "
                + broker.bootstrapServers()
                + " (security.protocol=SSL)")
        .contains("the broker's certificate is not trusted")
        .contains("iceberg.kafka.ssl.truststore.location")
        .contains("PKIX path")
        .doesNotContain(CANARY);
    worker.rest().deleteConnector(name);
  }

  @Test
  @Order(3)
  void anExpiredCertificateIsRefusedAtValidationOnTheKeyOfEachClient() {
    Map<String, String> config = connector("expired-mtls");
    config.put("name", "expired-mtls");
    config.put("iceberg.kafka.ssl.keystore.location", expiredKeystore.toString());
    config.put("consumer.override.ssl.keystore.location", expiredKeystore.toString());
    Map<String, List<String>> errors =
        ConnectRest.errorsByKey(worker.rest().validate(config.get("connector.class"), config));
    assertThat(errors)
        .containsOnlyKeys(
            "iceberg.kafka.ssl.keystore.location", "consumer.override.ssl.keystore.location");
    assertThat(errors.get("iceberg.kafka.ssl.keystore.location"))
        .singleElement()
        .asString()
        .contains("The certificate CN=" + USER + " in the keystore " + expiredKeystore)
        .contains("expired on")
        .contains("the broker will refuse Floe's control clients");
    assertThat(errors.get("consumer.override.ssl.keystore.location"))
        .singleElement()
        .asString()
        .contains("expired on")
        .contains("the sink task's consumer");
  }

  @Test
  @Order(4)
  void theStorePasswordsAppearNowhere() throws Exception {
    for (ConnectWorker each : workers) {
      assertThat(Files.readString(each.log()))
          .as("the log of worker %s", each.dir())
          .contains("TRACE")
          .doesNotContain(CANARY);
    }
    assertThat(Surfaces.rest(worker.rest()))
        .as("REST answers")
        .contains("${file:")
        .doesNotContain(CANARY);
    Map<String, String> clearText = connector("cleartext-mtls");
    clearText.put("name", "cleartext-mtls");
    clearText.replaceAll((key, value) -> value.startsWith("${file:") ? CANARY + "-store" : value);
    assertThat(worker.rest().validate(clearText.get("connector.class"), clearText).toString())
        .as("/config/validate with the passwords in clear text")
        .doesNotContain(CANARY);
    clearText.replaceAll(
        (key, value) -> value.equals(CANARY + "-store") ? CANARY + "-wrong" : value);
    String wrong = worker.rest().validate(clearText.get("connector.class"), clearText).toString();
    assertThat(wrong)
        .as("/config/validate with wrong passwords in clear text")
        .contains("Cannot open the keystore")
        .doesNotContain(CANARY);
    for (String topic :
        List.of(NAME + "-control", WORKER_GROUP + "-configs", WORKER_GROUP + "-status")) {
      assertThat(Surfaces.topic(broker, topic))
          .as("topic %s", topic)
          .isNotEmpty()
          .doesNotContain(CANARY);
    }
  }
}
