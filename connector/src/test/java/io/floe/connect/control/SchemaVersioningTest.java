/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Older and newer Floe versions read each other's events when a new schema version only appends
 * fields with defaults; otherwise the older reader refuses instead of misreading.
 */
class SchemaVersioningTest {

  /** DataWritten version 1 with a field appended: what a later Floe might add. */
  private static final Schema DATA_WRITTEN_APPENDED = withField(-1, "note", "written by v2");

  /** DataWritten version 1 with a field inserted before the others: not a prefix of version 1. */
  private static final Schema DATA_WRITTEN_INSERTED = withField(1, "priority", 0);

  /** A Floe that knows version 1 of every event type. */
  private final EventCodec current = codec();

  private static DataWritten withSources() {
    return SampleEvents.unpartitionedDeletes()
        .withChangeSources(
            List.of(new ChangeSource("orders", 0, null), new ChangeSource("orders", 3, 1_234L)));
  }

  @Test
  void thisFloeWritesDataWrittenVersion3WithItsChangeSourcesAndHandOverId() {
    EventCodec builtIn = new EventCodec();
    DataWritten sent = withSources().withHandOverId(SampleEvents.HAND_OVER_ID);
    byte[] written = builtIn.encode("c", "c-0", 1L, sent);

    assertThat(EventCodec.peekHeader(written).schemaVersion()).isEqualTo(3);
    assertThat(EventCodec.peekHeader(written).minReaderVersion())
        .as("a reader of version 1 or 2 may ignore the change sources and the hand-over id")
        .isEqualTo(1);
    assertThat(builtIn.decode(written).event()).isEqualTo(sent);
    assertThat(((DataWritten) builtIn.decode(written).event()).changeSources())
        .extracting(ChangeSource::truncatedAt)
        .containsExactly(null, 1_234L);
    assertThat(current.decode(written).event())
        .isEqualTo(SampleEvents.unpartitionedDeletes())
        .extracting(event -> ((DataWritten) event).changeSources())
        .isNull();
    assertThat(builtIn.decode(current.encode("c", "c-0", 1L, SampleEvents.dataWritten())).event())
        .as("an event of version 1 has no change sources and no hand-over id")
        .isEqualTo(SampleEvents.dataWritten());
  }

  @Test
  void aReaderOfVersion2ReadsVersion3WithoutTheHandOverId() {
    EventCodec version2 = codec(builtInDataWritten(2));
    byte[] written =
        new EventCodec()
            .encode("c", "c-0", 1L, withSources().withHandOverId(SampleEvents.HAND_OVER_ID));

    Envelope read = version2.decode(written);

    assertThat(read.header().schemaVersion()).isEqualTo(3);
    assertThat(read.event()).isEqualTo(withSources());
    assertThat(((DataWritten) read.event()).handOverId()).isNull();
  }

  @Test
  void anEventOfVersion2HasNoHandOverId() {
    byte[] fromVersion2 = codec(builtInDataWritten(2)).encode("c", "c-0", 1L, withSources());

    Envelope read = new EventCodec().decode(fromVersion2);

    assertThat(read.header().schemaVersion()).isEqualTo(2);
    assertThat(read.event()).isEqualTo(withSources());
    assertThat(((DataWritten) read.event()).handOverId()).isNull();
    assertThat(((DataWritten) read.event()).changeSources()).hasSize(2);
  }

  @Test
  void anOlderReaderReadsAnEventWithAppendedFields() {
    EventCodec newer = codec(DATA_WRITTEN_APPENDED);
    byte[] fromNewer = newer.encode("c", "c-0", 1L, SampleEvents.dataWritten());

    Envelope read = current.decode(fromNewer);

    assertThat(read.header().schemaVersion()).isEqualTo(2);
    assertThat(read.header().minReaderVersion()).isEqualTo(1);
    assertThat(read.event()).isEqualTo(SampleEvents.dataWritten());
    assertThat(fromNewer.length)
        .as("the appended field is on the wire")
        .isGreaterThan(current.encode("c", "c-0", 1L, SampleEvents.dataWritten()).length);
  }

  @Test
  void aNewerReaderReadsAnOlderEventWithTheNewFieldsDefault() {
    EventCodec newer = codec(DATA_WRITTEN_APPENDED);
    byte[] fromCurrent = current.encode("c", "c-0", 1L, SampleEvents.dataWritten());

    assertThat(newer.decode(fromCurrent).event()).isEqualTo(SampleEvents.dataWritten());
  }

  @Test
  void aNewerReaderResolvesAnOlderEventWhoseFieldsItReordered() {
    EventCodec newer = codec(DATA_WRITTEN_INSERTED);
    byte[] fromCurrent = current.encode("c", "c-0", 1L, SampleEvents.dataWritten());

    assertThat(newer.decode(fromCurrent).event()).isEqualTo(SampleEvents.dataWritten());
  }

