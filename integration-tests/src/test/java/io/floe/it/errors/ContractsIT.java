/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.connect.config.CommitKeys;
import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.StackDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.ObjectName;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A table's data contract on the real stack: 1% of a stream breaks a 10-rule contract, one record
 * per rule, and one record repeats the unique id of the record before it. Exactly those go to the
 * dead-letter topic, each naming its rule and field and not its value; the table holds exactly the
 * rest; every snapshot carries the contract's hash; the snapshots' profiles add up to what the rows
 * read back hold. The contract's objectives (at least 5000 rows per commit, a latency of 1 ms)
 * cannot be met: each breach is logged once and shown on the table's metrics. With {@code
 * contract-rejects=table}, the records breaking the contract go to the table's quarantine table
 * instead, committed by the cycles of their offsets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class ContractsIT {
  private static final String TOPIC = "contracted";
  private static final String TABLE = "db." + TOPIC;
  private static final int RECORDS = 1000;
  private static final String CONTRACT =
      """
      apiVersion: v3.0.2
      kind: DataContract
      id: orders
      version: 2.0.0
      status: active
      slaProperties:
        - property: latency
          value: 1
          unit: ms
      schema:
        - name: orders
          logicalType: object
          quality:
            - metric: rowCount
              mustBeGreaterThanOrEqualTo: 5000
          properties:
            - name: id
              logicalType: integer
              required: true
              unique: true
              logicalTypeOptions: {minimum: 0}
            - name: qty
              logicalType: integer
              required: true
              logicalTypeOptions: {minimum: 1, maximum: 1000}
            - name: price
              logicalType: number
              logicalTypeOptions: {exclusiveMinimum: 0}
            - name: email
              logicalType: string
              logicalTypeOptions: {pattern: "^[^@]+@[^@]+$", maxLength: 40}
            - name: status
              logicalType: string
              enum: [{value: new}, {value: paid}, {value: shipped}]
            - name: country
              logicalType: string
              logicalTypeOptions: {maxLength: 2}
      """;

  /** The record of each offset that breaks a rule: (rule, field, the breaking JSON member). */
  private static final Map<Long, String[]> BROKEN = new TreeMap<>();

  static {
    BROKEN.put(50L, new String[] {"required", "id", "\"id\":null"});
    BROKEN.put(120L, new String[] {"unique", "id", "\"id\":119"});
    BROKEN.put(150L, new String[] {"minimum", "id", "\"id\":-150"});
    BROKEN.put(250L, new String[] {"required", "qty", "\"qty\":null"});
    BROKEN.put(350L, new String[] {"minimum", "qty", "\"qty\":0"});
    BROKEN.put(450L, new String[] {"maximum", "qty", "\"qty\":1001"});
    BROKEN.put(550L, new String[] {"exclusiveMinimum", "price", "\"price\":-0.5"});
    BROKEN.put(650L, new String[] {"pattern", "email", "\"email\":\"leaked-value-at-650\""});
    BROKEN.put(
        750L,
        new String[] {
          "maxLength", "email", "\"email\":\"leaked-value-at-750-xxxxxxxxxx@example.org\""
        });
    BROKEN.put(850L, new String[] {"enum", "status", "\"status\":\"leaked-status\""});
    BROKEN.put(950L, new String[] {"maxLength", "country", "\"country\":\"DEU\""});
  }

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private SharedStack stack;
  private SinkOutcomes outcomes;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack shared) {
    stack = shared;
    broker = shared.broker();
    outcomes = new SinkOutcomes(broker);
    rest = services.own(RestCatalogServer.withLocalWarehouse());
    catalog = services.catalog("test", rest.clientProperties());
  }

  /**
   * The stream of the quarantine test: the record of each offset that breaks a rule, as in {@link
   * #BROKEN}; and at {@link #NOT_A_NUMBER} a record whose qty does not convert, a bad record that
   * no contract sees.
   */
  private static final Map<Long, String[]> QUARANTINED = new TreeMap<>();

  private static final long NOT_A_NUMBER = 300L;
  private static final int QUARANTINE_RECORDS = 400;

  static {
    QUARANTINED.put(50L, new String[] {"required", "id", "\"id\":null"});
    QUARANTINED.put(120L, new String[] {"unique", "id", "\"id\":119"});
    QUARANTINED.put(150L, new String[] {"minimum", "id", "\"id\":-150"});
    QUARANTINED.put(250L, new String[] {"required", "qty", "\"qty\":null"});
    QUARANTINED.put(NOT_A_NUMBER, new String[] {null, "qty", "\"qty\":\"many\""});
    QUARANTINED.put(350L, new String[] {"maximum", "qty", "\"qty\":1001"});
    QUARANTINED.put(380L, new String[] {"pattern", "email", "\"email\":\"leaked-value-at-380\""});
    QUARANTINED.put(390L, new String[] {"enum", "status", "\"status\":\"leaked-status\""});
  }

  /** Record {@code i}: a valid order unless {@link #BROKEN} names it; price null on every 7th. */
  private static String record(long i) {
    return record(i, BROKEN);
  }

  /** Record {@code i}: a valid order unless {@code broken} names it; price null on every 7th. */
  private static String record(long i, Map<Long, String[]> brokenAt) {
    Map<String, String> members = new LinkedHashMap<>();
    members.put("id", "\"id\":" + i);
    members.put("kind", "\"kind\":\"order\"");
    members.put("qty", "\"qty\":" + (1 + i % 1000));
    members.put("price", i % 7 == 3 ? "\"price\":null" : "\"price\":" + (0.25 + i % 400));
    members.put("email", "\"email\":\"u" + i + "@example.org\"");
    members.put(
        "status", "\"status\":\"" + List.of("new", "paid", "shipped").get((int) (i % 3)) + "\"");
    members.put("country", i % 11 == 5 ? "\"country\":null" : "\"country\":\"DE\"");
    String[] broken = brokenAt.get(i);
    if (broken != null) {
      members.put(broken[1], broken[2]);
    }
    return "{" + String.join(",", members.values()) + "}";
  }

  @Test
  void recordsBreakingTheContractAreDeadLetteredByRuleAndTheTableHoldsTheRestWithItsProfile()
      throws Exception {
    Path contract = StackDirs.newServiceDir("contracts").resolve("orders.odcs.yaml");
    Files.writeString(contract, CONTRACT);
    String sha256 =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(CONTRACT.getBytes(StandardCharsets.UTF_8)));
    broker.createTopic(TOPIC, 1);
    KafkaProducer<String, String> producer = services.own(broker.stringProducer());
    for (long i = 0; i < RECORDS; i++) {
      producer.send(new ProducerRecord<>(TOPIC, 0, "k", record(i)));
    }
    producer.flush();

    Map<String, String> config =
        ConfigExamples.withMetadataAndQuickCommits(
            ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), TOPIC, TABLE));
    String dlq = TOPIC + "-dlq";
    config.put("errors.deadletterqueue.topic.name", dlq);
    config.put("iceberg.table." + TABLE + ".contract", contract.toString());
    // a contract Floe could not enforce as written is refused on its key
    Map<String, String> typo = new HashMap<>(config);
    typo.put(
        "iceberg.table." + TABLE + ".contract", CONTRACT.replace("maxLength: 2", "maxLenght: 2"));
    assertThat(
            io.floe.it.stack.ConnectRest.errorsByKey(
                    stack.worker().rest().validate(config.get("connector.class"), typo))
                .get("iceberg.table." + TABLE + ".contract"))
        .asString()
        .contains("field country has the option maxLenght");

    long logStart = stack.worker().logFile().mark();
    stack.worker().rest().putConnector(TOPIC, config);
    stack.worker().rest().awaitRunning(TOPIC, 1, Duration.ofSeconds(60));
    TableOracle oracle = new TableOracle(catalog, List.of(TABLE));
    TopicPartition source = new TopicPartition(TOPIC, 0);
    outcomes.awaitCommittedOffset("connect-" + TOPIC, source, RECORDS);
    Map<Long, String[]> broken =
        brokenAsTheTaskSawThem(BROKEN, outcomes.handOverEnds(controlTopic(config), source));
    outcomes.awaitRows(oracle, RECORDS - broken.size());

    Map<Long, String> reasons = outcomes.deadLetters(dlq, broken.size());
    assertThat(reasons).containsOnlyKeys(broken.keySet());
    broken.forEach(
        (offset, rule) ->
            assertThat(reasons.get(offset))
                .as("dead letter of offset %d", offset)
                .contains("topic contracted, partition 0, offset " + offset + " to table " + TABLE)
                .contains(
                    "the row breaks the rule "
                        + rule[0]
                        + " of field "
                        + rule[1]
                        + " in the contract 'orders' version 2.0.0")
                .doesNotContain("leaked")
                .doesNotContain("DEU")
                .doesNotContain("1001"));
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < RECORDS; i++) {
      if (!broken.containsKey(i)) {
        expected.add(i);
      }
    }
    List<Long> offsets = new ArrayList<>();
    oracle.origins().forEach(origin -> offsets.add(origin.offset()));
    assertThat(offsets).containsExactlyInAnyOrderElementsOf(expected);
    oracle.assertNoFileInTwoSnapshots();

    Table table = catalog.loadTable(TableIdentifier.parse(TABLE));
    long rows = RECORDS - broken.size();
    Map<String, Long> nulls = assertProfilesMatchTheRows(table, sha256, rows);

    // JMX: the rules broken on the task, every column's profile on the coordinator
    try (RemoteJmx jmx = RemoteJmx.connect(stack.jmxPort())) {
      assertThat(
              jmx.attribute(
                  RemoteJmx.name("io.floe:type=task-metrics,connector=" + TOPIC + ",task=0"),
                  "contract-violations"))
          .isEqualTo((long) broken.size());
      for (String column : List.of("price", "country", "_kafka.offset")) {
        ObjectName bean =
            RemoteJmx.name(
                "io.floe:type=column-profile,connector="
                    + TOPIC
                    + ",table="
                    + TABLE
                    + ",column="
                    + column);
        Await.until(
            "the profile of column " + column,
            Duration.ofSeconds(30),
            () -> jmx.attribute(bean, "rows-profiled").longValue() == rows);
        assertThat(jmx.attribute(bean, "nulls-profiled"))
            .as("nulls of %s", column)
            .isEqualTo(nulls.getOrDefault(column, 0L));
      }
      // objectives: no commit appends 5000 rows, no watermark is 1 ms old when its commit lands.
      // The coordinator checks them as it records a commit (ContractObjectives): the volume at
      // every commit, the freshness at a commit that carries the table's watermark, which one
      // made by a cycle that timed out does not while no complete cycle has committed one
      awaitACommitWithAWatermark(table, producer);
      ObjectName tableBean =
          RemoteJmx.name("io.floe:type=table-metrics,connector=" + TOPIC + ",table=" + TABLE);
      for (String objective : List.of("volume", "freshness")) {
        Await.until(
            "a breach of the " + objective + " objective",
            OBJECTIVES,
            () -> jmx.attribute(tableBean, objective + "-objective-breached").longValue() == 1);
        assertThat(jmx.attribute(tableBean, objective + "-objective-breaches"))
            .as(objective)
            .isEqualTo(1L);
      }
    }
    String log = stack.worker().logFile().textSince(logStart);
    assertThat(log.split("Table " + TABLE + " breaches the volume objective of its contract", -1))
        .as("volume breach logged once")
        .hasSize(2);
    assertThat(log)
        .contains(
            "Table "
                + TABLE
                + " breaches the volume objective of its contract 'orders' version 2.0.0 (rows per"
                + " commit at least 5000): its commit appended ")
        .contains(
            "Table "
                + TABLE
                + " breaches the freshness objective of its contract 'orders' version 2.0.0"
                + " (latency at most 1 ms)")
        .doesNotContain("meets the volume objective");
    stack.worker().rest().deleteConnector(TOPIC);
  }

  /**
   * With {@code contract-rejects=table} the records that break the contract go to the table's
   * quarantine table instead of the dead-letter topic: exactly those, each with its origin, rule,
   * field and its value as JSON, committed by the same cycles as the table's own rows and carrying
   * their offsets; a record that does not convert is still dead-lettered.
   */
  @Test
  void recordsBreakingTheContractGoToTheQuarantineTableInTheCyclesOfTheirOffsets()
      throws Exception {
    String topic = "quarantined";
    String table = "db." + topic;
    String quarantine = table + "__rejected";
    Path contract = StackDirs.newServiceDir("contracts").resolve("orders.odcs.yaml");
    Files.writeString(contract, CONTRACT);
    broker.createTopic(topic, 1);
    KafkaProducer<String, String> producer = services.own(broker.stringProducer());
    for (long i = 0; i < QUARANTINE_RECORDS; i++) {
      producer.send(
          new ProducerRecord<>(
              topic,
              0,
              null,
              "k",
              record(i, QUARANTINED),
              List.of(new RecordHeader("trace", ("t-" + i).getBytes(StandardCharsets.UTF_8)))));
    }
    producer.flush();

    Map<String, String> config =
        ConfigExamples.withMetadataAndQuickCommits(
            ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), topic, table));
    String dlq = topic + "-dlq";
    config.put("errors.deadletterqueue.topic.name", dlq);
    config.put("iceberg.table." + table + ".contract-rejects", "table");
    // rejects go to a table only for a table with a contract: told on the key
    assertThat(
            io.floe.it.stack.ConnectRest.errorsByKey(
                    stack.worker().rest().validate(config.get("connector.class"), config))
                .get("iceberg.table." + table + ".contract-rejects"))
        .asString()
        .contains("has no contract, so it refuses no record");
    config.put("iceberg.table." + table + ".contract", contract.toString());

    long logStart = stack.worker().logFile().mark();
    stack.worker().rest().putConnector(topic, config);
    stack.worker().rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
    TableOracle oracle = new TableOracle(catalog, List.of(table));
    TopicPartition source = new TopicPartition(topic, 0);
    outcomes.awaitCommittedOffset("connect-" + topic, source, QUARANTINE_RECORDS);
    Map<Long, String[]> quarantined =
        brokenAsTheTaskSawThem(QUARANTINED, outcomes.handOverEnds(controlTopic(config), source));
    outcomes.awaitRows(oracle, QUARANTINE_RECORDS - quarantined.size());

    // the quarantine table: exactly the rejects, each with where it came from, its rule and field
    TreeMap<Long, String[]> rejected = new TreeMap<>(quarantined);
    rejected.remove(NOT_A_NUMBER);
    TableIdentifier quarantineId = TableIdentifier.parse(quarantine);
    List<Record> rows =
        Await.until(
            "the rejects in " + quarantine,
            Duration.ofSeconds(30),
            () -> readAll(catalog.loadTable(quarantineId)),
            read -> read.size() >= rejected.size());
    ObjectMapper json = new ObjectMapper();
    Map<Long, Record> byOffset = new TreeMap<>();
    for (Record row : rows) {
      assertThat(byOffset.put((Long) row.getField("source_offset"), row)).isNull();
      assertThat(row.getField("source_topic")).isEqualTo(topic);
      assertThat(row.getField("source_partition")).isEqualTo(0);
      assertThat(row.getField("source_table")).isEqualTo(table);
      assertThat(row.getField("contract_id")).isEqualTo("orders");
      assertThat(row.getField("contract_version")).isEqualTo("2.0.0");
      assertThat(row.getField("rejected_at")).isNotNull();
      assertThat(row.getField("record_timestamp")).isNotNull();
    }
    assertThat(byOffset).containsOnlyKeys(rejected.keySet());
    rejected.forEach(
        (offset, broken) -> {
          Record row = byOffset.get(offset);
          assertThat(row.getField("rule")).as("rule at %d", offset).isEqualTo(broken[0]);
          assertThat(row.getField("field")).as("field at %d", offset).isEqualTo(broken[1]);
          assertThat((String) row.getField("reason"))
              .isEqualTo(
                  "the row breaks the rule "
                      + broken[0]
                      + " of field "
                      + broken[1]
                      + " in the contract 'orders' version 2.0.0 of table "
                      + table);
          try {
            // the value as it was read, with its (absent) schema: it can be produced again
            JsonNode value = json.readTree((String) row.getField("value_json"));
            assertThat(value.get("schema").isNull()).isTrue();
            assertThat(value.get("payload"))
                .as("value at %d", offset)
                .isEqualTo(json.readTree(record(offset, QUARANTINED)));
            JsonNode key = json.readTree((String) row.getField("key_json"));
            assertThat(key.get("payload").asText()).isEqualTo("k");
            assertThat(key.get("schema").get("type").asText()).isEqualTo("string");
            // and its headers, as the worker's header converter read them
            JsonNode headers = json.readTree((String) row.getField("headers_json"));
            assertThat(headers).as("headers at %d", offset).hasSize(1);
            assertThat(headers.get(0).get("key").asText()).isEqualTo("trace");
            assertThat(headers.get(0).at("/value/payload").asText()).isEqualTo("t-" + offset);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });

    // the table holds exactly the rest; the dead-letter topic only the record that did not convert
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < QUARANTINE_RECORDS; i++) {
      if (!quarantined.containsKey(i)) {
        expected.add(i);
      }
    }
    List<Long> offsets = new ArrayList<>();
    oracle.origins().forEach(origin -> offsets.add(origin.offset()));
    assertThat(offsets).containsExactlyInAnyOrderElementsOf(expected);
    Map<Long, String> reasons = outcomes.deadLetters(dlq, 1);
    assertThat(reasons).containsOnlyKeys(NOT_A_NUMBER);
    assertThat(reasons.get(NOT_A_NUMBER)).doesNotContain("the row breaks the rule");

    // the quarantine table is committed as any Floe table: each snapshot by a cycle that also
    // committed the table, carrying the cycle's offsets; no data file in two snapshots
    new TableOracle(catalog, List.of(quarantine)).assertNoFileInTwoSnapshots();
    Table main = catalog.loadTable(TableIdentifier.parse(table));
    List<String> mainCycles = new ArrayList<>();
    main.snapshots().forEach(snapshot -> mainCycles.add(snapshot.summary().get("floe.commit-id")));
    Table rejects = catalog.loadTable(quarantineId);
    int snapshots = 0;
    for (Snapshot snapshot : rejects.snapshots()) {
      snapshots++;
      assertThat(snapshot.summary())
          .as("snapshot %d of %s", snapshot.snapshotId(), quarantine)
          .containsKey("floe.control-offsets.connect-" + topic)
          .doesNotContainKey("floe.contract.id");
      assertThat(mainCycles).contains(snapshot.summary().get("floe.commit-id"));
    }
    assertThat(snapshots).isPositive();
    JsonNode sourceOffsets =
        json.readTree(
            rejects.currentSnapshot().summary().get("floe.source-offsets.connect-" + topic));
    assertThat(sourceOffsets.get(topic).get("0").asLong()).isGreaterThan(rejected.lastKey());

    try (RemoteJmx jmx = RemoteJmx.connect(stack.jmxPort())) {
      ObjectName task = RemoteJmx.name("io.floe:type=task-metrics,connector=" + topic + ",task=0");
      assertThat(jmx.attribute(task, "contract-violations")).isEqualTo((long) rejected.size());
      assertThat(jmx.attribute(task, "contract-rejects-quarantined"))
          .isEqualTo((long) rejected.size());
    }
    String log = stack.worker().logFile().textSince(logStart);
    assertThat(log)
        .contains(
            "Writing the records that break the contract 'orders' version 2.0.0 of table "
                + table
                + " to its quarantine table "
                + quarantine)
        .doesNotContain("leaked");
    stack.worker().rest().deleteConnector(topic);
  }

  /** How long a breach of an objective may take to show, under load too. */
  private static final Duration OBJECTIVES = Duration.ofSeconds(60);

  /** The connector's control topic. */
  private static String controlTopic(Map<String, String> config) {
    return config.getOrDefault(CommitKeys.CONTROL_TOPIC, CommitKeys.CONTROL_TOPIC_DEFAULT);
  }

  /**
   * The records of {@code brokenAt} that break the contract as the task saw them. A record that
   * repeats the unique id of the record before it breaks the rule {@code unique} only when both
   * were written between the same two hand-overs (README, "Unique fields"): not when a hand-over of
   * the partition ended at its offset ({@code handOverEnds}, {@link SinkOutcomes#handOverEnds}).
   */
  private static Map<Long, String[]> brokenAsTheTaskSawThem(
      Map<Long, String[]> brokenAt, Set<Long> handOverEnds) {
    Map<Long, String[]> broken = new TreeMap<>(brokenAt);
    broken
        .entrySet()
        .removeIf(
            entry -> "unique".equals(entry.getValue()[0]) && handOverEnds.contains(entry.getKey()));
    return broken;
  }

  /**
   * Waits until the table's newest commit carries its watermark ({@code floe.valid-through-ms}),
   * with which the coordinator checks the freshness objective. A commit of a cycle that timed out
   * carries the watermark of the commit before, none before a complete cycle committed one; while
   * the newest commit carries none, each new one brings another valid record, so that some cycle
   * with records completes.
   */
  private void awaitACommitWithAWatermark(Table table, KafkaProducer<String, String> producer) {
    String mark = "floe.valid-through-ms.connect-" + TOPIC;
    long[] nudged = {-1L};
    long[] next = {RECORDS};
    Await.until(
        "a commit of table " + TABLE + " carrying its watermark",
        OBJECTIVES,
        () -> {
          table.refresh();
          Snapshot newest = table.currentSnapshot();
          if (newest.summary().containsKey(mark)) {
            return true;
          }
          if (newest.snapshotId() != nudged[0]) {
            nudged[0] = newest.snapshotId();
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", record(next[0]++)));
            producer.flush();
          }
          return false;
        });
  }

  private static List<Record> readAll(Table table) throws java.io.IOException {
    List<Record> rows = new ArrayList<>();
    try (var read = IcebergGenerics.read(table).build()) {
      read.forEach(row -> rows.add(row.copy()));
    }
    return rows;
  }

  /**
   * Every snapshot carries the contract's hash; the profiles of all snapshots add up to the rows
   * read back: rows, nulls per column, and the bounds of the numeric columns.
   */
  private static Map<String, Long> assertProfilesMatchTheRows(
      Table table, String sha256, long expectedRows) throws Exception {
    ObjectMapper json = new ObjectMapper();
    long profiledRows = 0;
    Map<String, Long> profiledNulls = new TreeMap<>();
    Map<String, Double> profiledMin = new TreeMap<>();
    Map<String, Double> profiledMax = new TreeMap<>();
    int snapshots = 0;
    for (Snapshot snapshot : table.snapshots()) {
      Map<String, String> summary = snapshot.summary();
      assertThat(summary)
          .as("snapshot %d", snapshot.snapshotId())
          .containsEntry("floe.contract.id", "orders")
          .containsEntry("floe.contract.version", "2.0.0")
          .containsEntry("floe.contract.sha256", sha256);
      snapshots++;
      profiledRows += Long.parseLong(summary.get("floe.profile.rows"));
      JsonNode columns = json.readTree(summary.get("floe.profile.columns"));
      for (String column : List.of("id", "qty", "price", "email", "status", "country")) {
        JsonNode profile = columns.get(column);
        profiledNulls.merge(column, profile.get("nulls").asLong(), Long::sum);
        if (profile.has("min")) {
          profiledMin.merge(column, profile.get("min").asDouble(), Math::min);
          profiledMax.merge(column, profile.get("max").asDouble(), Math::max);
        }
      }
    }
    assertThat(snapshots).isPositive();

    long rows = 0;
    Map<String, Long> nulls = new TreeMap<>();
    Map<String, Double> min = new TreeMap<>();
    Map<String, Double> max = new TreeMap<>();
    try (var read = IcebergGenerics.read(table).build()) {
      for (Record row : read) {
        rows++;
        for (String column : List.of("id", "qty", "price", "email", "status", "country")) {
          Object value = row.getField(column);
          nulls.merge(column, value == null ? 1L : 0L, Long::sum);
          if (value instanceof Number number) {
            min.merge(column, number.doubleValue(), Math::min);
            max.merge(column, number.doubleValue(), Math::max);
          }
        }
      }
    }
    assertThat(profiledRows).isEqualTo(rows).isEqualTo(expectedRows);
    assertThat(profiledNulls).isEqualTo(nulls);
    assertThat(nulls.get("price")).isPositive();
    assertThat(nulls.get("country")).isPositive();
    assertThat(profiledMin).isEqualTo(min).containsOnlyKeys("id", "qty", "price");
    assertThat(profiledMax).isEqualTo(max);
    return nulls;
  }
}
