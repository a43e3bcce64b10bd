/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

class SkipReasonTest {
  private static Schema named(String name) {
    return SchemaBuilder.struct().name(name).build();
  }

  @Test
  void debeziumsOtherRecordsAreKnownByTheirSchemaName() {
    assertThat(SkipReason.ofSchema(named("io.debezium.connector.postgresql.SchemaChangeValue")))
        .isEqualTo(SkipReason.SCHEMA_CHANGE);
    assertThat(SkipReason.ofSchema(named("io.debezium.connector.common.Heartbeat")))
        .isEqualTo(SkipReason.HEARTBEAT);
    assertThat(SkipReason.ofSchema(named("io.debezium.connector.common.TransactionMetadataValue")))
        .isEqualTo(SkipReason.TRANSACTION_METADATA);
  }

  @Test
  void rowsAndUnnamedSchemasAreNotSkipped() {
    assertThat(SkipReason.ofSchema(named("pg.inventory.customers.Envelope"))).isNull();
    assertThat(SkipReason.ofSchema(Schema.STRING_SCHEMA)).isNull();
    assertThat(SkipReason.ofSchema(null)).isNull();
  }
}