  @Test
  void anOlderReaderRejectsAnEventItCannotReadAsAPrefix() {
    byte[] fromNewer =
        codec(DATA_WRITTEN_INSERTED).encode("c", "c-0", 1L, SampleEvents.dataWritten());

    assertThat(EventCodec.peekHeader(fromNewer).minReaderVersion()).isEqualTo(2);
    assertThatThrownBy(() -> current.decode(fromNewer))
        .isInstanceOfSatisfying(
            UnsupportedEventException.class,
            e -> assertThat(e.reason()).isEqualTo(UnsupportedEventException.Reason.VERSION_TOO_NEW))
        .hasMessageContaining("DATA_WRITTEN v2 from task c-0 of connector c")
        .hasMessageContaining("needs schema version 2 or newer")
        .hasMessageContaining("reads up to version 1");
  }

  @Test
  void anAppendedFieldOlderReadersMustNotIgnoreMakesThemReject() {
    Schema v2 = withField(-1, "keyMetadata", "k");
    v2.getField("keyMetadata").addProp(EventSchemas.MUST_UNDERSTAND, true);
    byte[] fromNewer = codec(v2).encode("c", "c-0", 1L, SampleEvents.dataWritten());

    assertThat(EventCodec.peekHeader(fromNewer).minReaderVersion()).isEqualTo(2);
    assertThatThrownBy(() -> current.decode(fromNewer))
        .isInstanceOfSatisfying(
            UnsupportedEventException.class,
            e ->
                assertThat(e.reason()).isEqualTo(UnsupportedEventException.Reason.VERSION_TOO_NEW));
    assertThat(codec(v2).decode(fromNewer).event()).isEqualTo(SampleEvents.dataWritten());
  }

  @Test
  void theMinimumReaderVersionFollowsTheLastNonAppendingChange() {
    Schema v3 = withField(DATA_WRITTEN_INSERTED, -1, "note", "v3");
    EventSchemas schemas = schemas(DATA_WRITTEN_INSERTED, v3);

    assertThat(schemas.minReaderVersion(EventType.DATA_WRITTEN, 1)).isEqualTo(1);
    assertThat(schemas.minReaderVersion(EventType.DATA_WRITTEN, 2)).isEqualTo(2);
    assertThat(schemas.minReaderVersion(EventType.DATA_WRITTEN, 3)).isEqualTo(2);
    assertThat(schemas(DATA_WRITTEN_APPENDED).minReaderVersion(EventType.DATA_WRITTEN, 2))
        .isEqualTo(1);
  }

  @Test
  void aNewFieldWithoutADefaultIsRejectedWhenTheSchemasAreBuilt() {
    Schema noDefault = withField(-1, "note", null);

    assertThatThrownBy(() -> schemas(noDefault))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DATA_WRITTEN schema version 2 cannot read version 1");
  }

  @Test
  void aRenamedRecordIsRejectedWhenTheSchemasAreBuilt() {
    Schema v1 = EventSchemas.builtIn().schema(EventType.DATA_WRITTEN, 1);
    Schema renamed = Schema.createRecord("Written", null, "io.floe.control", false, copyFields(v1));

    assertThatThrownBy(() -> schemas(renamed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a record named io.floe.control.DataWritten");
  }

  /** This Floe's schema of DataWritten version {@code version}. */
  private static Schema builtInDataWritten(int version) {
    return EventSchemas.builtIn().schema(EventType.DATA_WRITTEN, version);
  }

  private static EventCodec codec(Schema... laterDataWrittenVersions) {
    return new EventCodec(schemas(laterDataWrittenVersions));
  }

  private static EventSchemas schemas(Schema... laterDataWrittenVersions) {
    Map<EventType, List<Schema>> versions = new EnumMap<>(EventType.class);
    for (EventType type : EventType.values()) {
      versions.put(type, new ArrayList<>(List.of(EventSchemas.builtIn().schema(type, 1))));
    }
    versions.get(EventType.DATA_WRITTEN).addAll(List.of(laterDataWrittenVersions));
    return new EventSchemas(versions);
  }

  private static Schema withField(int position, String name, Object defaultValue) {
    return withField(
        EventSchemas.builtIn().schema(EventType.DATA_WRITTEN, 1), position, name, defaultValue);
  }

  /** {@code base} with a field at {@code position} (-1: at the end). */
  private static Schema withField(Schema base, int position, String name, Object defaultValue) {
    List<Schema.Field> fields = copyFields(base);
    Schema type =
        Schema.create(defaultValue instanceof Integer ? Schema.Type.INT : Schema.Type.STRING);
    Schema.Field field =
        defaultValue == null
            ? new Schema.Field(name, type)
            : new Schema.Field(name, type, null, defaultValue);
    fields.add(position < 0 ? fields.size() : position, field);
    return Schema.createRecord(base.getName(), null, base.getNamespace(), false, fields);
  }

  private static List<Schema.Field> copyFields(Schema record) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : record.getFields()) {
      fields.add(new Schema.Field(field, field.schema()));
    }
    return fields;
  }
}
