/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.TableOracle;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.SparkReader;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Apache Spark 4.1 (local mode, Iceberg's Spark runtime, in a child JVM) reads tables the connector
 * wrote on the real stack: JSON records with schemas of every type Floe maps (decimals, nested
 * structs, lists, maps, dates before 1970, timestamps, strings, binary, booleans, UUIDs, the four
 * time-of-day sources) and, from the second batch on, a field that schema evolution adds, null in
 * the first batch's files.
 *
 * <ul>
 *   <li>with default settings (time-of-day fields become {@code long} microseconds since midnight,
 *       {@code iceberg.tables.time-type=long-micros}) Spark describes the table and reads every
 *       row, each value agreeing with Iceberg's generic reader and the Connect {@code Time} field
 *       holding its time of day in microseconds;
 *   <li>with {@code iceberg.tables.time-type=time} Spark refuses the table, even to describe it,
 *       while Iceberg's generic reader reads it;
 *   <li>the quarantine table of a table whose data contract refuses a third of the events ({@code
 *       contract-rejects=table}): Spark reads the same rows as Iceberg's generic reader, the
 *       refused events' offsets exactly.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class SparkReadsFloeTablesIT {
  private static final Duration CONVERGE = Duration.ofSeconds(120);
  private static final int FIRST_BATCH = 20;
  private static final int SECOND_BATCH = 10;
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final String DEFAULTS = "db.events_default_settings";
  private static final String TIME = "db.events_time";
  private static final String CONTRACTED = "db.events_contracted";
  private static final String QUARANTINE = CONTRACTED + "__rejected";

  /**
   * The contract of {@link #CONTRACTED}: events 0 to 4 break its minimum of {@code small} and
   * events 25 to 29 its maximum of {@code count}, so each batch sends some to the quarantine table.
   */
  private static final String CONTRACT =
      """
      apiVersion: v3.0.2
      kind: DataContract
      id: shop-events
      version: 1.0.0
      schema:
        - name: event
          logicalType: object
          properties:
            - name: small
              logicalType: integer
              logicalTypeOptions: {minimum: -5}
            - name: count
              logicalType: integer
              logicalTypeOptions: {maximum: 25000000}
      """;

  private static final List<String> TIME_COLUMNS = List.of("opens", "lunch", "closes", "precise");

  private static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("shop.Address")
          .optional()
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .build();
  private static final Schema ITEM =
      SchemaBuilder.struct()
          .name("shop.Item")
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .build();
  private static final Schema V1 = event(false);
  private static final Schema V2 = event(true);

  private KafkaBroker broker;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private KafkaProducer<String, String> producer;
  private final JsonConverter json = new JsonConverter();
  private Map<String, SparkReader.View> sparkViews;

  private static Schema event(boolean withCoupon) {
    SchemaBuilder event =
        SchemaBuilder.struct()
            .name("shop.Event")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .field("active", Schema.BOOLEAN_SCHEMA)
            .field("small", Schema.INT16_SCHEMA)
            .field("count", Schema.INT32_SCHEMA)
            .field("score", Schema.FLOAT32_SCHEMA)
            .field("ratio", Schema.FLOAT64_SCHEMA)
            .field("price", Decimal.builder(2).parameter("connect.decimal.precision", "10").build())
            .field("big", Decimal.builder(6).optional().build())
            .field("payload", Schema.BYTES_SCHEMA)
            .field("born", Date.SCHEMA)
            .field("at", Timestamp.SCHEMA)
            .field("at_micros", named(SchemaBuilder.int64(), "io.debezium.time.MicroTimestamp"))
            .field("opens", Time.SCHEMA)
            .field("lunch", named(SchemaBuilder.int32(), "io.debezium.time.Time"))
            .field("closes", named(SchemaBuilder.int64(), "io.debezium.time.MicroTime"))
            .field("precise", named(SchemaBuilder.int64(), "io.debezium.time.NanoTime"))
            .field("ref", named(SchemaBuilder.string(), "io.debezium.data.Uuid"))
            .field("address", ADDRESS)
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("items", SchemaBuilder.array(ITEM).build())
            .field(
                "attrs",
                SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA)
                    .optional()
                    .build());
    if (withCoupon) {
      event.field("coupon", Schema.OPTIONAL_STRING_SCHEMA);
    }
    return event.build();
  }

  private static Schema named(SchemaBuilder builder, String name) {
    return builder.name(name).build();
  }

  @BeforeAll
  void startStackWriteBothTablesAndReadThemWithSpark(SharedStack stack) throws Exception {
    broker = stack.broker();
    rest = stack.rest();
    catalog = CatalogUtil.buildIcebergCatalog("test", rest.clientProperties(), null);
    worker = stack.worker();
    producer = broker.stringProducer();
    json.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
    // both tables written side by side, then read by one Spark session (it starts slowly)
    Map<String, String> timeTypes = new LinkedHashMap<>();
    timeTypes.put(DEFAULTS, null);
    timeTypes.put(TIME, "time");
    timeTypes.put(CONTRACTED, null);
    writeTables(timeTypes);
    sparkViews = SparkReader.read(rest, List.of(DEFAULTS, TIME, QUARANTINE));
  }

  @AfterAll
  void stopStack() throws Exception {
    for (AutoCloseable service : new AutoCloseable[] {producer, json, (AutoCloseable) catalog}) {
      if (service != null) {
        service.close();
      }
    }
  }

  @Test
  void withDefaultSettingsSparkDescribesAndReadsEveryRowAsIcebergsGenericReaderDoes()
      throws Exception {
    String table = DEFAULTS;
    assertTimeColumns(table, Types.LongType.get());
    List<Record> rows = genericRows(table);
    for (Record row : rows) {
      long i = (Long) row.getField("id");
      assertThat(row.getField("opens")).isEqualTo(opensMillis(i) * 1000);
      assertThat(row.getField("lunch")).isEqualTo(lunchMillis(i) * 1000L);
      assertThat(row.getField("closes")).isEqualTo(closesMicros(i));
      assertThat(row.getField("precise")).isEqualTo(preciseNanos(i) / 1000);
    }

    SparkReader.View spark = sparkViews.get(table);
    assertThat(spark.describeError()).isNull();
    assertThat(spark.readError()).isNull();
    for (String column : TIME_COLUMNS) {
      assertThat(spark.columns()).containsEntry(column, "bigint");
    }
    assertThat(spark.columns())
        .containsEntry("price", "decimal(10,2)")
        .containsEntry("born", "date")
        .containsEntry("at", "timestamp")
        .containsEntry("coupon", "string")
        .containsEntry("attrs", "map<string,int>");
    assertThat(spark.rows()).hasSize(FIRST_BATCH + SECOND_BATCH);
    assertThat(spark.rows())
        .containsExactlyInAnyOrderElementsOf(rows.stream().map(SparkReader::render).toList());
    for (long i = 0; i < FIRST_BATCH + SECOND_BATCH; i++) {
      String id = "{id=" + i + ", ";
      assertThat(spark.rows())
          .as("Spark's row %d", i)
          .filteredOn(row -> row.startsWith(id))
          .singleElement()
          .asString()
          .contains(", opens=" + opensMillis(i) * 1000 + ", ");
    }
  }

  @Test
  void withTimeSparkRefusesTheTableEvenToDescribeItWhileIcebergReadsIt() throws Exception {
    String table = TIME;
    assertTimeColumns(table, Types.TimeType.get());
    List<Record> rows = genericRows(table);
    for (Record row : rows) {
      long i = (Long) row.getField("id");
      assertThat(row.getField("opens"))
          .isEqualTo(LocalTime.ofNanoOfDay(opensMillis(i) * 1_000_000));
      assertThat(row.getField("lunch"))
          .isEqualTo(LocalTime.ofNanoOfDay(lunchMillis(i) * 1_000_000));
      assertThat(row.getField("closes")).isEqualTo(LocalTime.ofNanoOfDay(closesMicros(i) * 1000));
      assertThat(row.getField("precise"))
          .isEqualTo(LocalTime.ofNanoOfDay(preciseNanos(i) / 1000 * 1000));
    }

    SparkReader.View spark = sparkViews.get(table);
    assertThat(spark.describeError())
        .startsWith("java.lang.UnsupportedOperationException")
        .contains("Spark does not support time fields");
    assertThat(spark.readError())
        .startsWith("java.lang.UnsupportedOperationException")
        .contains("Spark does not support time fields");
    assertThat(spark.columns()).isEmpty();
    assertThat(spark.rows()).isEmpty();
  }

  /**
   * The quarantine table of a table whose contract refuses some events: Spark describes it and
   * reads the same rows as Iceberg's generic reader, exactly the refused events' offsets; the table
   * holds the others.
   */
  @Test
  void sparkReadsTheQuarantineTableAsIcebergsGenericReaderDoes() throws Exception {
    List<Long> refused = new ArrayList<>();
    List<Long> kept = new ArrayList<>();
    for (long i = 0; i < FIRST_BATCH + SECOND_BATCH; i++) {
      (refusedByContract(i) ? refused : kept).add(i);
    }
    Table quarantine = loadTable(QUARANTINE);
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(quarantine).build()) {
      records.forEach(record -> rows.add(record.copy()));
    }
    assertThat(rows.stream().map(row -> (Long) row.getField("source_offset")).toList())
        .as("offsets in the quarantine table")
        .containsExactlyInAnyOrderElementsOf(refused);
    List<Long> tableOffsets = new ArrayList<>();
    new TableOracle(catalog, List.of(CONTRACTED))
        .origins()
        .forEach(origin -> tableOffsets.add(origin.offset()));
    assertThat(tableOffsets).as("offsets in the table").containsExactlyInAnyOrderElementsOf(kept);

    SparkReader.View spark = sparkViews.get(QUARANTINE);
    assertThat(spark.describeError()).isNull();
    assertThat(spark.readError()).isNull();
    assertThat(spark.columns())
        .containsEntry("source_offset", "bigint")
        .containsEntry("rejected_at", "timestamp")
        .containsEntry("value_json", "string");
    assertThat(spark.rows()).hasSize(refused.size());
    assertThat(spark.rows())
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(row -> SparkReader.render(row, quarantine.schema())).toList());
  }

  /** Whether event {@code i} breaks the contract of {@link #CONTRACTED}. */
  private static boolean refusedByContract(long i) {
    return i < 5 || i >= 25;
  }

  /**
   * Runs one connector per table, each with its time type (null: the key unset, its default): a
   * first batch creates the tables, a second brings a new optional field.
   */
  private void writeTables(Map<String, String> timeTypes) throws Exception {
    Map<String, TableOracle> oracles = new LinkedHashMap<>();
    timeTypes.forEach((table, timeType) -> oracles.put(table, startConnector(table, timeType)));
    for (int[] batch : new int[][] {{0, FIRST_BATCH}, {FIRST_BATCH, FIRST_BATCH + SECOND_BATCH}}) {
      Schema schema = batch[0] == 0 ? V1 : V2;
      for (String table : timeTypes.keySet()) {
        send(topic(table), schema, batch[0], batch[1]);
      }
      for (Map.Entry<String, TableOracle> oracle : oracles.entrySet()) {
        long rows = batch[1];
        for (long i = 0; oracle.getKey().equals(CONTRACTED) && i < batch[1]; i++) {
          rows -= refusedByContract(i) ? 1 : 0;
        }
        oracle.getValue().awaitRowCount(rows, CONVERGE);
      }
    }
    for (String table : timeTypes.keySet()) {
      worker.rest().deleteConnector(topic(table));
    }
  }

  /** The topic, and connector, of {@code table}: its name without the namespace. */
  private static String topic(String table) {
    return TableIdentifier.parse(table).name();
  }

  private TableOracle startConnector(String table, String timeType) {
    String name = topic(table);
    broker.createTopic(name, 1);
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.floe.connect.IcebergSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", name);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("iceberg.tables", table);
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    if (timeType != null) {
      config.put("iceberg.tables.time-type", timeType);
    }
    config.put("iceberg.tables.kafka-metadata-column", "_kafka");
    if (table.equals(CONTRACTED)) {
      Path contract = StackDirs.newServiceDir("contracts").resolve("events.odcs.yaml");
      try {
        Files.writeString(contract, CONTRACT);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      config.put("iceberg.table." + table + ".contract", contract.toString());
      config.put("iceberg.table." + table + ".contract-rejects", "table");
    }
    rest.clientProperties().forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    config.put("iceberg.control.commit.interval-ms", "1000");
    config.put("iceberg.control.commit.timeout-ms", "800");
    worker.rest().putConnector(name, config);
    worker.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
    return new TableOracle(catalog, List.of(table));
  }

  private void send(String topic, Schema schema, int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      byte[] value = json.fromConnectData(topic, schema, event(schema, i));
      producer
          .send(new ProducerRecord<>(topic, 0, "k" + i, new String(value, StandardCharsets.UTF_8)))
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** Event {@code i}: every value depends on {@code i}; some are null, dates go back to 1900. */
  private static Struct event(Schema schema, long i) {
    Struct address = new Struct(ADDRESS).put("city", "city" + i % 3);
    if (i % 2 == 0) {
      address.put("zip", (int) (10_000 + i));
    }
    Struct event =
        new Struct(schema)
            .put("id", i)
            .put("name", "name-" + i + "-é")
            .put("note", i % 3 == 0 ? null : "note " + i)
            .put("active", i % 2 == 1)
            .put("small", (short) (i - 10))
            .put("count", (int) (i * 1_000_003 - 7))
            .put("score", i / 4.0f)
            .put("ratio", i / 3.0d)
            .put("price", BigDecimal.valueOf(12_345 + i * 101, 2))
            .put(
                "big",
                i % 4 == 0
                    ? null
                    : new BigDecimal("123456789012.345678").negate().add(BigDecimal.valueOf(i)))
            .put("payload", new byte[] {(byte) i, 0, (byte) 0xff, (byte) (i * 7)})
            .put("born", new java.util.Date((i * 1_500 - 25_567) * MILLIS_PER_DAY))
            .put("at", new java.util.Date(i * 987_654_321_123L - 4_000_000_000_000L))
            .put("at_micros", i * 123_456_789_012_345L - 2_000_000_000_000_000L)
            .put("opens", new java.util.Date(opensMillis(i)))
            .put("lunch", (int) lunchMillis(i))
            .put("closes", closesMicros(i))
            .put("precise", preciseNanos(i))
            .put("ref", String.format("6f1c1f4e-8a2b-4c3d-9e0f-%012d", i))
            .put("address", i % 5 == 4 ? null : address)
            .put("tags", i % 4 == 3 ? null : List.of("t" + i, "x"))
            .put(
                "items",
                List.of(
                    new Struct(ITEM).put("sku", "a" + i).put("qty", (int) i),
                    new Struct(ITEM).put("sku", "b" + i).put("qty", 1)))
            .put("attrs", i % 6 == 5 ? null : attrs(i));
    if (schema.field("coupon") != null) {
      event.put("coupon", i % 2 == 0 ? "SAVE" + i : null);
    }
    return event;
  }

  private static Map<String, Integer> attrs(long i) {
    Map<String, Integer> attrs = new LinkedHashMap<>();
    attrs.put("z", (int) i);
    attrs.put("a", null);
    attrs.put("m" + i, 3);
    return attrs;
  }

  private static long opensMillis(long i) {
    return (i * 3_456_789_123L) % MILLIS_PER_DAY;
  }

  private static long lunchMillis(long i) {
    return i == 0 ? MILLIS_PER_DAY - 1 : (i * 7_654_321L) % MILLIS_PER_DAY;
  }

  private static long closesMicros(long i) {
    return (i * 4_321_987_654_321L) % (MILLIS_PER_DAY * 1000);
  }

  private static long preciseNanos(long i) {
    return (i * 9_876_543_210_987L) % (MILLIS_PER_DAY * 1_000_000) + 789;
  }

  private void assertTimeColumns(String table, Type expected) {
    org.apache.iceberg.Schema schema = loadTable(table).schema();
    for (String column : TIME_COLUMNS) {
      assertThat(schema.findType(column)).as(column).isEqualTo(expected);
    }
    assertThat(schema.findField("coupon")).isNotNull();
    assertThat(schema.findType("born")).isEqualTo(Types.DateType.get());
  }

  private Table loadTable(String table) {
    return catalog.loadTable(TableIdentifier.parse(table));
  }

  /** Every row through Iceberg's generic reader; the first batch's rows have no coupon. */
  private List<Record> genericRows(String table) throws IOException {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(loadTable(table)).build()) {
      for (Record record : records) {
        rows.add(record.copy());
      }
    }
    assertThat(rows).hasSize(FIRST_BATCH + SECOND_BATCH);
    for (Record row : rows) {
      long i = (Long) row.getField("id");
      if (i < FIRST_BATCH) {
        assertThat(row.getField("coupon")).as("coupon of %d", i).isNull();
      } else if (i % 2 == 0) {
        assertThat(row.getField("coupon")).isEqualTo("SAVE" + i);
      }
      assertThat(row.getField("born")).isEqualTo(LocalDate.ofEpochDay(i * 1_500 - 25_567));
    }
    return rows;
  }
}
