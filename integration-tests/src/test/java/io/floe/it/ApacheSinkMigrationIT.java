/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.OrderEvents;
import io.floe.it.eos.SteadyProducer;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.ApacheSinkPlugin;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.LogFile;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running Apache Iceberg sink 1.12.0 connector moves to Floe by the README's steps ("Moving a
 * running connector") while records keep arriving, and every record is in the table exactly once.
 *
 * <p>The Apache sink (two tasks, four source partitions, a control topic of three partitions, as
 * {@code control-iceberg} often is) creates the table and commits to it. Mid-stream, right after a
 * commit that every partition answered, the connector is stopped; the test checks in the worker's
 * log that no commit began before its tasks stopped (and resumes it and tries again if one did),
 * replaces it by a Floe connector of the same name and configuration but for the class and a
 * control topic of its own, and deletes what only the Apache sink used (its coordinator's consumer
 * group and its control topic). Floe reads on from the offsets the Apache sink committed in the
 * connector's consumer group. Both run on a Kafka 4.3 worker, as the Apache sink fails on 4.4.
 *
 * <p>The records carry a Connect {@code Time} field, for which the Apache sink creates a {@code
 * time} column: Floe keeps writing {@code time} values into it under its default time type, {@code
 * long-micros}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class ApacheSinkMigrationIT {
  private static final String FLOE = "io.floe.connect.IcebergSinkConnector";
  private static final String NAME = "apache-migration";
  private static final String GROUP = "connect-" + NAME;
  private static final String TOPIC = "apache-migration-events";
  private static final String TABLE = "db.apache_migration";
  private static final String APACHE_CONTROL = "apache-migration-control-iceberg";
  private static final String FLOE_CONTROL = "apache-migration-floe-control";
  private static final int PARTITIONS = 4;
  private static final int TASKS = 2;
  private static final int RATE = 200;
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final Duration STARTED = Duration.ofSeconds(120);
  private static final Duration COMMITTED = Duration.ofSeconds(240);

  /** A commit of the Apache coordinator that every source partition answered. */
  private static final Pattern COMPLETE =
      Pattern.compile("Commit (\\S+) ready, received responses for all (\\d+) partitions");

  private static final Pattern INITIATED = Pattern.compile("Coordinator \\S+ initiated commit ");

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"name\":\"shift\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"starts\",\"type\":\"int32\",\"optional\":false,"
          + "\"name\":\"org.apache.kafka.connect.data.Time\",\"version\":1}]}";

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private Admin admin;
  private OrderEvents events;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = stack.rest();
    catalog = services.catalog("test", rest.clientProperties());
    admin = services.own(broker.admin());
    events = services.own(new OrderEvents(broker.bootstrapServers(), ApacheSinkMigrationIT::value));
    Path pluginPath = StackDirs.newServiceDir("migration-plugins");
    PluginInstall.installInto(pluginPath);
    ApacheSinkPlugin.installInto(pluginPath);
    worker =
        services.own(
            ConnectWorker.start(
                broker,
                pluginPath,
                new ConnectWorker.Options()
                    .runtime(KafkaRuntime.KAFKA_4_3)
                    .groupId("apache-migration")));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    } catch (AlreadyExistsException e) {
      // another class of this run made it first
    }
  }

  /** Record {@code id}: its time of day is a function of the id. */
  private static String value(long id, long timestampMs) {
    return "{\"schema\":"
        + SCHEMA
        + ",\"payload\":{\"id\":"
        + id
        + ",\"starts\":"
        + startsMillis(id)
        + "}}";
  }

  private static long startsMillis(long id) {
    return id * 1_234_567L % MILLIS_PER_DAY;
  }

  @Test
  void aRunningConnectorMovesFromTheApacheSinkToFloeWithEveryRecordOnce() throws Exception {
    broker.createTopic(TOPIC, PARTITIONS);
    broker.createTopic(APACHE_CONTROL, 3);
    TableOracle oracle = new TableOracle(catalog, List.of(TABLE));
    Map<String, String> apache = apacheConfig();
    long sent;
    try (SteadyProducer producer = SteadyProducer.start(events, TOPIC, PARTITIONS, 0, RATE)) {
      worker.rest().putConnector(NAME, apache);
      worker.rest().awaitRunning(NAME, TASKS, STARTED);
      Await.untilAtLeast("rows the Apache sink committed", COMMITTED, oracle::rowCount, 1);

      // steps 2 to 4: stopped right after a commit every partition answered
      int attempts = stopRightAfterACompleteCommit();
      long sentAtStop = producer.sent();
      long apacheRows = oracle.rowCount();
      assertThat(apacheRows).isPositive().isLessThan(sentAtStop);
      assertThat(totalOffset(TableOracle.committedOffsets(admin, GROUP)))
          .as("the offsets the Apache sink committed: the records its tables hold")
          .isEqualTo(apacheRows);

      // steps 1 and 5: the same configuration but for the class and the control topic
      Map<String, String> floe = new LinkedHashMap<>(apache);
      floe.put("connector.class", FLOE);
      floe.put("iceberg.control.topic", FLOE_CONTROL);
      assertThat(ConnectRest.errorsByKey(worker.rest().validate(FLOE, floe))).isEmpty();
      worker.rest().deleteConnector(NAME);
      worker.rest().putConnector(NAME, floe);
      worker.rest().awaitRunning(NAME, TASKS, STARTED);

      // records keep arriving while Floe takes over
      Await.untilAtLeast(
          "records sent after the Apache sink stopped",
          Duration.ofSeconds(60),
          producer::sent,
          sentAtStop + 10L * RATE);
      sent = producer.stop();
      System.out.printf(
          "Apache sink stopped after %d attempt(s) with %d rows committed, %d sent by then;"
              + " %d sent in all%n",
          attempts, apacheRows, sentAtStop, sent);
    }

    oracle.awaitRowCount(sent, COMMITTED);
    List<Long> ids = oracle.ids();
    assertThat(ids).as("rows").hasSize((int) sent);
    assertThat(new HashSet<>(ids))
        .as("distinct ids")
        .isEqualTo(LongStream.range(0, sent).boxed().collect(Collectors.toSet()));
    oracle.assertNoFileInTwoSnapshots();
    assertThat(totalOffset(TableOracle.committedOffsets(admin, GROUP)))
        .as("offsets committed in %s: every record sent", GROUP)
        .isEqualTo(sent);

    Table table = catalog.loadTable(TableIdentifier.parse(TABLE));
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    assertThat(snapshots)
        .as("the Apache sink's snapshots")
        .anySatisfy(s -> assertThat(s.summary()).containsKey("kafka.connect.commit-id"));
    assertThat(table.currentSnapshot().summary())
        .containsKey("floe.commit-id")
        .containsKey("floe.source-offsets." + GROUP);
    assertStartsKeepsItsTimeColumn(table);

    // step 6: what only the Apache sink used goes; the connector's group stays
    List<String> apacheGroups = new ArrayList<>(List.of(GROUP + "-coord"));
    apacheGroups.addAll(groups().stream().filter(g -> g.startsWith("cg-control-")).toList());
    System.out.printf("Deleting the Apache sink's consumer groups %s%n", apacheGroups);
    admin.deleteConsumerGroups(apacheGroups).all().get(30, TimeUnit.SECONDS);
    admin.deleteTopics(List.of(APACHE_CONTROL)).all().get(30, TimeUnit.SECONDS);
    assertThat(groups())
        .contains(GROUP)
        .doesNotContain(GROUP + "-coord")
        .noneMatch(group -> group.startsWith("cg-control-"));
    assertThat(totalOffset(TableOracle.committedOffsets(admin, GROUP))).isEqualTo(sent);
    worker.rest().deleteConnector(NAME);
  }

  /**
   * Steps 2 to 4 of the README: waits in the worker's log for a commit that every partition
   * answered, stops the connector right after it, and checks that no commit was initiated after it;
   * if one was, resumes the connector and tries again.
   *
   * @return the attempts it took
   */
  private int stopRightAfterACompleteCommit() {
    LogFile log = worker.logFile();
    for (int attempt = 1; attempt <= 5; attempt++) {
      long from = log.mark();
      Matcher complete = log.await(COMPLETE, from, COMMITTED);
      String commit = complete.group(1);
      assertThat(complete.group(2)).isEqualTo(Integer.toString(PARTITIONS));
      String completed = "completed commit " + commit + ",";
      log.await(Pattern.compile(Pattern.quote(completed)), from, COMMITTED);
      put("/connectors/" + NAME + "/stop");
      awaitState("STOPPED");
      String since = log.textSince(from);
      String after = since.substring(since.indexOf(completed));
      if (!INITIATED.matcher(after).find()) {
        return attempt;
      }
      put("/connectors/" + NAME + "/resume");
      worker.rest().awaitRunning(NAME, TASKS, STARTED);
    }
    throw new AssertionError("A commit began before the tasks stopped, five times in a row");
  }

  private void put(String path) {
    ConnectRest.Response response = worker.rest().send("PUT", path, null);
    assertThat(response.ok()).as("PUT %s answered %s", path, response.status()).isTrue();
  }

  private void awaitState(String state) {
    Await.until(
        "connector " + NAME + " " + state,
        STARTED,
        () -> worker.rest().status(NAME),
        status ->
            state.equals(status.path("connector").path("state").asText())
                && status.path("tasks").isEmpty());
  }

  /**
   * The Apache sink's configuration: it creates the table from the records' schema and commits
   * every 10 s; the worker's bootstrap servers serve its control clients.
   */
  private Map<String, String> apacheConfig() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("name", NAME);
    config.put("connector.class", ApacheSinkPlugin.CONNECTOR_CLASS);
    config.put("tasks.max", Integer.toString(TASKS));
    config.put("topics", TOPIC);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables", TABLE);
    config.put("iceberg.tables.auto-create-enabled", "true");
    rest.clientProperties().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.control.topic", APACHE_CONTROL);
    config.put("iceberg.control.commit.interval-ms", "10000");
    config.put("iceberg.control.commit.timeout-ms", "5000");
    return config;
  }

  /** The Apache sink made {@code starts} a {@code time} column; Floe's rows fill it too. */
  private static void assertStartsKeepsItsTimeColumn(Table table) throws IOException {
    assertThat(table.schema().findType("starts")).isEqualTo(Types.TimeType.get());
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      for (Record row : rows) {
        long id = (Long) row.getField("id");
        assertThat(row.getField("starts"))
            .as("starts of %d", id)
            .isEqualTo(LocalTime.ofNanoOfDay(startsMillis(id) * 1_000_000));
      }
    }
  }

  /** The ids of the broker's consumer groups. */
  private List<String> groups() throws Exception {
    return admin
        .listGroups(ListGroupsOptions.forConsumerGroups())
        .all()
        .get(30, TimeUnit.SECONDS)
        .stream()
        .map(GroupListing::groupId)
        .toList();
  }

  /** The committed offsets' sum: the records below them, as each partition starts at 0. */
  private static long totalOffset(Map<TopicPartition, OffsetAndMetadata> offsets) {
    return offsets.values().stream().mapToLong(OffsetAndMetadata::offset).sum();
  }
}
