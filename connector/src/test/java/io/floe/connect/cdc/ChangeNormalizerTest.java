/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static io.floe.connect.cdc.CdcRecords.envelope;
import static io.floe.connect.cdc.CdcRecords.flat;
import static io.floe.connect.cdc.CdcRecords.key;
import static io.floe.connect.cdc.CdcRecords.record;
import static io.floe.connect.cdc.CdcRecords.row;
import static io.floe.connect.cdc.CdcRecords.tombstone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.cdc.Change.Kind;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChangeNormalizerTest {
  private static final String PLACEHOLDER = CdcOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;

  private final ChangeNormalizer byRecordKey =
      new ChangeNormalizer(CdcOptions.defaults(), List.of());

  private static RowKey idKey(int id) {
    return RowKey.of(List.of("id"), List.of(id));
  }

  @ParameterizedTest
  @ValueSource(strings = {"c", "r", "u"})
  void anEnvelopeCreateReadOrUpdateUpsertsTheAfterImage(String op) {
    Struct after = row(1, "Ada");
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString("trace", "t-1");
    SinkRecord record = record(7, key(1), envelope(op, row(1, "Old"), after), headers);

    Change change = byRecordKey.normalize(record);

    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(change.key()).isEqualTo(idKey(1));
    SinkRecord image = change.record();
    assertThat(image.value()).isSameAs(after);
    assertThat(image.valueSchema()).isSameAs(CdcRecords.ROW);
    assertThat(image.originalTopic()).isEqualTo(CdcRecords.TOPIC);
    assertThat(image.originalKafkaPartition()).isEqualTo(CdcRecords.PARTITION);
    assertThat(image.originalKafkaOffset()).isEqualTo(7);
    assertThat(image.timestamp()).isEqualTo(record.timestamp());
    assertThat(image.headers()).isEqualTo(headers);
    assertThat(image.key()).isSameAs(record.key());
  }

  @Test
  void anEnvelopeDeleteDeletesTheRecordKey() {
    SinkRecord record = record(8, key(1), envelope("d", row(1, "Ada"), null));
    Change change = byRecordKey.normalize(record);
    assertThat(change.kind()).isEqualTo(Kind.DELETE);
    assertThat(change.key()).isEqualTo(idKey(1));
    assertThat(change.record()).isSameAs(record);
  }

  @Test
  void anEnvelopeDeleteWithoutARecordKeyTakesTheIdColumnsFromBefore() {
    ChangeNormalizer byId = new ChangeNormalizer(CdcOptions.defaults(), List.of("id"));
    Change change = byId.normalize(record(8, null, envelope("d", row(4, null), null)));
    assertThat(change.kind()).isEqualTo(Kind.DELETE);
    assertThat(change.key()).isEqualTo(idKey(4));
  }

  @Test
  void aTombstoneDeletesTheRecordKeyAgainAfterADelete() {
    Change delete = byRecordKey.normalize(record(8, key(1), envelope("d", row(1, "Ada"), null)));
    Change tombstone = byRecordKey.normalize(tombstone(9, 1));
    assertThat(tombstone.kind()).isEqualTo(Kind.DELETE);
    assertThat(tombstone.key()).isEqualTo(delete.key());
  }

  @Test
  void aTruncateIsABadRecordUnlessTruncatesAreEnabled() {
    SinkRecord record = record(3, null, envelope("t", null, null));
    assertThatThrownBy(() -> byRecordKey.normalize(record))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field 'op'")
        .hasMessageContaining("truncates are not enabled");

    ChangeNormalizer enabled =
        new ChangeNormalizer(CdcOptions.defaults().withTruncateEnabled(true), List.of());
    Change change = enabled.normalize(record);
    assertThat(change.kind()).isEqualTo(Kind.TRUNCATE);
    assertThat(change.key()).isNull();
    assertThat(enabled.counts().truncates()).isEqualTo(1);
  }

  @Test
  void aMessageIsSkippedAndCounted() {
    Change change = byRecordKey.normalize(record(3, null, envelope("m", null, null)));
    assertThat(change.kind()).isEqualTo(Kind.SKIP);
    assertThat(change.skipReason()).isEqualTo(SkipReason.MESSAGE);
    assertThat(byRecordKey.counts().skipped(SkipReason.MESSAGE)).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"x", "C", "I", "", "insert"})
  void anUnknownEnvelopeOpIsABadRecordNeverAnInsert(String op) {
    SinkRecord record = record(11, key(1), envelope(op, null, row(1, "Ada")));
    assertThatThrownBy(() -> byRecordKey.normalize(record))
        .isInstanceOf(BadChangeException.class)
        .hasMessage(
            "Cannot read a change from the record at topic pg.inventory.customers, partition 2,"
                + " offset 11: field 'op' holds an unknown op; known are c, r, u, d, t and m");
    assertThat(byRecordKey.counts().upserts()).isZero();
  }

  @Test
  void anUpsertWithoutAnAfterImageIsABadRecord() {
    assertThatThrownBy(() -> byRecordKey.normalize(record(1, key(1), envelope("u", null, null))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field 'after' is missing or null");
  }

  @Test
  void aSchemalessEnvelopeIsRecognisedByItsFields() {
    Map<String, Object> after = new HashMap<>(Map.of("id", 5, "name", "Eve"));
    Map<String, Object> value = new HashMap<>();
    value.put("before", null);
    value.put("after", after);
    value.put("source", Map.of("lsn", 1L));
    value.put("op", "c");
    Change change = byRecordKey.normalize(record(1, Map.of("id", 5), value));
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(change.key()).isEqualTo(idKey(5));
    assertThat(change.record().value()).isSameAs(after);
    assertThat(change.record().valueSchema()).isNull();
  }

  @Test
  void anEnvelopeImageHoldingThePlaceholderIsABadRecordNamingTheFieldNotTheValue() {
    Struct after = row(1, "Ada");
    after.put("address", new Struct(CdcRecords.ADDRESS).put("street", PLACEHOLDER));
    SinkRecord record = record(12, key(1), envelope("u", null, after));
    assertThatThrownBy(() -> byRecordKey.normalize(record))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("offset 12: field 'address.street' holds Debezium's unavailable")
        .hasMessageNotContaining(PLACEHOLDER)
        .extracting(e -> ((BadChangeException) e).field())
        .isEqualTo("address.street");
  }

  @Test
  void aPlaceholderInBytesIsFoundAsItsUtf8Bytes() {
    Struct after = row(1, "Ada").put("photo", PLACEHOLDER.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> byRecordKey.normalize(record(1, key(1), envelope("c", null, after))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field 'photo'");
  }

  @Test
  void aConfiguredPlaceholderReplacesDebeziumsDefault() {
    ChangeNormalizer custom =
        new ChangeNormalizer(
            CdcOptions.defaults().withUnavailableValuePlaceholder("<toast>"), List.of());
    Struct toasted = row(1, "<toast>");
    assertThatThrownBy(() -> custom.normalize(record(1, key(1), envelope("u", null, toasted))))
        .hasMessageContaining("field 'name'");
    Struct debeziumDefault = row(1, PLACEHOLDER);
    assertThat(custom.normalize(record(2, key(1), envelope("u", null, debeziumDefault))).kind())
        .isEqualTo(Kind.UPSERT);
  }

  @Test
  void aRecordWithoutAKeyIsABadRecord() {
    assertThatThrownBy(
            () -> byRecordKey.normalize(record(4, null, envelope("c", null, row(1, "A")))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("offset 4: field '(record key)' is missing");
  }

  @ParameterizedTest
  @ValueSource(strings = {"c", "r", "u"})
  void aFlattenedUpsertWritesTheRowWithoutItsMarkers(String op) {
    Change change = byRecordKey.normalize(record(5, key(1), flat(1, "Ada", op, "false")));
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    Struct image = (Struct) change.record().value();
    assertThat(image.schema().fields())
        .extracting(org.apache.kafka.connect.data.Field::name)
        .containsExactly("id", "name", "__source_ts_ms");
    assertThat(image.get("__source_ts_ms")).isEqualTo(1_700_000_000_000L);
    assertThat(change.record().valueSchema()).isSameAs(image.schema());
  }

  @Test
  void aFlattenedRecordMarkedDeletedIsADeleteWhateverItsOp() {
    ChangeNormalizer byId = new ChangeNormalizer(CdcOptions.defaults(), List.of("id"));
    Change rewritten = byId.normalize(record(6, null, flat(3, "Ada", "d", "true")));
    assertThat(rewritten.kind()).isEqualTo(Kind.DELETE);
    assertThat(rewritten.key()).isEqualTo(idKey(3));
    Change onlyMarker = byId.normalize(record(7, null, flat(3, "Ada", null, "true")));
    assertThat(onlyMarker.kind()).isEqualTo(Kind.DELETE);
  }

  @Test
  void aDeletedMarkerThatIsNeitherTrueNorFalseIsABadRecord() {
    assertThatThrownBy(() -> byRecordKey.normalize(record(6, key(1), flat(1, "A", null, "yes"))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field '__deleted' is neither true nor false");
  }

  @ParameterizedTest
  @ValueSource(strings = {"I", "U", "D", "d"})
  void theOpsOfIcebergsDebeziumTransformAreUnderstoodInFlattenedRecords(String op) {
    Change change = byRecordKey.normalize(record(5, key(1), flat(1, "Ada", op, null)));
    assertThat(change.kind()).isEqualTo(op.equalsIgnoreCase("d") ? Kind.DELETE : Kind.UPSERT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"i", "X", "delete"})
  void anUnknownFlattenedOpIsABadRecord(String op) {
    assertThatThrownBy(() -> byRecordKey.normalize(record(5, key(1), flat(1, "Ada", op, null))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageEndingWith(
            "field '__op' holds an unknown op; known are c, r, u, d, t and m," + " and I, U and D");
  }

  @Test
  void theCdcFieldNamesTheOpFieldEvenInANestedStruct() {
    Schema cdc =
        SchemaBuilder.struct()
            .field("op", Schema.STRING_SCHEMA)
            .field("ts", Schema.INT64_SCHEMA)
            .build();
    Schema value =
        SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).field("_cdc", cdc).build();
    ChangeNormalizer normalizer =
        new ChangeNormalizer(CdcOptions.defaults().withOpField("_cdc.op"), List.of("id"));

    Struct update =
        new Struct(value).put("id", 1).put("_cdc", new Struct(cdc).put("op", "U").put("ts", 9L));
    Change upsert = normalizer.normalize(record(1, null, update));
    assertThat(upsert.kind()).isEqualTo(Kind.UPSERT);
    Struct image = (Struct) upsert.record().value();
    assertThat(image.getStruct("_cdc").schema().fields())
        .extracting(org.apache.kafka.connect.data.Field::name)
        .containsExactly("ts");

    Struct delete =
        new Struct(value).put("id", 1).put("_cdc", new Struct(cdc).put("op", "D").put("ts", 9L));
    assertThat(normalizer.normalize(record(2, null, delete)).kind()).isEqualTo(Kind.DELETE);
  }

  @Test
  void withTheCdcFieldSetDebeziumsOpFieldIsAnOrdinaryField() {
    ChangeNormalizer normalizer =
        new ChangeNormalizer(CdcOptions.defaults().withOpField("op_type"), List.of());
    Change change = normalizer.normalize(record(1, key(1), flat(1, "Ada", "d", null)));
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(((Struct) change.record().value()).get("__op")).isEqualTo("d");
  }

  @Test
  void aFlattenedFormatRecordWithoutMarkersIsAnUpsert() {
    ChangeNormalizer flattened =
        new ChangeNormalizer(CdcOptions.defaults().withFormat(ChangeFormat.FLATTENED), List.of());
    SinkRecord record = record(1, key(1), row(1, "Ada"));
    Change change = flattened.normalize(record);
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(change.record()).isSameAs(record);
  }

  @Test
  void aPlainKeyedRecordUpsertsItsValueAndATombstoneDeletesItsKey() {
    SinkRecord record = record(1, key(1), row(1, "Ada"));
    Change upsert = byRecordKey.normalize(record);
    assertThat(upsert.kind()).isEqualTo(Kind.UPSERT);
    assertThat(upsert.record()).isSameAs(record);
    Change delete = byRecordKey.normalize(tombstone(2, 1));
    assertThat(delete.kind()).isEqualTo(Kind.DELETE);
    assertThat(delete.key()).isEqualTo(upsert.key());
  }

  @Test
  void theKeyedFormatKeepsMarkerLikeFieldsAsData() {
    ChangeNormalizer keyed =
        new ChangeNormalizer(CdcOptions.defaults().withFormat(ChangeFormat.KEYED), List.of());
    SinkRecord record = record(1, key(1), flat(1, "Ada", "d", "true"));
    Change change = keyed.normalize(record);
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(change.record()).isSameAs(record);
  }

  @Test
  void theEnvelopeFormatRefusesARecordWithoutAnOp() {
    ChangeNormalizer envelopes =
        new ChangeNormalizer(CdcOptions.defaults().withFormat(ChangeFormat.ENVELOPE), List.of());
    assertThatThrownBy(() -> envelopes.normalize(record(1, key(1), row(1, "Ada"))))
        .isInstanceOf(BadChangeException.class)
        .hasMessageContaining("field 'op' (the op) is missing or null");
  }

  @Test
  void debeziumRecordsThatAreNoRowChangesAreSkippedByReason() {
    Schema heartbeat =
        SchemaBuilder.struct()
            .name("io.debezium.connector.common.Heartbeat")
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();
    Schema schemaChange =
        SchemaBuilder.struct()
            .name("io.debezium.connector.mysql.SchemaChangeValue")
            .field("ddl", Schema.STRING_SCHEMA)
            .build();
    Change beat = byRecordKey.normalize(record(1, null, new Struct(heartbeat).put("ts_ms", 1L)));
    Change ddl = byRecordKey.normalize(record(2, null, new Struct(schemaChange).put("ddl", "x")));
    assertThat(beat.skipReason()).isEqualTo(SkipReason.HEARTBEAT);
    assertThat(ddl.skipReason()).isEqualTo(SkipReason.SCHEMA_CHANGE);
    assertThat(byRecordKey.counts().skipped()).isEqualTo(2);
  }

  @Test
  void theCountsTellUpsertsDeletesAndSkipsApart() {
    byRecordKey.normalize(record(1, key(1), envelope("c", null, row(1, "A"))));
    byRecordKey.normalize(record(2, key(1), envelope("u", null, row(1, "B"))));
    byRecordKey.normalize(record(3, key(1), envelope("d", row(1, "B"), null)));
    byRecordKey.normalize(tombstone(4, 1));
    byRecordKey.normalize(record(5, null, envelope("m", null, null)));
    ChangeCounts counts = byRecordKey.counts();
    assertThat(counts.upserts()).isEqualTo(2);
    assertThat(counts.deletes()).isEqualTo(2);
    assertThat(counts.truncates()).isZero();
    assertThat(counts.skipped()).isEqualTo(1);
  }

  @Test
  void aSchemalessFlattenedRecordLosesItsMarkersToo() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("id", 1);
    value.put("__op", "u");
    value.put("__lsn", 77L);
    Change change = byRecordKey.normalize(record(1, Map.of("id", 1), value));
    assertThat(change.kind()).isEqualTo(Kind.UPSERT);
    assertThat(change.record().value()).isEqualTo(Map.of("id", 1, "__lsn", 77L));
  }
}
