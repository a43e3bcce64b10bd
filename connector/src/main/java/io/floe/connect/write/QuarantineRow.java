/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.floe.connect.contract.ContractViolation;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The row of a quarantine table (README, "Quarantine table"): a record a table's contract refused,
 * with the rule and field it broke and the reason (never the value), where it came from in Kafka,
 * and its key, value and headers as Connect JSON with their schemas, from which it can be produced
 * again. Quarantine tables are partitioned by the day of rejection.
 */
final class QuarantineRow {
  static final String SOURCE_TABLE = "source_table";
  static final String CONTRACT_ID = "contract_id";
  static final String CONTRACT_VERSION = "contract_version";
  static final String RULE = "rule";
  static final String FIELD = "field";
  static final String REASON = "reason";
  static final String SOURCE_TOPIC = "source_topic";
  static final String SOURCE_PARTITION = "source_partition";
  static final String SOURCE_OFFSET = "source_offset";
  static final String RECORD_TIMESTAMP = "record_timestamp";
  static final String REJECTED_AT = "rejected_at";
  static final String KEY_JSON = "key_json";
  static final String VALUE_JSON = "value_json";
  static final String HEADERS_JSON = "headers_json";

  /** The schema Floe creates quarantine tables with. */
  static final Schema SCHEMA =
      new Schema(
          required(1, SOURCE_TABLE, Types.StringType.get(), "The table whose contract refused it"),
          required(2, CONTRACT_ID, Types.StringType.get(), "The contract's id"),
          required(3, CONTRACT_VERSION, Types.StringType.get(), "The contract's version"),
          required(4, RULE, Types.StringType.get(), "The rule broken (maximum, pattern, ...)"),
          required(5, FIELD, Types.StringType.get(), "The field whose rule was broken"),
          required(6, REASON, Types.StringType.get(), "Why, without the value"),
          required(7, SOURCE_TOPIC, Types.StringType.get(), "The record's original topic"),
          required(8, SOURCE_PARTITION, Types.IntegerType.get(), "Its original partition"),
          required(9, SOURCE_OFFSET, Types.LongType.get(), "Its original offset"),
          optional(10, RECORD_TIMESTAMP, Types.TimestampType.withZone(), "The record's timestamp"),
          required(11, REJECTED_AT, Types.TimestampType.withZone(), "When the task refused it"),
          optional(
              12, KEY_JSON, Types.StringType.get(), "The key: Connect JSON, schema and payload"),
          optional(
              13,
              VALUE_JSON,
              Types.StringType.get(),
              "The value: Connect JSON, schema and payload"),
          optional(
              14,
              HEADERS_JSON,
              Types.StringType.get(),
              "The headers, in order: a JSON array of {key, value}, each value Connect JSON"));

  /** The partition spec Floe creates quarantine tables with: by day of rejection. */
  static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).day(REJECTED_AT).build();

  private QuarantineRow() {}

  /**
   * The row of {@code record}, refused by {@code violation}, on the quarantine table's schema
   * {@code schema} (which holds {@link #SCHEMA}'s columns, see {@link #check}).
   *
   * @param keyJson the record's key as Connect JSON, or null
   * @param valueJson the record's value as Connect JSON, or null
   * @param headersJson the record's headers as a JSON array, or null when it has none
   */
  static Record of(
      Schema schema,
      SinkRecord record,
      String table,
      ContractViolation violation,
      Instant rejectedAt,
      String keyJson,
      String valueJson,
      String headersJson) {
    Record row = GenericRecord.create(schema);
    row.setField(SOURCE_TABLE, table);
    row.setField(CONTRACT_ID, violation.contractId());
    row.setField(CONTRACT_VERSION, violation.contractVersion());
    row.setField(RULE, violation.rule());
    row.setField(FIELD, violation.field());
    row.setField(REASON, violation.getMessage());
    row.setField(SOURCE_TOPIC, record.originalTopic());
    row.setField(SOURCE_PARTITION, record.originalKafkaPartition());
    row.setField(SOURCE_OFFSET, record.originalKafkaOffset());
    row.setField(RECORD_TIMESTAMP, record.timestamp() == null ? null : utc(record.timestamp()));
    row.setField(REJECTED_AT, utc(rejectedAt.toEpochMilli()));
    row.setField(KEY_JSON, keyJson);
    row.setField(VALUE_JSON, valueJson);
    row.setField(HEADERS_JSON, headersJson);
    return row;
  }

  private static OffsetDateTime utc(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).atOffset(ZoneOffset.UTC);
  }

  /**
   * Checks that a table can take quarantine rows: it has every column of {@link #SCHEMA}, of the
   * same type, and no other required column.
   *
   * @throws DataException saying what the table lacks: the record it was for is a bad record
   */
  static void check(String name, Schema schema) {
    for (NestedField column : SCHEMA.columns()) {
      NestedField found = schema.findField(column.name());
      if (found == null || !found.type().equals(column.type())) {
        throw new DataException(
            "table "
                + name
                + " is not a quarantine table: it lacks the column "
                + column.name()
                + " of type "
                + column.type()
                + " (drop it, or name another with contract-rejects-table)");
      }
    }
    for (NestedField column : schema.columns()) {
      if (column.isRequired() && SCHEMA.findField(column.name()) == null) {
        throw new DataException(
            "table "
                + name
                + " is not a quarantine table: its required column "
                + column.name()
                + " is not one Floe fills (drop the table, or name another with"
                + " contract-rejects-table)");
      }
    }
  }
}
