/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.errors.DeadLetters;
import io.floe.it.stack.Acls;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaSecurity;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Readme;
import io.floe.it.stack.RestCatalogServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connector on a broker with SASL and ACLs on, as its own principal with exactly the ACLs the
 * README lists: it writes every record exactly once, and without any one of those ACLs it fails
 * with a message that names the missing permission.
 *
 * <p>The Connect worker logs in as {@value #WORKER} (SCRAM-SHA-512), with ACLs for Connect's own
 * topics and group only; the connector's clients (the sink consumer, and Floe's control clients
 * through {@code iceberg.kafka.*}) log in as {@value #CONNECTOR}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeastPrivilegeIT {
  private static final String WORKER = "connect";
  private static final String CONNECTOR = "floe";
  private static final String WORKER_GROUP = "secured";
  private static final long INTERVAL_MS = 2000;
  private static final Duration FAIL_WITHIN = Duration.ofSeconds(60);

  private final KafkaSecurity security = KafkaSecurity.withScramUsers(WORKER, CONNECTOR);
  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private OrderEvents events;
  private Admin admin;

  /** One ACL of the connector's minimal set. */
  enum Grant {
    SOURCE_TOPIC_READ,
    CONNECT_GROUP_READ,
    CONTROL_TOPIC_READ,
    CONTROL_TOPIC_WRITE,
    CONTROL_TOPIC_CREATE,
    COORDINATOR_GROUP_READ,
    TRANSACTIONAL_ID_WRITE,
    DEAD_LETTER_TOPIC_WRITE;

    /** The ACL for connector {@code name}, which reads topic {@code name}. */
    AclBinding acl(String name) {
      String principal = KafkaSecurity.principal(CONNECTOR);
      return switch (this) {
        case SOURCE_TOPIC_READ -> topic(principal, name, AclOperation.READ);
        case CONNECT_GROUP_READ -> group(principal, "connect-" + name);
        case CONTROL_TOPIC_READ -> topic(principal, controlTopic(name), AclOperation.READ);
        case CONTROL_TOPIC_WRITE -> topic(principal, controlTopic(name), AclOperation.WRITE);
        case CONTROL_TOPIC_CREATE -> topic(principal, controlTopic(name), AclOperation.CREATE);
        case COORDINATOR_GROUP_READ -> group(principal, "floe-" + name + "-coordinator");
        case TRANSACTIONAL_ID_WRITE ->
            Acls.allowPrefixed(
                    principal,
                    ResourceType.TRANSACTIONAL_ID,
                    transactionalIdPrefix(name),
                    AclOperation.WRITE)
                .get(0);
        case DEAD_LETTER_TOPIC_WRITE -> topic(principal, deadLetterTopic(name), AclOperation.WRITE);
      };
    }

    /**
     * What the failure without this ACL must say: Kafka's own refusal for the clients Connect
     * makes, and the ACL to grant for Floe's control clients.
     */
    String expected(String name) {
      return switch (this) {
        case SOURCE_TOPIC_READ -> "Not authorized to access topics: [" + name + "]";
        case CONNECT_GROUP_READ -> "Not authorized to access group: connect-" + name;
        case CONTROL_TOPIC_READ ->
            "Grant the connector's principal READ on topic " + controlTopic(name);
        case CONTROL_TOPIC_WRITE ->
            "Grant the connector's principal WRITE on topic " + controlTopic(name);
        case CONTROL_TOPIC_CREATE ->
            "Grant the connector's principal CREATE on topic " + controlTopic(name);
        case COORDINATOR_GROUP_READ ->
            "Grant the connector's principal READ on group floe-" + name + "-coordinator";
        case TRANSACTIONAL_ID_WRITE ->
            "Grant the connector's principal WRITE on transactional id "
                + transactionalIdPrefix(name)
                + "floe-"
                + name;
        case DEAD_LETTER_TOPIC_WRITE ->
            "Could not initialize dead letter queue with topic=" + deadLetterTopic(name);
      };
    }

    private static AclBinding topic(String principal, String topic, AclOperation operation) {
      return Acls.allowLiteral(principal, ResourceType.TOPIC, topic, operation).get(0);
    }

    private static AclBinding group(String principal, String group) {
      return Acls.allowLiteral(principal, ResourceType.GROUP, group, AclOperation.READ).get(0);
    }
  }

  private static String controlTopic(String name) {
    return name + "-control";
  }

  private static String deadLetterTopic(String name) {
    return name + "-dlq";
  }

  private static String transactionalIdPrefix(String name) {
    return name + "-";
  }

  private static List<AclBinding> grants(String name, Grant without) {
    List<AclBinding> acls = new ArrayList<>();
    for (Grant grant : Grant.values()) {
      if (grant != without) {
        acls.add(grant.acl(name));
      }
    }
    return acls;
  }

  /** What a Connect worker needs for its own topics and group. */
  private static List<AclBinding> workerGrants() {
    String principal = KafkaSecurity.principal(WORKER);
    List<AclBinding> acls = new ArrayList<>();
    acls.addAll(Acls.allowLiteral(principal, ResourceType.GROUP, WORKER_GROUP, AclOperation.READ));
    acls.addAll(
        Acls.allowPrefixed(
            principal,
            ResourceType.TOPIC,
            WORKER_GROUP + "-",
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE));
    return acls;
  }

  @BeforeAll
  void startStack() {
    broker = KafkaBroker.startSecured(security);
    admin = broker.admin();
    Acls.create(admin, workerGrants());
    rest = RestCatalogServer.withLocalWarehouse();
    catalog = CatalogUtil.buildIcebergCatalog("test", rest.clientProperties(), null);
    worker =
        ConnectWorker.start(
            broker,
            PluginInstall.pluginPath(),
            new ConnectWorker.Options()
                .groupId(WORKER_GROUP)
                .workerProperties(security.workerProperties(WORKER))
                // the client override policy the README recommends for Kafka 4.2 and later
                .workerProperties(
                    Readme.workerPropertiesSetting(
                        "connector.client.config.override.policy", "Allowlist")));
    events = new OrderEvents(broker.bootstrapServers(), broker.adminLogin());
  }

  @AfterEach
  void deleteConnectors() {
    ConnectRest.Response connectors = worker.rest().send("GET", "/connectors", null);
    if (connectors.ok() && connectors.body() != null) {
      for (JsonNode name : connectors.body()) {
        worker.rest().deleteConnector(name.asText());
      }
    }
  }

  @AfterAll
  void stopStack() throws Exception {
    for (AutoCloseable service :
        new AutoCloseable[] {events, worker, (AutoCloseable) catalog, rest, admin, broker}) {
      if (service != null) {
        service.close();
      }
    }
  }

  private Map<String, String> connector(String name) {
    Map<String, String> config =
        TwoTableConnector.config(
            name, name, 1, rest.clientProperties(), broker.bootstrapServers(), INTERVAL_MS);
    config.put("iceberg.control.topic", controlTopic(name));
    config.put("iceberg.control.transactional-id-prefix", transactionalIdPrefix(name));
    config.put("errors.tolerance", "all");
    config.put("errors.deadletterqueue.topic.name", deadLetterTopic(name));
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    config.put("consumer.override.isolation.level", "read_committed");
    config.putAll(security.connectorProperties(CONNECTOR));
    return config;
  }

  /** Creates the source topic and the dead-letter topic of connector {@code name}. */
  private void createTopics(String name, int partitions) {
    broker.createTopic(name, partitions);
    broker.createTopic(deadLetterTopic(name), 1);
  }

  /** A record no table takes (its route value matches no table): a bad record. */
  private void sendBadRecord(String topic, int partition, long id) throws Exception {
    String value =
        OrderEvents.value(id, System.currentTimeMillis())
            .replace("\"kind\":\"" + (id % 2 == 0 ? "a" : "b") + "\"", "\"kind\":\"z\"");
    try (var producer = broker.stringProducer()) {
      producer
          .send(
              new org.apache.kafka.clients.producer.ProducerRecord<>(
                  topic, partition, Long.toString(id), value))
          .get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @Test
  void writesExactlyOnceWithOnlyTheDocumentedAcls() throws Exception {
    String name = "least";
    createTopics(name, 2);
    Acls.create(admin, grants(name, null));
    worker.rest().putConnector(name, connector(name));
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));

    events.send(name, 2, 0, 500);
    sendBadRecord(name, 0, 1_000_000);
    events.send(name, 2, 500, 1000);
    TableOracle oracle = TwoTableConnector.oracle(catalog, name);
    TwoTableConnector.await("rows in the tables", oracle::rowCount, 1000, Duration.ofSeconds(90));
    events.send(name, 2, 1000, 1500);
    TwoTableConnector.await("rows in the tables", oracle::rowCount, 1500, Duration.ofSeconds(90));
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 1500);
    Map<Long, DeadLetters.DeadLetter> letters =
        DeadLetters.read(broker, deadLetterTopic(name), 1, Duration.ofSeconds(30));
    assertThat(letters).as("dead letters").hasSize(1).containsKey(250L);
    assertThat(worker.rest().status(name).path("tasks").get(0).path("state").asText())
        .isEqualTo("RUNNING");
  }

  @ParameterizedTest
  @EnumSource(Grant.class)
  void withoutOneAclFailsNamingIt(Grant missing) throws Exception {
    String name = "lp-" + missing.name().toLowerCase().replace('_', '-');
    createTopics(name, 1);
    Acls.create(admin, grants(name, missing));
    worker.rest().putConnector(name, connector(name));
    events.send(name, 1, 0, 100);
    sendBadRecord(name, 0, 1_000_000);

    assertFailsNaming(name, missing, "without");
    TableOracle oracle = TwoTableConnector.oracle(catalog, name);
    assertThat(oracle.rowCount()).as("rows committed without %s", missing).isZero();
  }

  /**
   * An ACL revoked while the connector runs: the next commit cycle fails the task naming it, and
   * what was committed before stays exactly once.
   */
  @ParameterizedTest
  @EnumSource(
      value = Grant.class,
      names = {"CONTROL_TOPIC_WRITE", "COORDINATOR_GROUP_READ", "TRANSACTIONAL_ID_WRITE"})
  void revokingAnAclWhileRunningFailsNamingIt(Grant revoked) throws Exception {
    String name = "lr-" + revoked.name().toLowerCase().replace('_', '-');
    createTopics(name, 1);
    Acls.create(admin, grants(name, null));
    worker.rest().putConnector(name, connector(name));
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
    events.send(name, 1, 0, 100);
    TableOracle oracle = TwoTableConnector.oracle(catalog, name);
    TwoTableConnector.await(
        "rows before the revocation", oracle::rowCount, 100, Duration.ofSeconds(60));

    Acls.delete(admin, List.of(revoked.acl(name)));
    events.send(name, 1, 100, 200);

    assertFailsNaming(name, revoked, "revoked");
    List<TableOracle.Origin> origins = oracle.origins();
    assertThat(Set.copyOf(origins)).as("distinct rows").hasSize(origins.size());
    assertThat(origins.size()).as("rows").isBetween(100, 200);
  }

  /** Waits for the connector or its task to fail, naming the missing {@code grant}. */
  private void assertFailsNaming(String name, Grant grant, String how) throws Exception {
    String failure = worker.rest().awaitFailure(name, FAIL_WITHIN);
    System.out.printf("%s %s: %s%n", how, grant, failure);
    assertThat(failure)
        .as("the failure of %s, %s %s", name, how, grant)
        .contains(grant.expected(name))
        .containsIgnoringCase("authoriz");
  }
}
