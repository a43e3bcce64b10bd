/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.avro;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.TableOracle;
import io.floe.it.errors.DeadLetters;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectRest;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.LogFile;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Schema evolution driven by the registry, on the real stack: a producer writes Avro in the
 * Confluent wire format with four versions of one schema registered in the schema registry test
 * server, the connector reads them with Floe's AvroConverter, and the table follows. After each
 * step the table's schema is checked exactly (names, types, optionality, field ids, docs,
 * identifier fields), and at the end every row's values, every offset once, the dead letters and
 * the committed offsets.
 *
 * <ul>
 *   <li>v1 creates the table (identifier field {@code order_id} from {@code id-columns});
 *   <li>v2 adds a field in the nested {@code shipping} struct and a new struct column;
 *   <li>v1 and v2 records interleaved: one data file in the commit, no schema change;
 *   <li>v3 widens {@code qty} to long, renames {@code note} to {@code remark} by Avro alias, and
 *       drops {@code channel}, which stays and reads null for v3 rows;
 *   <li>v1 and v3 records interleaved: v1's {@code note} goes to the renamed column, no schema
 *       change, one data file;
 *   <li>v4 makes {@code status} an int: its records go to the dead-letter topic, the table is
 *       untouched, and the v3 records after them are written.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class AvroEvolutionIT {
  private static final Duration CONVERGE = Duration.ofSeconds(120);
  // not "orders": the topic of config-examples/rest-catalog-s3.json, on the same shared broker
  private static final String TOPIC = "avro-orders";
  private static final String DLQ = "avro-orders-dlq";
  private static final String TABLE = "db.avro_orders";
  private static final long WIDE = 3_000_000_000L;

  private static final String ADDRESS_V1 =
      "{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
          + "{\"name\":\"city\",\"type\":\"string\",\"doc\":\"City\"}]}";
  private static final String ADDRESS_V2 =
      "{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
          + "{\"name\":\"city\",\"type\":\"string\",\"doc\":\"City\"},"
          + "{\"name\":\"zip\",\"type\":[\"null\",\"string\"],\"default\":null,"
          + "\"doc\":\"Postal code\"}]}";
  private static final String PAYMENT =
      "{\"name\":\"payment\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Payment\","
          + "\"fields\":[{\"name\":\"method\",\"type\":\"string\",\"doc\":\"Card, cash or voucher\"},"
          + "{\"name\":\"cents\",\"type\":\"long\",\"doc\":\"Amount in cents\"}]}],"
          + "\"default\":null,\"doc\":\"How it was paid\"}";

  static final Schema V1 =
      order(
          "{\"name\":\"qty\",\"type\":\"int\",\"doc\":\"Units ordered\"},"
              + "{\"name\":\"channel\",\"type\":\"string\",\"doc\":\"Where the order came in\"},"
              + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null,"
              + "\"doc\":\"Free text\"},"
              + "{\"name\":\"status\",\"type\":\"string\",\"doc\":\"Order status\"},"
              + shipping(ADDRESS_V1));
  static final Schema V2 =
      order(
          "{\"name\":\"qty\",\"type\":\"int\",\"doc\":\"Units ordered\"},"
              + "{\"name\":\"channel\",\"type\":\"string\",\"doc\":\"Where the order came in\"},"
              + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null,"
              + "\"doc\":\"Free text\"},"
              + "{\"name\":\"status\",\"type\":\"string\",\"doc\":\"Order status\"},"
              + shipping(ADDRESS_V2)
              + ","
              + PAYMENT);
  static final Schema V3 =
      order(
          "{\"name\":\"qty\",\"type\":\"long\",\"doc\":\"Units ordered\"},"
              + "{\"name\":\"remark\",\"aliases\":[\"note\"],\"type\":[\"null\",\"string\"],"
              + "\"default\":null,\"doc\":\"Free text\"},"
              + "{\"name\":\"status\",\"type\":\"string\",\"doc\":\"Order status\"},"
              + shipping(ADDRESS_V2)
              + ","
              + PAYMENT);
  static final Schema V4 =
      order(
          "{\"name\":\"qty\",\"type\":\"long\",\"doc\":\"Units ordered\"},"
              + "{\"name\":\"remark\",\"aliases\":[\"note\"],\"type\":[\"null\",\"string\"],"
              + "\"default\":null,\"doc\":\"Free text\"},"
              + "{\"name\":\"status\",\"type\":\"int\",\"doc\":\"Order status\"},"
              + shipping(ADDRESS_V2)
              + ","
              + PAYMENT);

  private static Schema order(String fields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"doc\":\"An order\","
                + "\"fields\":[{\"name\":\"order_id\",\"type\":\"long\",\"doc\":\"Order number\"},"
                + "{\"name\":\"customer\",\"type\":\"string\",\"doc\":\"Who ordered\"},"
                + fields
                + "]}");
  }

  private static String shipping(String address) {
    return "{\"name\":\"shipping\",\"type\":" + address + ",\"doc\":\"Where it goes\"}";
  }

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private SchemaRegistryServer registry;
  private Catalog catalog;
  private ConnectWorker worker;
  private KafkaProducer<String, byte[]> producer;
  private Admin admin;

  /** What each written offset must read back as (top-level columns but the metadata column). */
  private final Map<Long, Map<String, Object>> expected = new TreeMap<>();

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    rest = stack.rest();
    registry = services.own(SchemaRegistryServer.builder().build().start());
    catalog = services.catalog("test", rest.clientProperties());
    worker = stack.worker();
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                50),
            new StringSerializer(),
            new ByteArraySerializer());
    services.own(producer);
    admin = services.own(broker.admin());
  }

  private Map<String, String> connector() {
    Map<String, String> config =
        ConfigExamples.withMetadataAndQuickCommits(
            ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), TOPIC, TABLE));
    config.put("name", TOPIC);
    config.put("value.converter", "io.floe.connect.avro.AvroConverter");
    config.put("value.converter.schema.registry.url", registry.url());
    config.remove("value.converter.schemas.enable");
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    config.put("iceberg.table." + TABLE + ".id-columns", "order_id");
    config.put("errors.deadletterqueue.topic.name", DLQ);
    return config;
  }

  @Test
  void theTableFollowsFourAvroVersionsAndTheIncompatibleOneIsDeadLettered() throws Exception {
    broker.createTopic(TOPIC, 1);
    RegistryClient registryClient = new RegistryClient(registry.url());
    String subject = TOPIC + "-value";
    // v1 to v3 are backward compatible: the registry takes them at its default level
    int v1 = registryClient.register(subject, V1);
    int v2 = registryClient.register(subject, V2);
    int v3 = registryClient.register(subject, V3);
    registryClient.setCompatibility(subject, "NONE");
    int v4 = registryClient.register(subject, V4);

    Map<String, String> config = connector();
    Map<String, String> misspelt = new LinkedHashMap<>(config);
    misspelt.put("iceberg.table." + TABLE + ".id-columns", "order_id,,customer");
    assertThat(
            ConnectRest.errorsByKey(
                worker.rest().validate(config.get("connector.class"), misspelt)))
        .containsOnlyKeys("iceberg.table." + TABLE + ".id-columns");
    assertThat(
            ConnectRest.errorsByKey(worker.rest().validate(config.get("connector.class"), config)))
        .isEmpty();
    worker.rest().putConnector(TOPIC, config);
    worker.rest().awaitRunning(TOPIC, 1, Duration.ofSeconds(60));
    TableOracle oracle = new TableOracle(catalog, List.of(TABLE));

    // v1 creates the table
    for (long i = 0; i < 10; i++) {
      send(v1, V1, i);
    }
    oracle.awaitRowCount(10, CONVERGE);
    assertSchema(
        required(1, "order_id", Types.LongType.get(), "Order number"),
        required(2, "customer", Types.StringType.get(), "Who ordered"),
        required(3, "qty", Types.IntegerType.get(), "Units ordered"),
        required(4, "channel", Types.StringType.get(), "Where the order came in"),
        optional(5, "note", Types.StringType.get(), "Free text"),
        required(6, "status", Types.StringType.get(), "Order status"),
        required(7, "shipping", address(false), "Where it goes"),
        kafkaColumn());

    // v2: a field in the nested struct, and a new struct column
    for (long i = 10; i < 20; i++) {
      send(v2, V2, i);
    }
    oracle.awaitRowCount(20, CONVERGE);
    Types.NestedField payment = optional(17, "payment", paymentType(), "How it was paid");
    assertSchema(
        required(1, "order_id", Types.LongType.get(), "Order number"),
        required(2, "customer", Types.StringType.get(), "Who ordered"),
        required(3, "qty", Types.IntegerType.get(), "Units ordered"),
        required(4, "channel", Types.StringType.get(), "Where the order came in"),
        optional(5, "note", Types.StringType.get(), "Free text"),
        required(6, "status", Types.StringType.get(), "Order status"),
        required(7, "shipping", address(true), "Where it goes"),
        kafkaColumn(),
        payment);

    // v1 and v2 interleaved: the table holds both already, so they share the commit's one file
    sendInterleaved(20, 40, new int[] {v1, v2}, V1, V2);

    // v3: qty widened, note renamed by alias, channel dropped (it stays, now optional)
    for (long i = 40; i < 50; i++) {
      send(v3, V3, i);
    }
    oracle.awaitRowCount(50, CONVERGE);
    Types.NestedField[] finalColumns = {
      required(1, "order_id", Types.LongType.get(), "Order number"),
      required(2, "customer", Types.StringType.get(), "Who ordered"),
      required(3, "qty", Types.LongType.get(), "Units ordered"),
      optional(4, "channel", Types.StringType.get(), "Where the order came in"),
      optional(5, "remark", Types.StringType.get(), "Free text"),
      required(6, "status", Types.StringType.get(), "Order status"),
      required(7, "shipping", address(true), "Where it goes"),
      kafkaColumn(),
      payment
    };
    assertSchema(finalColumns);

    // v1 (older than the rename: it says note) and v3 interleaved: v1's note goes to remark
    sendInterleaved(50, 60, new int[] {v1, v3}, V1, V3);
    assertSchema(finalColumns);
    int schemasAfterV3 = table().schemas().size();

    // v4: status string -> int is incompatible; the v3 records after it still land
    List<byte[]> v4Payloads = new ArrayList<>();
    for (long i = 60; i < 63; i++) {
      v4Payloads.add(send(v4, V4, i));
    }
    for (long i = 63; i < 65; i++) {
      send(v3, V3, i);
    }
    oracle.awaitRowCount(62, CONVERGE);
    Map<Long, DeadLetters.DeadLetter> deadLetters = DeadLetters.read(broker, DLQ, 3, CONVERGE);
    assertThat(deadLetters).containsOnlyKeys(60L, 61L, 62L);
    for (long offset = 60; offset < 63; offset++) {
      DeadLetters.DeadLetter letter = deadLetters.get(offset);
      assertThat(letter.headers())
          .containsEntry("__connect.errors.topic", TOPIC)
          .containsEntry("__connect.errors.partition", "0");
      assertThat(letter.message())
          .contains("topic " + TOPIC + ", partition 0, offset " + offset + " to table " + TABLE)
          .contains("Table " + TABLE + " cannot take the record's schema")
          .contains("column \"status\" is string in the table, the record has int");
      assertThat(letter.value()).isEqualTo(v4Payloads.get((int) (offset - 60)));
    }
    assertSchema(finalColumns);
    assertThat(table().schemas()).hasSize(schemasAfterV3);

    // every row, every offset once, and the committed offset past the dead letters
    assertThat(rowsByOffset()).isEqualTo(expected);
    assertThat(expected).hasSize(62);
    oracle.assertNoFileInTwoSnapshots();
    TableOracle.awaitCommittedOffset(
        admin, "connect-" + TOPIC, new TopicPartition(TOPIC, 0), 65, CONVERGE);
    worker.rest().deleteConnector(TOPIC);
  }

  /**
   * At its start, the connector checks the registry against its table's contract, once per subject
   * of its topics: a subject at level NONE is told at WARN, naming table, subject, level and why; a
   * subject at FULL_TRANSITIVE whose latest schema has the contract's required fields is told at
   * INFO, and never at WARN.
   */
  @Test
  void theRegistryIsCheckedAgainstTheContractWhenTheConnectorStarts() {
    String unprotected = "avro-compat-none";
    String protectedTopic = "avro-compat-full";
    String table = "db.avro_compat";
    RegistryClient registryClient = new RegistryClient(registry.url());
    registryClient.register(unprotected + "-value", V1);
    registryClient.setCompatibility(unprotected + "-value", "NONE");
    registryClient.register(protectedTopic + "-value", V1);
    registryClient.setCompatibility(protectedTopic + "-value", "FULL_TRANSITIVE");
    Map<String, String> config = connector();
    config.put("name", "avro-compat");
    config.put("topics", unprotected + "," + protectedTopic);
    config.put("iceberg.tables", table);
    config.remove("iceberg.table." + TABLE + ".id-columns");
    config.put(
        "iceberg.table." + table + ".contract",
        String.join(
            "\n",
            "apiVersion: v3.0.2",
            "kind: DataContract",
            "id: orders",
            "version: 1.0.0",
            "schema:",
            "  - name: orders",
            "    logicalType: object",
            "    properties:",
            "      - name: order_id",
            "        logicalType: integer",
            "        required: true",
            "      - name: customer",
            "        logicalType: string",
            "        required: true"));
    LogFile log = worker.logFile();
    long mark = log.mark();
    worker.rest().putConnector("avro-compat", config);
    try {
      // the topics are checked in their order: the second one's line comes last
      log.await(
          Pattern.compile(
              " INFO Subject "
                  + protectedTopic
                  + "-value of the schema registry, at compatibility level FULL_TRANSITIVE"
                  + " \\(latest schema id \\d+\\), protects the data contract 'orders' version 1.0.0"
                  + " of table "
                  + table),
          mark,
          Duration.ofSeconds(60));
      List<String> warnings =
          log
              .matches(Pattern.compile(" WARN (Subject \\S+ of the schema registry.*)"), mark)
              .stream()
              .map(match -> match.group(1))
              .toList();
      assertThat(warnings)
          .singleElement()
          .asString()
          .startsWith(
              "Subject "
                  + unprotected
                  + "-value of the schema registry, at compatibility level NONE")
          .contains("does not protect the data contract 'orders' version 1.0.0 of table " + table)
          .contains("NONE checks nothing: a new schema may drop a required field")
          .doesNotContain(protectedTopic);
    } finally {
      worker.rest().deleteConnector("avro-compat");
    }
  }

  /**
   * Sends orders {@code from} to {@code to} (exclusive) in one batch, alternating between the given
   * versions, waits for them in the table, and checks that they changed nothing in its schema and
   * that each commit they are in has one data file: a version switch does not roll a file. Order
   * ids are the offsets, so before the dead letters {@code to} is also the table's row count.
   */
  private void sendInterleaved(long from, long to, int[] ids, Schema... versions) throws Exception {
    Table before = table();
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (long i = from; i < to; i++) {
      int version = (int) (i % versions.length);
      sent.add(sendAsync(ids[version], versions[version], i));
    }
    producer.flush();
    for (Future<RecordMetadata> record : sent) {
      record.get(30, TimeUnit.SECONDS);
    }
    new TableOracle(catalog, List.of(TABLE)).awaitRowCount(to, CONVERGE);
    Table after = table();
    assertThat(after.schema().schemaId()).isEqualTo(before.schema().schemaId());
    assertThat(after.schemas()).hasSameSizeAs(before.schemas());
    List<Snapshot> commits = snapshotsAfter(after, before.currentSnapshot().snapshotId());
    assertThat(commits).as("commits of orders %d to %d", from, to).isNotEmpty();
    long rows = 0;
    for (Snapshot commit : commits) {
      assertThat(commit.summary())
          .as("summary of commit %d", commit.snapshotId())
          .containsEntry("added-data-files", "1");
      rows += Long.parseLong(commit.summary().get("added-records"));
    }
    assertThat(rows).isEqualTo(to - from);
  }

  private Table table() {
    return catalog.loadTable(TableIdentifier.parse(TABLE));
  }

  private void assertSchema(Types.NestedField... columns) {
    org.apache.iceberg.Schema schema = table().schema();
    assertThat(schema.asStruct()).isEqualTo(Types.StructType.of(columns));
    assertThat(schema.identifierFieldNames()).containsExactly("order_id");
  }

  private static Types.StructType address(boolean withZip) {
    Types.NestedField city = required(9, "city", Types.StringType.get(), "City");
    return withZip
        ? Types.StructType.of(city, optional(16, "zip", Types.StringType.get(), "Postal code"))
        : Types.StructType.of(city);
  }

  private static Types.StructType paymentType() {
    return Types.StructType.of(
        required(18, "method", Types.StringType.get(), "Card, cash or voucher"),
        required(19, "cents", Types.LongType.get(), "Amount in cents"));
  }

  private static Types.NestedField kafkaColumn() {
    return optional(
        8,
        "_kafka",
        Types.StructType.of(
            optional(10, "topic", Types.StringType.get(), "Kafka topic"),
            optional(11, "partition", Types.IntegerType.get(), "Kafka partition"),
            optional(12, "offset", Types.LongType.get(), "Kafka offset"),
            optional(13, "timestamp", Types.TimestampType.withZone(), "Kafka record timestamp"),
            optional(
                14, "key", Types.StringType.get(), "Record key: a string, or a number as text"),
            optional(15, "key_bytes", Types.BinaryType.get(), "Record key, if it is bytes")),
        "Where the row came from in Kafka");
  }

  /** The snapshots committed after {@code snapshotId} that added rows, oldest first. */
  private static List<Snapshot> snapshotsAfter(Table table, long snapshotId) {
    List<Snapshot> after = new ArrayList<>();
    for (Snapshot snapshot = table.currentSnapshot();
        snapshot != null && snapshot.snapshotId() != snapshotId;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      if (Long.parseLong(snapshot.summary().getOrDefault("added-records", "0")) > 0) {
        after.add(0, snapshot);
      }
    }
    return after;
  }

  /** Sends order {@code i} in {@code schema}, waits for the broker, and returns its bytes. */
  private byte[] send(int schemaId, Schema schema, long i) throws Exception {
    byte[] value = WireFormat.encode(schemaId, order(schema, i));
    RecordMetadata sent =
        producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, value)).get(30, TimeUnit.SECONDS);
    expect(sent.offset(), schema, i);
    return value;
  }

  private Future<RecordMetadata> sendAsync(int schemaId, Schema schema, long i) {
    byte[] value = WireFormat.encode(schemaId, order(schema, i));
    return producer.send(
        new ProducerRecord<>(TOPIC, 0, "k" + i, value),
        (metadata, error) -> {
          if (error == null) {
            synchronized (expected) {
              expect(metadata.offset(), schema, i);
            }
          }
        });
  }

  private static boolean isV3OrLater(Schema schema) {
    return schema.getField("remark") != null;
  }

  private static boolean statusIsInt(Schema schema) {
    return schema.getField("status").schema().getType() == Schema.Type.INT;
  }

  private static String note(long i) {
    return i % 3 == 0 ? null : "n" + i;
  }

  /** Order {@code i} as a record of {@code schema}. */
  private static GenericRecord order(Schema schema, long i) {
    GenericRecord order = new GenericData.Record(schema);
    order.put("order_id", i);
    order.put("customer", "c" + i);
    order.put("qty", isV3OrLater(schema) ? (Object) (WIDE + i) : (Object) (int) i);
    if (schema.getField("channel") != null) {
      order.put("channel", i % 2 == 0 ? "web" : "app");
    }
    order.put(isV3OrLater(schema) ? "remark" : "note", note(i));
    order.put("status", statusIsInt(schema) ? (Object) 7 : "NEW");
    Schema addressSchema = schema.getField("shipping").schema();
    GenericRecord address = new GenericData.Record(addressSchema);
    address.put("city", "city" + i % 5);
    if (addressSchema.getField("zip") != null) {
      address.put("zip", "z" + i);
    }
    order.put("shipping", address);
    Schema.Field paymentField = schema.getField("payment");
    if (paymentField != null && i % 4 != 0) {
      GenericRecord payment = new GenericData.Record(paymentField.schema().getTypes().get(1));
      payment.put("method", "card");
      payment.put("cents", 100L * i);
      order.put("payment", payment);
    }
    return order;
  }

  /** Records what order {@code i} in {@code schema} reads back as, in the final table schema. */
  private void expect(long offset, Schema schema, long i) {
    if (statusIsInt(schema)) {
      return;
    }
    boolean v2OrLater = schema.getField("payment") != null;
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("order_id", i);
    row.put("customer", "c" + i);
    row.put("qty", isV3OrLater(schema) ? WIDE + i : i);
    row.put("channel", isV3OrLater(schema) ? null : (i % 2 == 0 ? "web" : "app"));
    row.put("remark", note(i));
    row.put("status", "NEW");
    Map<String, Object> shipping = new LinkedHashMap<>();
    shipping.put("city", "city" + i % 5);
    shipping.put("zip", v2OrLater ? "z" + i : null);
    row.put("shipping", shipping);
    Map<String, Object> payment = null;
    if (v2OrLater && i % 4 != 0) {
      payment = new LinkedHashMap<>();
      payment.put("method", "card");
      payment.put("cents", 100L * i);
    }
    row.put("payment", payment);
    expected.put(offset, row);
  }

  /** Every row by its source offset; an offset read twice fails the test. */
  private Map<Long, Map<String, Object>> rowsByOffset() throws IOException {
    Map<Long, Map<String, Object>> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table()).build()) {
      for (Record record : records) {
        Record kafka = (Record) record.getField("_kafka");
        assertThat(kafka.getField("topic")).isEqualTo(TOPIC);
        assertThat(kafka.getField("partition")).isEqualTo(0);
        assertThat(kafka.getField("key")).isEqualTo("k" + record.getField("order_id"));
        long offset = (Long) kafka.getField("offset");
        Map<String, Object> row = asMap(record);
        row.remove("_kafka");
        assertThat(rows.put(offset, row)).as("row of offset %d read twice", offset).isNull();
      }
    }
    return rows;
  }

  private static Map<String, Object> asMap(Record record) {
    Map<String, Object> map = new HashMap<>();
    List<Types.NestedField> fields = record.struct().fields();
    for (int i = 0; i < fields.size(); i++) {
      Object value = record.get(i);
      map.put(fields.get(i).name(), value instanceof Record nested ? asMap(nested) : value);
    }
    return map;
  }
}
