/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.contract.Contract;
import io.floe.connect.contract.ContractChecker;
import io.floe.connect.contract.ContractViolation;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** The documented schema of quarantine tables, and what a row holds when the record lacks parts. */
class QuarantineRowTest {

  @Test
  void theSchemaIsTheDocumentedOne() {
    assertThat(QuarantineRow.SCHEMA.columns())
        .extracting(c -> c.fieldId() + " " + c.name() + " " + c.type() + " " + c.isRequired())
        .containsExactly(
            "1 source_table string true",
            "2 contract_id string true",
            "3 contract_version string true",
            "4 rule string true",
            "5 field string true",
            "6 reason string true",
            "7 source_topic string true",
            "8 source_partition int true",
            "9 source_offset long true",
            "10 record_timestamp timestamptz false",
            "11 rejected_at timestamptz true",
            "12 key_json string false",
            "13 value_json string false",
            "14 headers_json string false");
    assertThat(QuarantineRow.SPEC.fields())
        .singleElement()
        .satisfies(f -> assertThat(f.name()).isEqualTo("rejected_at_day"));
  }

  @Test
  void aRecordWithoutKeyOrTimestampLeavesThoseColumnsNull() {
    SinkRecord record = new SinkRecord("t", 3, null, null, null, "v", 42L);
    Record row =
        QuarantineRow.of(
            QuarantineRow.SCHEMA,
            record,
            "db.t",
            violation(),
            Instant.EPOCH,
            null,
            "{\"schema\":null,\"payload\":\"v\"}",
            null);
    assertThat(row.getField("source_partition")).isEqualTo(3);
    assertThat(row.getField("source_offset")).isEqualTo(42L);
    assertThat(row.getField("record_timestamp")).isNull();
    assertThat(row.getField("key_json")).isNull();
    assertThat(row.getField("rejected_at")).isEqualTo(Instant.EPOCH.atOffset(ZoneOffset.UTC));
    assertThat(row.getField("rule")).isEqualTo("required");
    assertThat(row.getField("field")).isEqualTo("n");
  }

  @Test
  void aTableTakesQuarantineRowsWhenItHasTheColumnsAndNoOtherRequiredOne() {
    Schema evolved =
        new Schema(
            List.of(
                QuarantineRow.SCHEMA.columns().get(0),
                Types.NestedField.optional(99, "note", Types.StringType.get())));
    assertThatThrownBy(() -> QuarantineRow.check("db.q", evolved))
        .hasMessage(
            "table db.q is not a quarantine table: it lacks the column contract_id of type string"
                + " (drop it, or name another with contract-rejects-table)");

    List<Types.NestedField> columns = new java.util.ArrayList<>(QuarantineRow.SCHEMA.columns());
    columns.add(Types.NestedField.optional(99, "note", Types.StringType.get()));
    QuarantineRow.check("db.q", new Schema(columns));
    columns.add(Types.NestedField.required(100, "region", Types.StringType.get()));
    assertThatThrownBy(() -> QuarantineRow.check("db.q", new Schema(columns)))
        .hasMessageContaining("its required column region is not one Floe fills");
    columns.set(8, Types.NestedField.required(9, "source_offset", Types.IntegerType.get()));
    assertThatThrownBy(() -> QuarantineRow.check("db.q", new Schema(columns)))
        .hasMessageContaining("it lacks the column source_offset of type long");
  }

  private static ContractViolation violation() {
    Contract contract =
        Contract.parse(
            "id: c\nversion: 1\nschema:\n  - name: t\n    properties:\n      - name: n\n"
                + "        logicalType: integer\n        required: true\n");
    Schema schema = new Schema(Types.NestedField.optional(1, "n", Types.LongType.get()));
    Record empty = GenericRecord.create(schema);
    try {
      ContractChecker.compile("db.t", contract, schema).check(empty);
    } catch (ContractViolation e) {
      return e;
    }
    throw new AssertionError("the row breaks no rule");
  }
}
