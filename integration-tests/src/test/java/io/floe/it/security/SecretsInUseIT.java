/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.avro.RegistryClient;
import io.floe.it.avro.WireFormat;
import io.floe.it.eos.TableOracle;
import io.floe.it.errors.DeadLetters;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.Acls;
import io.floe.it.stack.Await;
import io.floe.it.stack.CatalogAuthority;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaSecurity;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Ports;
import io.floe.it.stack.PostgresServer;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.S3ProxyServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.StackDirs;
import io.floe.it.stack.Surfaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every secret a connector holds, in use by a real service, and the promise that none of them shows
 * anywhere, also when the services refuse them.
 *
 * <p>One canary string is part of every secret: the connector principal's SCRAM password on a
 * broker with SASL and ACLs on (for the sink consumer, the dead-letter producer, the admin client
 * and Floe's control clients), the PostgreSQL password of the JDBC catalog, the S3 access key and
 * secret key of the warehouse on S3Proxy, the schema registry's basic-auth credentials used by the
 * Avro converter, and, for a second connector on a REST catalog with OAuth2 and vended credentials,
 * the client secret it logs in with, the tokens it is given and the S3 keys vended to it (both
 * expiring, so that they are refreshed while the connector runs). Each reaches its key through
 * {@code ${file:…}}, as in production. The tests then drive what makes clients quote credentials: a
 * wrong password for each service, a password rotated under a running connector, a catalog outage
 * and dead letters. The last test searches every surface for the canary: the worker log with Floe
 * at TRACE, every REST answer and status trace, every MBean name and attribute, the control,
 * dead-letter and Connect topics, snapshot summaries and table properties, the catalog database,
 * and every file of the warehouse.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecretsInUseIT {
  /** Part of every secret; it must show up nowhere. */
  private static final String CANARY = "canary-7c41e09d3b";

  private static final String WORKER_USER = "connect";
  private static final String USER = "floe";
  private static final String BUCKET = "lakehouse";
  private static final String VENDED = "vended";
  private static final Duration FAIL_WITHIN = Duration.ofSeconds(90);

  private static final Schema ORDER =
      SchemaBuilder.record("Order")
          .namespace("shop")
          .fields()
          .requiredLong("id")
          .requiredString("kind")
          .requiredLong("qty")
          .endRecord();

  /** The same record with {@code qty} as a string: a bad record for a table with a long column. */
  private static final Schema ORDER_TEXT_QTY =
      SchemaBuilder.record("Order")
          .namespace("shop")
          .fields()
          .requiredLong("id")
          .requiredString("kind")
          .requiredString("qty")
          .endRecord();

  @RegisterExtension final Services services = Services.closedAfterAll();

  private final KafkaSecurity security =
      KafkaSecurity.withScramUsers(WORKER_USER, USER).withPassword(USER, CANARY);
  private final List<String> connectors = new ArrayList<>();
  private Path secrets;
  private KafkaBroker broker;
  private Admin admin;
  private PostgresServer postgres;
  private S3ProxyServer s3;
  private RestCatalogServer restCatalog;
  private SchemaRegistryServer registry;
  private ConnectWorker worker;
  private RemoteJmx jmx;
  private Catalog catalog;
  private KafkaProducer<String, byte[]> producer;
  private int orderId;
  private int orderIdTextQty;

  @BeforeAll
  void startStack() throws Exception {
    secrets = StackDirs.newServiceDir("secrets").resolve("connector.properties");
    writeSecrets(CANARY);
    broker = services.own(KafkaBroker.startSecured(security));
    admin = services.own(broker.admin());
    String anything = "*";
    for (String user : List.of(WORKER_USER, USER)) {
      String principal = KafkaSecurity.principal(user);
      List<org.apache.kafka.common.acl.AclBinding> acls = new ArrayList<>();
      for (ResourceType type :
          List.of(ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID)) {
        acls.addAll(Acls.allowLiteral(principal, type, anything, AclOperation.ALL));
      }
      Acls.create(admin, acls);
    }
    postgres = services.own(PostgresServer.start());
    postgres.addPasswordUser(USER, CANARY);
    s3 = services.own(S3ProxyServer.start(CANARY + "-key", CANARY));
    s3.createBucket(BUCKET);
    restCatalog =
        services.own(
            RestCatalogServer.withVendedCredentials(
                s3,
                VENDED,
                new CatalogAuthority.Settings(
                    USER,
                    CANARY + "-client",
                    "catalog",
                    Duration.ofSeconds(8),
                    Duration.ofSeconds(5),
                    CANARY)));
    registry = services.own(SchemaRegistryServer.builder().basicAuth(USER, CANARY).build().start());
    RegistryClient registryClient = new RegistryClient(registry.url(), USER + ":" + CANARY);
    orderId = registryClient.register("orders-value", ORDER);
    registryClient.setCompatibility("orders-value", "NONE");
    orderIdTextQty = registryClient.register("orders-value", ORDER_TEXT_QTY);

    int jmxPort = Ports.free();
    worker =
        services.own(
            ConnectWorker.start(
                broker,
                PluginInstall.pluginPath(),
                new ConnectWorker.Options()
                    .workerProperties(security.workerProperties(WORKER_USER))
                    .workerProperty("connector.client.config.override.policy", "Principal")
                    .fileConfigProvider()
                    .jvmOptions(RemoteJmx.jvmOptions(jmxPort))));
    jmx = services.own(RemoteJmx.connect(jmxPort));
    // Floe at its most talkative, so that every level it logs at is searched
    assertThat(worker.rest().send("PUT", "/admin/loggers/io.floe", "{\"level\":\"TRACE\"}").ok())
        .isTrue();

    Map<String, Object> producerProps = new HashMap<>(broker.adminLogin());
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
    producer =
        services.own(
            new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer()));
  }

  /**
   * The tests' own catalog, made once Floe has created the catalog tables (which the connector's
   * database user must own): it reads as the database's superuser, whose password never rotates.
   */
  private Catalog catalog() {
    if (catalog == null) {
      Map<String, String> props = new HashMap<>(catalogProperties());
      props.put("jdbc.user", PostgresServer.USER);
      props.put("jdbc.init-catalog-tables", "false");
      props.put("s3.access-key-id", s3.accessKey());
      props.put("s3.secret-access-key", s3.secretKey());
      catalog = services.catalog("iceberg", props);
    }
    return catalog;
  }

  /** The secrets file with {@code password} in every secret, as a secret store would render it. */
  private void writeSecrets(String password) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("kafka.jaas", KafkaSecurity.scramJaas(USER, password));
    values.put("kafka.jaas.wrong", KafkaSecurity.scramJaas(USER, CANARY + "-wrong"));
    values.put("pg.password", password);
    values.put("pg.password.wrong", CANARY + "-wrong");
    values.put("s3.access", CANARY + "-key");
    values.put("s3.secret", CANARY);
    values.put("s3.secret.wrong", CANARY + "-wrong");
    values.put("registry", USER + ":" + CANARY);
    values.put("registry.wrong", USER + ":" + CANARY + "-wrong");
    values.put("catalog.credential", USER + ":" + CANARY + "-client");
    StringBuilder text = new StringBuilder();
    values.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    try {
      Files.writeString(secrets, text.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String secret(String key) {
    return "${file:" + secrets + ":" + key + "}";
  }

  /** The catalog's settings without its password and S3 keys. */
  private Map<String, String> catalogProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.putAll(postgres.jdbcCatalogProperties("s3://" + BUCKET + "/warehouse"));
    props.put("jdbc.user", USER);
    props.putAll(s3.s3FileIoProperties());
    props.remove("s3.access-key-id");
    props.remove("s3.secret-access-key");
    return props;
  }

  /** Connector {@code name} reading topic {@code name} into {@code db.<name>}, secrets by file. */
  private Map<String, String> connector(String name) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.floe.connect.IcebergSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", name);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "io.floe.connect.avro.AvroConverter");
    config.put("value.converter.schema.registry.url", registry.url());
    config.put("value.converter.basic.auth.credentials.source", "USER_INFO");
    config.put("value.converter.basic.auth.user.info", secret("registry"));
    config.put("value.converter.schema.registry.retries", "1");
    config.put("errors.tolerance", "all");
    config.put("errors.deadletterqueue.topic.name", name + "-dlq");
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    config.put("errors.log.enable", "true");
    config.put("errors.log.include.messages", "true");
    config.put("iceberg.tables", "db." + name);
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.kafka-metadata-column", "_kafka");
    config.put("iceberg.control.topic", name + "-control");
    config.put("iceberg.control.commit.interval-ms", "2000");
    config.put("iceberg.control.commit.timeout-ms", "1500");
    config.put("iceberg.control.commit.retry-timeout-ms", "20000");
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    catalogProperties().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.catalog.jdbc.password", secret("pg.password"));
    config.put("iceberg.catalog.s3.access-key-id", secret("s3.access"));
    config.put("iceberg.catalog.s3.secret-access-key", secret("s3.secret"));
    config.putAll(
        KafkaSecurity.connectorProperties(KafkaSecurity.scramLogin(secret("kafka.jaas"))));
    return config;
  }

  /**
   * Connector {@code name} reading topic {@code name} into {@code vended.<name>} of the REST
   * catalog: its client secret by file, and no S3 keys of its own.
   */
  private Map<String, String> vendedConnector(String name) {
    Map<String, String> config = connector(name);
    config.keySet().removeIf(key -> key.startsWith("iceberg.catalog."));
    restCatalog
        .clientProperties()
        .forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.catalog.credential", secret("catalog.credential"));
    config.put("iceberg.tables", VENDED + "." + name);
    return config;
  }

  private void start(String name, Map<String, String> config) {
    broker.createTopic(name, 1);
    broker.createTopic(name + "-dlq", 1);
    connectors.add(name);
    worker.rest().putConnector(name, config);
  }

  private void send(String topic, long id, long qty) throws Exception {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    order.put("kind", "order");
    order.put("qty", qty);
    send(topic, WireFormat.encode(orderId, order));
  }

  private void send(String topic, byte[] value) throws Exception {
    producer.send(new ProducerRecord<>(topic, 0, "k", value)).get(30, TimeUnit.SECONDS);
  }

  private TableOracle oracle(String name) {
    return new TableOracle(catalog(), List.of("db." + name));
  }

  @Test
  @Order(1)
  void everySecretInUseWritesRecordsExactlyOnceAndDeadLettersBadOnes() throws Exception {
    String name = "orders";
    start(name, connector(name));
    start(VENDED, vendedConnector(VENDED));
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
    worker.rest().awaitRunning(VENDED, 1, Duration.ofSeconds(60));
    for (long id = 0; id < 20; id++) {
      send(VENDED, id, id);
    }
    for (long id = 0; id < 40; id++) {
      send(name, id, id);
    }
    GenericRecord textQty = new GenericData.Record(ORDER_TEXT_QTY);
    textQty.put("id", 40L);
    textQty.put("kind", "order");
    textQty.put("qty", "lots");
    send(name, WireFormat.encode(orderIdTextQty, textQty)); // offset 40: Floe's bad record
    send(name, WireFormat.encode(9999, textQty)); // offset 41: the converter's bad record
    for (long id = 42; id < 60; id++) {
      send(name, id, id);
    }
    TableOracle oracle = oracle(name);
    oracle.awaitRowCount(58, Duration.ofSeconds(90));
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 58);
    Map<Long, DeadLetters.DeadLetter> letters =
        DeadLetters.read(broker, name + "-dlq", 2, Duration.ofSeconds(30));
    assertThat(letters).containsOnlyKeys(40L, 41L);
    assertThat(letters.get(41L).message()).contains("Schema id 9999 not found");

    TableOracle vended =
        new TableOracle(
            services.catalog("vended", restCatalog.clientProperties()),
            List.of(VENDED + "." + VENDED));
    vended.awaitRowCount(20, Duration.ofSeconds(60));
    vended.assertExactlyOnce(admin, "connect-" + VENDED, VENDED, 20);
    assertThat(restCatalog.authority().keysVendedWithTables()).as("keys vended").isPositive();
  }

  @Test
  @Order(2)
  void aWrongBrokerPasswordFailsNamingTheLoginNotThePassword() {
    String name = "wrongkafka";
    Map<String, String> config = connector(name);
    config.replaceAll(
        (key, value) -> value.equals(secret("kafka.jaas")) ? secret("kafka.jaas.wrong") : value);
    start(name, config);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .contains("Authentication failed")
        .doesNotContain(CANARY);
  }

  @Test
  @Order(3)
  void aWrongDatabasePasswordFailsTheTaskNamingTheUser() throws Exception {
    String name = "wrongpg";
    Map<String, String> config = connector(name);
    config.put("iceberg.catalog.jdbc.password", secret("pg.password.wrong"));
    start(name, config);
    send(name, 0, 0);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .contains("password authentication failed for user \"" + USER + "\"")
        .doesNotContain(CANARY);
  }

  @Test
  @Order(4)
  void aWrongObjectStoreSecretFailsTheTaskWithTheStoresRefusal() throws Exception {
    String name = "wrongs3";
    Map<String, String> config = connector(name);
    config.put("iceberg.catalog.s3.secret-access-key", secret("s3.secret.wrong"));
    start(name, config);
    send(name, 0, 0);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .containsAnyOf("403", "SignatureDoesNotMatch", "AccessDenied")
        .doesNotContain(CANARY);
  }

  /**
   * A refused registry login is no bad record: dead-lettering would divert every record, so the
   * converter stops the task, naming the keys to check.
   */
  @Test
  @Order(5)
  void aWrongRegistryPasswordFailsTheTaskNamingTheKeysToCheck() throws Exception {
    String name = "wrongregistry";
    Map<String, String> config = connector(name);
    config.put("value.converter.basic.auth.user.info", secret("registry.wrong"));
    start(name, config);
    send(name, 0, 0);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .contains("Authentication to the schema registry at " + registry.url() + " failed")
        .contains("HTTP 401")
        .contains("basic.auth.user.info")
        .doesNotContain(CANARY);
    assertThat(DeadLetters.read(broker, name + "-dlq", 0, Duration.ofSeconds(1)))
        .as("dead letters")
        .isEmpty();
  }

  /**
   * The broker and the database change the connector's password under it; a restart with the old
   * secret fails to log in, and once the secret store has the new one a restart resumes exactly
   * once.
   */
  @Test
  @Order(6)
  void aRotatedPasswordFailsTheRestartUntilTheSecretIsRenewed() throws Exception {
    String name = "orders";
    String rotated = CANARY + "-rotated";
    admin
        .alterUserScramCredentials(
            List.of(
                new UserScramCredentialUpsertion(
                    USER, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), rotated)))
        .all()
        .get(30, TimeUnit.SECONDS);
    postgres.rotatePassword(USER, rotated);
    for (long id = 60; id < 70; id++) {
      send(name, id, id);
    }
    restart(name);
    assertThat(worker.rest().awaitFailure(name, FAIL_WITHIN))
        .containsAnyOf("Authentication failed", "password authentication failed")
        .doesNotContain(CANARY);

    writeSecrets(rotated);
    restart(name);
    Await.until(
        "the restarted task of " + name + " to leave FAILED",
        Duration.ofSeconds(30),
        () -> worker.rest().status(name),
        status -> !status.toString().contains("FAILED"));
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    oracle.awaitRowCount(68, Duration.ofSeconds(90));
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 68);
  }

  private void restart(String name) {
    assertThat(
            worker
                .rest()
                .send("POST", "/connectors/" + name + "/restart?includeTasks=true", null)
                .status())
        .isBetween(200, 299);
  }

  @Test
  @Order(7)
  void aCatalogOutageDelaysCommitsAndLosesNothing() throws Exception {
    String name = "orders";
    postgres.stopServing();
    try {
      for (long id = 70; id < 80; id++) {
        send(name, id, id);
      }
      Thread.sleep(6000); // several commit cycles fail against the stopped database
    } finally {
      postgres.resumeServing();
    }
    catalog = null; // the shutdown ended the tests' own connections too
    TableOracle oracle = oracle(name);
    oracle.awaitRowCount(78, Duration.ofSeconds(90));
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 78);
  }

  @Test
  @Order(8)
  void theCanaryAppearsNowhere() throws Exception {
    assertThat(Files.readString(worker.log()))
        .as("the worker log")
        .contains("TRACE")
        .doesNotContain(CANARY);
    String rest = Surfaces.rest(worker.rest());
    assertThat(rest).as("REST answers").contains("${file:").doesNotContain(CANARY);
    for (String name : connectors) {
      String config = worker.rest().send("GET", "/connectors/" + name + "/config", null).toString();
      assertThat(config).as("config of %s", name).contains("${file:");
    }
    Map<String, String> clearText = connector("cleartext");
    clearText.replaceAll((key, value) -> value.startsWith("${file:") ? CANARY + "-clear" : value);
    assertThat(worker.rest().validate(clearText.get("connector.class"), clearText).toString())
        .as("/config/validate with secrets in clear text")
        .doesNotContain(CANARY);
    assertThat(worker.rest().validate(clearText.get("connector.class"), connector("x")).toString())
        .as("/config/validate with secret references")
        .doesNotContain(CANARY);
    Map<String, String> vendedClearText = vendedConnector("cleartext");
    vendedClearText.put("iceberg.catalog.credential", USER + ":" + CANARY + "-clear");
    assertThat(
            worker
                .rest()
                .validate(vendedClearText.get("connector.class"), vendedClearText)
                .toString())
        .as("/config/validate with the OAuth2 client secret in clear text")
        .doesNotContain(CANARY);

    String mbeans = jmx.describeAll();
    assertThat(mbeans).as("MBeans").contains("io.floe").doesNotContain(CANARY);

    for (String topic :
        List.of(
            "orders-control",
            "orders-dlq",
            VENDED + "-control",
            "connect-configs",
            "connect-status")) {
      assertThat(Surfaces.topic(broker, topic))
          .as("topic %s", topic)
          .isNotEmpty()
          .doesNotContain(CANARY);
    }

    Table vended =
        services
            .catalog("vended-sweep", restCatalog.clientProperties())
            .loadTable(TableIdentifier.of(VENDED, VENDED));
    for (Table table : List.of(catalog().loadTable(TableIdentifier.of("db", "orders")), vended)) {
      StringBuilder metadata = new StringBuilder(table.properties().toString());
      for (Snapshot snapshot : table.snapshots()) {
        metadata.append(snapshot.summary());
      }
      assertThat(metadata.toString())
          .as("properties and snapshot summaries of %s", table.name())
          .contains("floe.commit-id")
          .doesNotContain(CANARY);
    }
    assertThat(restCatalog.authority().tokenExchanges()).as("tokens refreshed").isPositive();
    assertThat(restCatalog.authority().keysVendedOnRefresh())
        .as("vended keys refreshed")
        .isPositive();
    assertThat(catalogDatabase()).as("catalog database").doesNotContain(CANARY);
    assertThat(Surfaces.files(restCatalog.dir()))
        .as("the REST catalog's database")
        .contains(VENDED)
        .doesNotContain(CANARY);
    assertThat(Surfaces.files(s3.dir()))
        .as("every file of the warehouse")
        .contains("floe.commit-id")
        .doesNotContain(CANARY);
  }

  /** Every row of every table of the catalog's database, as text. */
  private String catalogDatabase() throws Exception {
    StringBuilder text = new StringBuilder();
    try (Connection sql = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, "");
        Statement statement = sql.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      assertThat(tables).as("catalog tables").isNotEmpty();
      for (String name : tables) {
        try (ResultSet rows = statement.executeQuery("SELECT * FROM " + name)) {
          int columns = rows.getMetaData().getColumnCount();
          while (rows.next()) {
            for (int column = 1; column <= columns; column++) {
              text.append(rows.getString(column)).append('|');
            }
            text.append('\n');
          }
        }
      }
    }
    return text.toString();
  }
}
