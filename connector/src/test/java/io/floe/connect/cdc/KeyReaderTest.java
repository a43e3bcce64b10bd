/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static io.floe.connect.cdc.CdcRecords.key;
import static io.floe.connect.cdc.CdcRecords.record;
import static io.floe.connect.cdc.CdcRecords.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class KeyReaderTest {
  private static final Schema TENANT =
      SchemaBuilder.struct().field("id", Schema.STRING_SCHEMA).build();
  private static final Schema COMPOSITE =
      SchemaBuilder.struct()
          .name("pg.public.orders.Key")
          .field("tenant", TENANT)
          .field("order_no", Schema.INT64_SCHEMA)
          .build();

  private static Struct composite(String tenant, long orderNo) {
    return new Struct(COMPOSITE)
        .put("tenant", new Struct(TENANT).put("id", tenant))
        .put("order_no", orderNo);
  }

  @Test
  void withoutIdColumnsTheKeyIsEveryFieldOfTheRecordKeyFlattened() {
    KeyReader reader = new KeyReader(List.of());
    RowKey key = reader.ofUpsert(record(1, composite("acme", 9), null), null);
    assertThat(key).isEqualTo(RowKey.of(List.of("tenant.id", "order_no"), List.of("acme", 9L)));
  }

  @Test
  void keysOfOneSchemaShareTheirColumnList() {
    KeyReader reader = new KeyReader(List.of());
    RowKey first = reader.ofUpsert(record(1, composite("acme", 9), null), null);
    RowKey second = reader.ofDelete(record(2, composite("acme", 10), null), null);
    assertThat(second.columns()).isSameAs(first.columns());
  }

  @Test
  void aSchemalessRecordKeyGivesItsFieldsInNameOrder() {
    Map<String, Object> key = new LinkedHashMap<>();
    key.put("b", 2);
    key.put("a", 1);
    RowKey read = new KeyReader(List.of()).ofUpsert(record(1, key, null), null);
    assertThat(read).isEqualTo(RowKey.of(List.of("a", "b"), List.of(1, 2)));
  }

  @Test
  void idColumnsAreReadFromTheImageEvenWhenNested() {
    KeyReader reader = new KeyReader(List.of("tenant.id", "order_no"));
    RowKey key = reader.ofUpsert(record(1, null, null), composite("acme", 9));
    assertThat(key).isEqualTo(RowKey.of(List.of("tenant.id", "order_no"), List.of("acme", 9L)));
  }

  @Test
  void aDeleteTakesTheIdColumnsFromBeforeElseFromTheRecordKey() {
    KeyReader reader = new KeyReader(List.of("id"));
    SinkRecord withKey = record(1, key(1), null);
    assertThat(reader.ofDelete(withKey, row(2, null)))
        .isEqualTo(RowKey.of(List.of("id"), List.of(2)));
    assertThat(reader.ofDelete(withKey, null)).isEqualTo(RowKey.of(List.of("id"), List.of(1)));
  }

  @Test
  void aSingleValueRecordKeyIsTheOnlyIdColumnOfADelete() {
    RowKey key = new KeyReader(List.of("sku")).ofDelete(record(1, "SKU-1", null), null);
    assertThat(key).isEqualTo(RowKey.of(List.of("sku"), List.of("SKU-1")));
    assertThatThrownBy(
            () -> new KeyReader(List.of("a", "b")).ofDelete(record(1, "SKU-1", null), null))
        .isInstanceOf(BadChangeException.class)
        .hasMessageEndingWith(
            "field '(record key)' is a single value, which cannot hold the 2 id columns");
  }

  @Test
  void aMissingOrNullIdColumnIsABadRecordNamingIt() {
    KeyReader reader = new KeyReader(List.of("customer.id"));
    assertThatThrownBy(() -> reader.ofUpsert(record(3, null, null), row(1, "Ada")))
        .isInstanceOf(BadChangeException.class)
        .hasMessageEndingWith("field 'customer.id' (an id column) is missing from the row image");
    KeyReader byName = new KeyReader(List.of("name"));
    assertThatThrownBy(() -> byName.ofUpsert(record(3, null, null), row(1, null)))
        .hasMessageEndingWith("field 'name' (an id column) is null in the row image");
  }

  @Test
  void withoutIdColumnsARecordWithoutAStructKeyHasNoUsableKey() {
    KeyReader reader = new KeyReader(List.of());
    assertThatThrownBy(() -> reader.ofUpsert(record(3, null, null), row(1, "Ada")))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field '(record key)' is missing");
    assertThatThrownBy(() -> reader.ofUpsert(record(3, "k-1", null), row(1, "Ada")))
        .hasMessageContaining("field '(record key)' is a single String")
        .hasMessageNotContaining("k-1");
    Struct nullField = new Struct(COMPOSITE).put("tenant", new Struct(TENANT).put("id", "a"));
    assertThatThrownBy(() -> reader.ofUpsert(record(3, nullField, null), null))
        .isInstanceOf(BadChangeException.class)
        .hasMessageEndingWith("field 'order_no' is null in the record key");
  }

  @Test
  void aDeleteWithoutKeyOrBeforeHasNoUsableKey() {
    assertThatThrownBy(() -> new KeyReader(List.of("id")).ofDelete(record(3, null, null), null))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field '(record key)' is missing, and the delete has no row image");
  }

  @Test
  void anIdColumnThatIsNoPathIsRefused() {
    assertThatThrownBy(() -> new KeyReader(List.of("a..b")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
