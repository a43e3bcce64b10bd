/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.avro.RegistryClient;
import io.floe.it.avro.WireFormat;
import io.floe.it.eos.TableOracle;
import io.floe.it.registry.SchemaRegistryServer;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bad inputs that need the real stack: records of aborted Kafka transactions, payloads the Avro
 * converter cannot read, and a 50 MB string, each through a Connect worker into an Iceberg table
 * (and the dead-letter topic). The other inputs are covered by the connector's unit tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class BadInputsIT {
  private static final Schema EVENT =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"it\",\"fields\":["
                  + "{\"name\":\"id\",\"type\":\"long\"},"
                  + "{\"name\":\"text\",\"type\":\"string\"}]}");
  private static final int HUGE_BYTES = 50 * 1024 * 1024;

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private SchemaRegistryServer registry;
  private Catalog catalog;
  private ConnectWorker worker;
  private KafkaProducer<String, byte[]> producer;
  private SinkOutcomes outcomes;

  @RegisterExtension final Services services = Services.closedAfterAll();

  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    outcomes = new SinkOutcomes(broker);
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
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                Integer.toString(64 * 1024 * 1024),
                ProducerConfig.BUFFER_MEMORY_CONFIG,
                Integer.toString(160 * 1024 * 1024)),
            new StringSerializer(),
            new ByteArraySerializer());
    services.own(producer);
  }

  /**
   * A connector of one topic into {@code db.<name>}, reading committed, with a dead-letter topic.
   */
  private Map<String, String> connector(String topic, String table) {
    return ConfigExamples.withMetadataAndQuickCommits(
        ConfigExamples.deadLetterQueue(broker, rest.clientProperties(), topic, "db." + table));
  }

  private Map<String, String> avroConnector(String topic) {
    Map<String, String> config = connector(topic, topic);
    config.put("value.converter", "io.floe.connect.avro.AvroConverter");
    config.put("value.converter.schema.registry.url", registry.url());
    return config;
  }

  private static byte[] json(long id) {
    return ("{\"id\":" + id + ",\"text\":\"t" + id + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  private byte[] avro(int schemaId, long id, String text) {
    GenericRecord record = new GenericData.Record(EVENT);
    record.put("id", id);
    record.put("text", text);
    return WireFormat.encode(schemaId, record);
  }

  private void send(String topic, byte[] value) throws Exception {
    producer.send(new ProducerRecord<>(topic, 0, "k", value)).get(60, TimeUnit.SECONDS);
  }

  private void start(String name, Map<String, String> config) {
    worker.rest().putConnector(name, config);
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
  }

  @Test
  void recordsOfAnAbortedTransactionNeverReachTheTable() throws Exception {
    String topic = "txn";
    broker.createTopic(topic, 1);
    try (KafkaProducer<String, byte[]> transactional =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "bad-inputs-producer"),
            new StringSerializer(),
            new ByteArraySerializer())) {
      transactional.initTransactions();
      // offsets 0-9 committed, 10 marker; 11-20 aborted, 21 marker; 22-31 committed, 32 marker
      for (long[] ids : new long[][] {{0, 10}, {100, 110}, {10, 20}}) {
        transactional.beginTransaction();
        for (long id = ids[0]; id < ids[1]; id++) {
          transactional.send(new ProducerRecord<>(topic, 0, "k", json(id)));
        }
        transactional.flush();
        if (ids[0] == 100) {
          transactional.abortTransaction();
        } else {
          transactional.commitTransaction();
        }
      }
    }

    start(topic, connector(topic, topic));
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 20);
    assertThat(oracle.ids())
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 20).boxed().toList());
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 32);
    oracle.assertNoFileInTwoSnapshots();

    // What the setting prevents: a consumer left at Kafka's default reads the aborted records too.
    String uncommitted = "txn-uncommitted";
    Map<String, String> config = connector(topic, "txn_uncommitted");
    config.remove("consumer.override.isolation.level");
    long logStart = worker.logFile().mark();
    start(uncommitted, config);
    outcomes.awaitRows(new TableOracle(catalog, List.of("db.txn_uncommitted")), 30);
    assertThat(worker.logFile().textSince(logStart))
        .contains("does not set consumer.override.isolation.level=read_committed");
    worker.rest().deleteConnector(uncommitted);
    worker.rest().deleteConnector(topic);
  }

  @Test
  void aPayloadTheAvroConverterCannotReadIsDeadLetteredWithItsOrigin() throws Exception {
    String topic = "avro";
    broker.createTopic(topic, 1);
    int schemaId = new RegistryClient(registry.url()).register(topic + "-value", EVENT);
    send(topic, avro(schemaId, 0, "a")); // 0 table
    send(topic, json(1)); // 1 dead letter: JSON, not the wire format
    byte[] unknownId = avro(schemaId, 2, "b");
    ByteBuffer.wrap(unknownId).putInt(1, 999_999);
    send(topic, unknownId); // 2 dead letter: a schema id the registry does not know
    send(topic, new byte[] {0, 0}); // 3 dead letter: too short for the wire format
    send(topic, avro(schemaId, 4, "c")); // 4 table

    start(topic, avroConnector(topic));
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 2);
    assertThat(oracle.ids()).containsExactlyInAnyOrder(0L, 4L);
    Map<Long, Map<String, String>> letters = outcomes.deadLetterHeaders(topic + "-dlq", 3);
    assertThat(letters).containsOnlyKeys(1L, 2L, 3L);
    letters.forEach(
        (offset, headers) -> {
          assertThat(headers).containsEntry("__connect.errors.topic", topic);
          assertThat(headers).containsEntry("__connect.errors.partition", "0");
          assertThat(headers).containsEntry("__connect.errors.stage", "VALUE_CONVERTER");
          assertThat(headers).doesNotContainKey("unexpected");
        });
    assertThat(letters.get(1L).get("__connect.errors.exception.message"))
        .contains("not Avro in the Confluent wire format");
    assertThat(letters.get(2L).get("__connect.errors.exception.message")).contains("999999");
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 5);
    worker.rest().deleteConnector(topic);
  }

  @Test
  void aFiftyMegabyteStringIsWrittenWholeBetweenSmallRecords() throws Exception {
    String topic = "huge";
    broker.createTopic(topic, 1, Map.of("max.message.bytes", Integer.toString(64 * 1024 * 1024)));
    int schemaId = new RegistryClient(registry.url()).register(topic + "-value", EVENT);
    StringBuilder text = new StringBuilder(HUGE_BYTES);
    Random random = new Random(42);
    for (int i = 0; i < HUGE_BYTES; i++) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    String huge = text.toString();
    send(topic, avro(schemaId, 0, "small"));
    send(topic, avro(schemaId, 1, huge));
    send(topic, avro(schemaId, 2, "small"));

    start(topic, avroConnector(topic));
    TableOracle oracle = new TableOracle(catalog, List.of("db." + topic));
    outcomes.awaitRows(oracle, 3);
    List<String> texts = new ArrayList<>();
    try (var rows =
        IcebergGenerics.read(catalog.loadTable(TableIdentifier.parse("db." + topic))).build()) {
      for (Record row : rows) {
        texts.add((String) row.getField("text"));
      }
    }
    assertThat(texts).hasSize(3).contains("small");
    String read = texts.stream().filter(t -> t.length() > 100).findFirst().orElseThrow();
    assertThat(read.length()).isEqualTo(HUGE_BYTES);
    assertThat(read.equals(huge)).as("the 50 MB string read back is the one written").isTrue();
    outcomes.awaitCommittedOffset("connect-" + topic, new TopicPartition(topic, 0), 3);
    assertThat(worker.rest().status(topic).toString()).doesNotContain("FAILED");
    worker.rest().deleteConnector(topic);
  }

  @Test
  void everyConfigExampleReadsCommittedRecordsOnly() {
    for (Path example : ConfigExamples.all()) {
      assertThat(ConfigExamples.load(example))
          .as("%s", example.getFileName())
          .containsEntry("consumer.override.isolation.level", "read_committed");
    }
  }
}
