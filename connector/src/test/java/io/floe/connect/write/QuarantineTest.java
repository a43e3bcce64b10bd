/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.contract.ContractViolation;
import io.floe.connect.json.JsonConverter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quarantine table on the write path: the records a table's contract refuses, with {@code
 * contract-rejects=table}, become rows of its quarantine table, handed over in the same cycle with
 * the offsets they cover; everything else that is not written stays a bad record.
 */
class QuarantineTest {
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("amount", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("address", ContractEnforcementTest.ADDRESS)
          .field("price", Decimal.builder(2).optional().build())
          .build();
  private static final Schema TEXT_ID =
      SchemaBuilder.struct().field("id", Schema.STRING_SCHEMA).build();
  private static final String CONTRACT = ContractEnforcementTest.CONTRACT;
  private static final Instant NOW = Instant.parse("2026-12-05T21:30:00.123Z");
  private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

  @TempDir Path dir;

  private final FailedRecords outcomes = new FailedRecords();
  private final List<FailedRecords.Failure> failed = outcomes.failures();

  private Map<String, String> config() {
    Map<String, String> config = new HashMap<>();
    config.put("iceberg.tables", "db.orders,db.copy");
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.evolve-schema-enabled", "false");
    config.put("iceberg.table.db.orders.contract", CONTRACT);
    config.put("iceberg.table.db.orders.contract-rejects", "table");
    config.put("iceberg.catalog.type", "jdbc");
    config.put("iceberg.catalog.uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    config.put("iceberg.catalog.jdbc.schema-version", "V1");
    config.put("iceberg.catalog.warehouse", dir.resolve("warehouse").toString());
    return config;
  }

  private SinkWriter writer(FloeSinkConfig config, Catalog catalog) {
    return SinkWriter.forTask(
        config,
        catalog,
        outcomes,
        WriterPoolOptions.of(config),
        0,
        Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @Test
  void recordsTheContractRefusesAreQuarantinedInTheSameHandOverWithEveryColumn() throws Exception {
    FloeSinkConfig config = new FloeSinkConfig(config());
    Catalog catalog = new CatalogLoader().load(config);
    HandOver handOver;
    try (SinkWriter writer = writer(config, catalog)) {
      writer.write(
          List.of(
              order(0, 10.0, "12345"),
              order(1, 250.0, "12345"),
              order(2, null, "12345"),
              new SinkRecord(
                  "orders", 0, null, null, TEXT_ID, new Struct(TEXT_ID).put("id", "x"), 3),
              order(4, 5.0, "SW1A-1AA"),
              order(5, 100.0, null)));

      // the record that does not convert is a bad record as before; the rejects are not
      assertThat(failed)
          .singleElement()
          .satisfies(f -> assertThat(f.record().kafkaOffset()).isEqualTo(3L))
          .satisfies(f -> assertThat(f.cause()).isNotInstanceOf(ContractViolation.class));
      assertThat(writer.counts().contractViolations()).isEqualTo(3);
      assertThat(writer.counts().contractRejectsQuarantined()).isEqualTo(3);
      assertThat(writer.counts().conversionErrors()).isEqualTo(1);
      // rows: 2 to db.orders, 2 to db.copy (a record db.orders refuses goes to neither), 3 rejects
      assertThat(writer.counts().recordsWritten()).isEqualTo(7);
      handOver = writer.handOver();
    }

    Map<String, TableFiles> byTable =
        handOver.tables().stream()
            .collect(Collectors.toMap(TableFiles::tableName, Function.identity()));
    assertThat(byTable).containsOnlyKeys("db.orders", "db.copy", "db.orders__rejected");
    TableFiles rejects = byTable.get("db.orders__rejected");
    OffsetRange range = rejects.files().offsets().get(ORDERS_0);
    assertThat(range.minOffset()).isEqualTo(1L);
    assertThat(range.maxOffset()).isEqualTo(4L);
    assertThat(range.records()).isEqualTo(3L);
    assertThat(handOver.positions().get(ORDERS_0).nextOffset()).isEqualTo(6L);

    Table table = catalog.loadTable(TableIdentifier.parse("db.orders__rejected"));
    assertThat(table.schema().asStruct()).isEqualTo(QuarantineRow.SCHEMA.asStruct());
    assertThat(table.spec().fields())
        .singleElement()
        .satisfies(field -> assertThat(field.transform().toString()).isEqualTo("day"));
    assertThat(TableUtil.formatVersion(table)).isEqualTo(2);

    for (TableFiles files : handOver.tables()) {
      AppendFiles append = files.table().newAppend();
      files.files().dataFiles().forEach(append::appendFile);
      append.commit();
    }
    assertThat(rows("db.orders", catalog)).extracting(r -> r.getField("id")).containsOnly(0L, 5L);
    List<Record> quarantined = rows("db.orders__rejected", catalog);
    assertThat(quarantined)
        .extracting(
            r -> r.getField("source_offset"), r -> r.getField("rule"), r -> r.getField("field"))
        .containsExactly(
            tuple(1L, "maximum", "amount"),
            tuple(2L, "required", "amount"),
            tuple(4L, "pattern", "address.zip"));

    Record row = quarantined.get(2);
    assertThat(row.getField("source_table")).isEqualTo("db.orders");
    assertThat(row.getField("contract_id")).isEqualTo("orders");
    assertThat(row.getField("contract_version")).isEqualTo("3.1.0");
    assertThat(row.getField("reason"))
        .isEqualTo(
            "the row breaks the rule pattern of field address.zip in the contract 'orders' version 3.1.0"
                + " of table db.orders");
    assertThat(row.getField("source_topic")).isEqualTo("orders");
    assertThat(row.getField("source_partition")).isEqualTo(0);
    assertThat(row.getField("record_timestamp"))
        .isEqualTo(OffsetDateTime.parse("1970-01-01T00:00:01.004Z"));
    assertThat(row.getField("rejected_at")).isEqualTo(NOW.atOffset(ZoneOffset.UTC));
    // key and value, self-describing: they convert back to the record's own
    SinkRecord original = order(4, 5.0, "SW1A-1AA");
    assertThat(back(true, (String) row.getField("key_json")))
        .isEqualTo(new SchemaAndValue(original.keySchema(), original.key()));
    assertThat(back(false, (String) row.getField("value_json")))
        .isEqualTo(new SchemaAndValue(original.valueSchema(), original.value()));
    assertThat((String) row.getField("value_json"))
        .startsWith("{\"schema\":")
        .contains("\"SW1A-1AA\"")
        .contains("12.34");
    assertThat(
            catalog
                .loadTable(TableIdentifier.parse("db.orders__rejected"))
                .newScan()
                .planFiles()
                .iterator()
                .next()
                .file()
                .partition()
                .get(0, Integer.class))
        .isEqualTo((int) NOW.atOffset(ZoneOffset.UTC).toLocalDate().toEpochDay());
  }

  @Test
  void aRejectThatCannotBeQuarantinedIsABadRecordWithBothReasons() {
    Map<String, String> props = config();
    props.put("iceberg.table.db.orders.contract-rejects-table", "db.not_quarantine");
    FloeSinkConfig config = new FloeSinkConfig(props);
    Catalog catalog = new CatalogLoader().load(config);
    catalog.createTable(
        TableIdentifier.parse("db.not_quarantine"),
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "source_table", Types.StringType.get())));
    try (SinkWriter writer = writer(config, catalog)) {
      writer.write(List.of(order(0, 10.0, "12345"), order(1, 250.0, "12345")));
      assertThat(failed)
          .extracting(f -> f.record().kafkaOffset(), FailedRecords.Failure::table)
          .containsExactly(tuple(1L, "db.orders"));
      assertThat(failed.get(0).cause().getMessage())
          .isEqualTo(
              "the row breaks the rule maximum of field amount in the contract 'orders' version"
                  + " 3.1.0 of table db.orders, and it could not be written to the quarantine"
                  + " table db.not_quarantine: table db.not_quarantine is not a quarantine table:"
                  + " it lacks the column contract_id of type string (drop it, or name another"
                  + " with contract-rejects-table)")
          .doesNotContain("250");
      assertThat(writer.counts().contractRejectsQuarantined()).isZero();
      assertThat(writer.handOver().tables())
          .extracting(TableFiles::tableName)
          .containsExactlyInAnyOrder("db.orders", "db.copy");
    }
  }

  @Test
  void aRejectKeepsItsHeadersInOrderAndAQuarantineTableWithoutTheirColumnGetsIt() throws Exception {
    FloeSinkConfig config = new FloeSinkConfig(config());
    Catalog catalog = new CatalogLoader().load(config);
    // a quarantine table created before headers were kept
    org.apache.iceberg.Schema before =
        new org.apache.iceberg.Schema(
            QuarantineRow.SCHEMA.columns().stream()
                .filter(column -> !column.name().equals("headers_json"))
                .toList());
    catalog.createTable(
        TableIdentifier.parse("db.orders__rejected"),
        before,
        org.apache.iceberg.PartitionSpec.builderFor(before).day("rejected_at").build());
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString("trace", "t-1");
    headers.addInt("attempt", 2);
    headers.addString("trace", "t-2");
    SinkRecord withHeaders =
        new SinkRecord(
            "orders",
            0,
            Schema.STRING_SCHEMA,
            "k1",
            ORDER,
            value(1, 250.0, "12345"),
            1,
            1_001L,
            org.apache.kafka.common.record.TimestampType.CREATE_TIME,
            headers);
    HandOver handOver;
    try (SinkWriter writer = writer(config, catalog)) {
      writer.write(List.of(withHeaders, order(2, null, "12345")));
      assertThat(failed).isEmpty();
      handOver = writer.handOver();
    }
    for (TableFiles files : handOver.tables()) {
      AppendFiles append = files.table().newAppend();
      files.files().dataFiles().forEach(append::appendFile);
      append.commit();
    }

    assertThat(catalog.loadTable(TableIdentifier.parse("db.orders__rejected")).schema().columns())
        .last()
        .satisfies(column -> assertThat(column.name()).isEqualTo("headers_json"))
        .satisfies(column -> assertThat(column.isOptional()).isTrue());
    List<Record> quarantined = rows("db.orders__rejected", catalog);
    assertThat(quarantined).extracting(r -> r.getField("source_offset")).containsExactly(1L, 2L);
    assertThat(quarantined.get(1).getField("headers_json")).as("no headers").isNull();
    com.fasterxml.jackson.databind.JsonNode kept =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree((String) quarantined.get(0).getField("headers_json"));
    assertThat(kept).hasSize(3);
    List<String> keys = new ArrayList<>();
    List<SchemaAndValue> values = new ArrayList<>();
    kept.forEach(
        entry -> {
          keys.add(entry.get("key").asText());
          values.add(back(false, entry.get("value").toString()));
        });
    // in the record's order, the repeated key twice; each value converts back to the header's own
    assertThat(keys).containsExactly("trace", "attempt", "trace");
    List<SchemaAndValue> original = new ArrayList<>();
    headers.forEach(header -> original.add(new SchemaAndValue(header.schema(), header.value())));
    assertThat(values).isEqualTo(original);
  }

  @Test
  void aRevokedPartitionsRejectsAreDroppedWithItsRows() {
    FloeSinkConfig config = new FloeSinkConfig(config());
    Catalog catalog = new CatalogLoader().load(config);
    try (SinkWriter writer = writer(config, catalog)) {
      writer.write(List.of(order(0, 10.0, "12345"), order(1, 250.0, "12345")));
      writer.write(
          List.of(
              new SinkRecord(
                  "orders", 1, Schema.STRING_SCHEMA, "k", ORDER, value(7, -1.0, null), 7)));
      // the reject of orders-1 shares its quarantine file with orders-0's: both are dropped, and
      // orders-1, still held, is rewound to its record
      assertThat(writer.abandon(Set.of(ORDERS_0)))
          .isEqualTo(Map.of(new TopicPartition("orders", 1), 7L));
      HandOver handOver = writer.handOver();
      assertThat(handOver.tables()).isEmpty();
      assertThat(handOver.positions()).isEmpty();
      assertThat(writer.counts().contractRejectsQuarantined()).isEqualTo(2);
    }
  }

  private static SchemaAndValue back(boolean isKey, String json) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), isKey);
    return converter.toConnectData("orders", json.getBytes(StandardCharsets.UTF_8));
  }

  private static List<Record> rows(String name, Catalog catalog) throws Exception {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> read =
        IcebergGenerics.read(catalog.loadTable(TableIdentifier.parse(name))).build()) {
      read.forEach(r -> rows.add(r.copy()));
    }
    rows.sort(
        Comparator.comparingLong(
            r ->
                r.getField("source_offset") != null
                    ? (Long) r.getField("source_offset")
                    : (Long) r.getField("id")));
    return rows;
  }

  private static Struct value(long id, Double amount, String zip) {
    return new Struct(ORDER)
        .put("id", id)
        .put("amount", amount)
        .put(
            "address",
            zip == null ? null : new Struct(ContractEnforcementTest.ADDRESS).put("zip", zip))
        .put("price", new java.math.BigDecimal("12.34"));
  }

  private static SinkRecord order(long offset, Double amount, String zip) {
    return new SinkRecord(
        "orders",
        0,
        Schema.STRING_SCHEMA,
        "k" + offset,
        ORDER,
        value(offset, amount, zip),
        offset,
        1_000L + offset,
        org.apache.kafka.common.record.TimestampType.CREATE_TIME);
  }
}
