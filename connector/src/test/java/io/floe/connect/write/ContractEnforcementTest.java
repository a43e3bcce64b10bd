/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.contract.ContractViolation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's contract on the write path: each breaking record is one bad record, written nowhere.
 */
class ContractEnforcementTest {
  static final Schema ADDRESS =
      SchemaBuilder.struct().optional().field("zip", Schema.OPTIONAL_STRING_SCHEMA).build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("amount", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("address", ADDRESS)
          .build();

  /** Amount required, in [0, 100]; a zip of five digits. */
  static final String CONTRACT =
      """
      apiVersion: v3.0.2
      kind: DataContract
      id: orders
      version: 3.1.0
      schema:
        - name: orders
          properties:
            - name: amount
              logicalType: number
              required: true
              logicalTypeOptions: {minimum: 0, maximum: 100}
            - name: address.zip
              logicalType: string
              logicalTypeOptions: {pattern: "^[0-9]{5}$"}
      """;

  @TempDir Path dir;

  private final FailedRecords outcomes = new FailedRecords();
  private final List<FailedRecords.Failure> failed = outcomes.failures();

  @Test
  void aRecordBreakingARuleIsABadRecordNamingTableRuleAndFieldNotTheValue() {
    FloeSinkConfig config =
        new FloeSinkConfig(
            Map.of(
                "iceberg.tables", "db.orders,db.copy",
                "iceberg.tables.auto-create-enabled", "true",
                "iceberg.table.db.orders.contract", CONTRACT,
                "iceberg.catalog.type", "jdbc",
                "iceberg.catalog.uri", "jdbc:sqlite:" + dir.resolve("catalog.db"),
                "iceberg.catalog.jdbc.schema-version", "V1",
                "iceberg.catalog.warehouse", dir.resolve("warehouse").toString()));
    Catalog catalog = new CatalogLoader().load(config);
    try (SinkWriter writer = SinkWriter.forTask(config, catalog, outcomes)) {
      writer.write(
          List.of(
              order(0, 10.0, "12345"),
              order(1, 250.0, "12345"),
              order(2, null, "12345"),
              order(3, 5.0, "SW1A-1AA"),
              order(4, 100.0, null)));

      assertThat(failed)
          .extracting(f -> f.record().kafkaOffset(), FailedRecords.Failure::table)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(1L, "db.orders"),
              org.assertj.core.groups.Tuple.tuple(2L, "db.orders"),
              org.assertj.core.groups.Tuple.tuple(3L, "db.orders"));
      assertThat(failed)
          .extracting(f -> ((ContractViolation) f.cause()).rule())
          .containsExactly("maximum", "required", "pattern");
      assertThat(failed.get(2).cause().getMessage())
          .isEqualTo(
              "the row breaks the rule pattern of field address.zip in the contract 'orders'"
                  + " version 3.1.0 of table db.orders")
          .doesNotContain("SW1A");
      // a record one table refuses is written to none, db.copy (no contract) included
      assertThat(writer.counts().recordsWritten()).isEqualTo(4);
      assertThat(writer.counts().contractViolations()).isEqualTo(3);
      assertThat(writer.counts().conversionErrors()).isZero();
    }
  }

  private static SinkRecord order(long offset, Double amount, String zip) {
    Struct value =
        new Struct(ORDER)
            .put("id", offset)
            .put("amount", amount)
            .put("address", zip == null ? null : new Struct(ADDRESS).put("zip", zip));
    return new SinkRecord("orders", 0, null, null, ORDER, value, offset);
  }
}
