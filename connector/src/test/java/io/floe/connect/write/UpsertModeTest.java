/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.cdc.SkipReason;
import io.floe.connect.config.FloeSinkConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.GenericManifestFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UpsertModeTest {
  private static final String TOPIC = "orders";
  private static final org.apache.kafka.connect.data.Schema ROW =
      SchemaBuilder.struct()
          .name("shop.orders.Value")
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("name", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .optional()
          .build();
  private static final org.apache.kafka.connect.data.Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("shop.orders.Envelope")
          .field("before", ROW)
          .field("after", ROW)
          .field("op", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .build();
  private static final org.apache.kafka.connect.data.Schema FLAT =
      SchemaBuilder.struct()
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("name", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("__op", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("__deleted", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  private final InMemoryCatalog catalog = new InMemoryCatalog();
  private final List<Long> refused = new ArrayList<>();
  private final List<Long> tombstones = new ArrayList<>();

  UpsertModeTest() {
    catalog.initialize("mem", Map.of("warehouse", "mem://" + UUID.randomUUID()));
    catalog.createNamespace(Namespace.of("db"));
  }

  @AfterEach
  void closeCatalog() throws IOException {
    catalog.close();
  }

  /** {@code db.t} in upsert mode keyed by id, {@code db.log} appending, both fed every record. */
  private SinkWriter writer(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.tables", "db.t,db.log");
    props.put("iceberg.tables.auto-create-enabled", "true");
    props.put("iceberg.tables.evolve-schema-enabled", "true");
    props.put("iceberg.catalog.type", "rest");
    props.put("iceberg.table.db.t.upsert-mode-enabled", "true");
    props.put("iceberg.table.db.t.id-columns", "id");
    props.putAll(extra);
    props.values().removeIf(String::isEmpty);
    return SinkWriter.forTask(
        new FloeSinkConfig(props),
        catalog,
        new SinkWriter.RecordOutcomes() {
          @Override
          public void tombstone(SinkRecord record) {
            tombstones.add(record.kafkaOffset());
          }

          @Override
          public void failed(SinkRecord record, String table, RuntimeException cause) {
            refused.add(record.kafkaOffset());
          }
        });
  }

  private static Struct row(long id, String name) {
    return new Struct(ROW).put("id", id).put("name", name);
  }

  private static SinkRecord envelope(long offset, String op, Struct before, Struct after) {
    Struct value = new Struct(ENVELOPE).put("op", op).put("before", before).put("after", after);
    return new SinkRecord(TOPIC, 0, null, null, ENVELOPE, value, offset, 1_000L + offset, null);
  }

  /** Key 2 created at offset 20 of partition 1. */
  private static SinkRecord createdOnPartition1() {
    Struct value = new Struct(ENVELOPE).put("op", "c").put("after", row(2, "b"));
    return new SinkRecord(TOPIC, 1, null, null, ENVELOPE, value, 20);
  }

  private static SinkRecord flat(long offset, long id, String name, String op, String deleted) {
    Struct value =
        new Struct(FLAT).put("id", id).put("name", name).put("__op", op).put("__deleted", deleted);
    return new SinkRecord(TOPIC, 0, null, null, FLAT, value, offset);
  }

  private static SinkRecord tombstone(int partition, long offset, long id) {
    return new SinkRecord(TOPIC, partition, null, id, null, null, offset);
  }

  private static TableFiles files(HandOver handOver, String table) {
    return handOver.tables().stream()
        .filter(files -> files.tableName().equals(table))
        .findFirst()
        .orElseThrow();
  }

  /**
   * Commits the data files of {@code table} and reads the table's rows, name by id, without the
   * rows the hand-over's file of superseded rows names (as the coordinator deletes them).
   */
  private Map<Long, String> commitAndRead(HandOver handOver, String table) {
    Table iceberg = catalog.loadTable(TableIdentifier.parse(table));
    AppendFiles append = iceberg.newAppend();
    files(handOver, table).files().dataFiles().forEach(append::appendFile);
    append.commit();
    java.util.Set<String> superseded = superseded(files(handOver, table));
    Schema projection =
        new Schema(
            iceberg.schema().findField("id"),
            iceberg.schema().findField("name"),
            org.apache.iceberg.MetadataColumns.FILE_PATH,
            org.apache.iceberg.MetadataColumns.ROW_POSITION);
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> scan =
        IcebergGenerics.read(iceberg).project(projection).build()) {
      for (Record row : scan) {
        String at = row.getField("_file") + "@" + row.getField("_pos");
        if (!superseded.remove(at)) {
          assertThat(rows.put((Long) row.getField("id"), (String) row.getField("name")))
              .as("one live row per key")
              .isNull();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(superseded).as("superseded rows not found in the data files").isEmpty();
    return rows;
  }

  /**
   * The rows that the hand-over's file of superseded rows names, as {@code file@position}, after
   * checking the file is what the coordinator expects; empty without one.
   */
  private static java.util.Set<String> superseded(TableFiles files) {
    List<DeleteFile> positions =
        files.files().keyFiles().stream()
            .filter(file -> file.content() == FileContent.POSITION_DELETES)
            .toList();
    java.util.Set<String> rows = new java.util.HashSet<>();
    if (positions.isEmpty()) {
      return rows;
    }
    assertThat(positions).hasSize(1);
    DeleteFile file = positions.get(0);
    assertThat(file.format()).isEqualTo(FileFormat.AVRO);
    assertThat(file.specId()).isZero();
    assertThat(file.location()).contains("floe-superseded-");
    Schema pathAndPosition =
        new Schema(
            org.apache.iceberg.MetadataColumns.DELETE_FILE_PATH,
            org.apache.iceberg.MetadataColumns.DELETE_FILE_POS);
    try (CloseableIterable<Record> read =
        org.apache.iceberg.formats.FormatModelRegistry.readBuilder(
                FileFormat.AVRO, Record.class, files.table().io().newInputFile(file.location()))
            .project(pathAndPosition)
            .build()) {
      for (Record row : read) {
        assertThat(rows.add(row.get(0) + "@" + row.get(1))).as("each row once").isTrue();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(file.recordCount()).isEqualTo(rows.size());
    return rows;
  }

  /** How many rows the hand-over superseded in {@code files}'s data files. */
  private static int supersededCount(TableFiles files) {
    return superseded(files).size();
  }

  /**
   * The values of {@code column} in the table's one key file, read back with Iceberg's Parquet
   * generic reader, after checking the file is what the coordinator expects.
   */
  private static List<Object> retiredKeys(TableFiles files, String column) {
    List<DeleteFile> keyFiles =
        files.files().keyFiles().stream()
            .filter(file -> file.content() == FileContent.EQUALITY_DELETES)
            .toList();
    assertThat(keyFiles).hasSize(1);
    DeleteFile keys = keyFiles.get(0);
    Schema schema = files.table().schema();
    Schema keySchema = TypeUtil.select(schema, schema.identifierFieldIds());
    assertThat(keys.content()).isEqualTo(FileContent.EQUALITY_DELETES);
    assertThat(keys.format()).isEqualTo(FileFormat.PARQUET);
    assertThat(keys.specId()).isZero();
    assertThat(keys.equalityFieldIds()).containsExactly(schema.findField(column).fieldId());
    assertThat(keys.location()).contains("floe-keys-");
    List<Object> values = new ArrayList<>();
    if (keys.recordCount() == 0) {
      return values; // a truncated hand-over's: Iceberg's writer leaves no file without rows
    }
    try (CloseableIterable<Record> read =
        Parquet.read(files.table().io().newInputFile(keys.location()))
            .project(keySchema)
            .createReaderFunc(
                fileSchema -> GenericParquetReaders.buildReader(keySchema, fileSchema))
            .build()) {
      for (Record key : read) {
        assertThat(key.struct()).isEqualTo(keySchema.asStruct());
        values.add(key.getField(column));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(keys.recordCount()).isEqualTo(values.size());
    return values;
  }

  /** The ids in the table's one key file. */
  private static List<Long> retiredIds(TableFiles files) {
    return retiredKeys(files, "id").stream().map(Long.class::cast).toList();
  }

  @Test
  void envelopesLeaveEachLiveKeysFinalImageAndRetireEveryChangedKey() {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(
          List.of(
              envelope(0, "c", null, row(1, "a")),
              envelope(1, "r", null, row(2, "b")),
              envelope(2, "u", row(1, "a"), row(1, "a2")),
              envelope(3, "d", row(2, "b"), null),
              envelope(4, "c", null, row(3, "c")),
              envelope(5, "u", row(3, "c"), row(3, "c2"))));
      HandOver handOver = writer.handOver();

      assertThat(refused).isEmpty();
      assertThat(files(handOver, "db.t").files().dataFiles())
          .as("every image, written as it came")
          .extracting(file -> file.recordCount())
          .containsExactly(5L);
      assertThat(supersededCount(files(handOver, "db.t")))
          .as("the images of keys 1 and 3 replaced, and key 2's deleted")
          .isEqualTo(3);
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(1L, "a2", 3L, "c2"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L, 2L, 3L);
      assertThat(handOver.positions().get(new TopicPartition(TOPIC, 0)).nextOffset()).isEqualTo(6);

      TableFiles log = files(handOver, "db.log");
      assertThat(log.files().keyFiles()).isEmpty();
      assertThat(log.files().recordCount()).isEqualTo(6);
      assertThat(writer.changeCounts("db.log")).isEmpty();
      assertThat(writer.changeCounts("db.t").orElseThrow().upserts()).isEqualTo(5);
      assertThat(writer.changeCounts("db.t").orElseThrow().deletes()).isEqualTo(1);
      assertThat(writer.counts().changesUpserted()).isEqualTo(5);
      assertThat(writer.counts().changesDeleted()).isEqualTo(1);
      assertThat(writer.counts().changesSkipped()).isZero();
    }
  }

  /** An envelope keyed as Debezium keys it: a struct of the primary key columns. */
  private static SinkRecord keyedEnvelope(
      long offset, String keyField, long id, String op, Struct before, Struct after) {
    org.apache.kafka.connect.data.Schema keySchema =
        SchemaBuilder.struct()
            .name("shop.orders.Key")
            .field(keyField, org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
            .build();
    Struct value = new Struct(ENVELOPE).put("op", op).put("before", before).put("after", after);
    return new SinkRecord(
        TOPIC, 0, keySchema, new Struct(keySchema).put(keyField, id), ENVELOPE, value, offset);
  }

  @Test
  void withoutIdColumnsTheRecordKeysFieldsAreTheKeyAndTheTablesIdentifierFields() {
    try (SinkWriter writer = writer(Map.of("iceberg.table.db.t.id-columns", ""))) {
      writer.write(
          List.of(
              keyedEnvelope(0, "id", 1, "c", null, row(1, "a")),
              keyedEnvelope(1, "id", 2, "r", null, row(2, "b")),
              keyedEnvelope(2, "id", 2, "d", row(2, "b"), null),
              keyedEnvelope(3, "order_id", 3, "c", null, row(3, "c")),
              keyedEnvelope(4, "id", 1, "u", row(1, "a"), row(1, "a2"))));
      HandOver handOver = writer.handOver();

      assertThat(refused).as("a key with other fields than the table's").containsExactly(3L);
      Table table = catalog.loadTable(TableIdentifier.parse("db.t"));
      assertThat(table.schema().identifierFieldNames()).containsExactly("id");
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(1L, "a2"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L, 2L);
    }
  }

  @Test
  void aDeleteFindsTheKeyOfALogicalTypeAsTheUpsertWroteIt() {
    org.apache.kafka.connect.data.Schema micros =
        SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").build();
    org.apache.kafka.connect.data.Schema row =
        SchemaBuilder.struct()
            .name("shop.events.Value")
            .field("ts", micros)
            .field("name", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .build();
    org.apache.kafka.connect.data.Schema envelope =
        SchemaBuilder.struct()
            .name("shop.events.Envelope")
            .field("before", row)
            .field("after", row)
            .field("op", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .build();
    org.apache.kafka.connect.data.Schema key =
        SchemaBuilder.struct().name("shop.events.Key").field("ts", micros).build();
    long ts = 1_767_225_600_123_456L; // 2026-01-01T00:00:00.123456Z in microseconds
    Struct image = new Struct(row).put("ts", ts).put("name", "a");
    Struct created = new Struct(envelope).put("op", "c").put("after", image);
    Struct deleted = new Struct(envelope).put("op", "d").put("before", image);
    Struct keyStruct = new Struct(key).put("ts", ts);
    try (SinkWriter writer = writer(Map.of("iceberg.table.db.t.id-columns", "ts"))) {
      writer.write(List.of(new SinkRecord(TOPIC, 0, key, keyStruct, envelope, created, 0)));
      HandOver first = writer.handOver();
      Table table = catalog.loadTable(TableIdentifier.parse("db.t"));
      AppendFiles append = table.newAppend();
      files(first, "db.t").files().dataFiles().forEach(append::appendFile);
      append.commit();
      Object stored;
      try (CloseableIterable<Record> scan = IcebergGenerics.read(table).build()) {
        stored = scan.iterator().next().getField("ts");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }

      writer.write(
          List.of(
              new SinkRecord(TOPIC, 0, key, keyStruct, envelope, deleted, 1),
              new SinkRecord(TOPIC, 0, key, keyStruct, null, null, 2)));
      HandOver second = writer.handOver();
      assertThat(refused).isEmpty();
      assertThat(retiredKeys(files(second, "db.t"), "ts"))
          .as("the delete's key, from the row before and from the record key")
          .containsExactly(stored);
    }
  }

  /**
   * Images are written as they come, so they count as the written rows of append mode do; the fold
   * adds its keys, and its superseded rows at 8 bytes each, not the images they replace.
   */
  @Test
  void writtenImagesAndFoldedKeysCountAsBufferedBytesUntilTheHandOver() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables", "db.t"))) {
      List<SinkRecord> distinct = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        distinct.add(envelope(i, "c", null, row(i, UUID.randomUUID().toString())));
      }
      writer.write(distinct);
      long thousandKeys = writer.bufferedBytes();
      assertThat(thousandKeys)
          .as("an open file holding 1,000 images of a 36-character name, and their keys")
          .isBetween(1_000L * 36, 16L << 20);

      List<SinkRecord> sameKey = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        sameKey.add(envelope(1_000 + i, "u", null, row(7, UUID.randomUUID().toString())));
      }
      writer.write(sameKey);
      assertThat(writer.bufferedBytes())
          .as("1,000 more images written, 1,000 superseded rows held")
          .isGreaterThan(thousandKeys + 1_000L * 8);

      writer.handOver();
      assertThat(writer.bufferedBytes()).isZero();
    }
  }

  @Test
  void flattenedAndKeyedRecordsAndTombstonesFoldTheSameWay() {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(
          List.of(
              flat(0, 1, "a", "c", null),
              flat(1, 2, "b", "c", null),
              flat(2, 2, "b", null, "true"),
              flat(3, 3, "c", "c", null),
              flat(4, 1, "a2", "U", null),
              tombstone(0, 5, 3),
              flat(6, 4, "d", "r", "false")));
      HandOver handOver = writer.handOver();

      assertThat(refused).isEmpty();
      assertThat(tombstones).as("a tombstone only deletes, in the upsert table").isEmpty();
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(1L, "a2", 4L, "d"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L, 2L, 3L, 4L);
      Table table = catalog.loadTable(TableIdentifier.parse("db.t"));
      assertThat(table.schema().findField("__op")).isNull();
      assertThat(table.schema().identifierFieldNames()).containsExactly("id");
      assertThat(files(handOver, "db.log").files().recordCount()).isEqualTo(6);
    }
  }

  @Test
  void plainKeyedRecordsUpsertAndTombstonesDelete() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables.cdc-format", "keyed"))) {
      writer.write(
          List.of(
              flat(0, 1, "a", "d", null),
              flat(1, 2, "b", null, null),
              tombstone(0, 2, 2),
              flat(3, 1, "a2", null, null)));
      HandOver handOver = writer.handOver();
      Map<Long, String> rows = commitAndRead(handOver, "db.t");
      assertThat(rows).as("in keyed format the op field is data").isEqualTo(Map.of(1L, "a2"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L, 2L);
    }
  }

  @Test
  void aChangeThatCannotBeReadIsABadRecordWhoseOffsetIsStillCovered() {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(
          List.of(
              envelope(0, "c", null, row(1, "a")),
              envelope(1, "x", null, row(2, "b")),
              envelope(2, "c", null, row(3, "__debezium_unavailable_value")),
              envelope(3, "m", null, null),
              envelope(4, "t", null, null)));
      HandOver handOver = writer.handOver();

      assertThat(refused).containsExactly(1L, 2L, 4L);
      assertThat(writer.changeCounts("db.t").orElseThrow().skipped(SkipReason.MESSAGE))
          .isEqualTo(1);
      assertThat(handOver.positions().get(new TopicPartition(TOPIC, 0)).nextOffset()).isEqualTo(5);
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(1L, "a"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L);
      assertThat(files(handOver, "db.log").files().recordCount())
          .as("a record one table refuses is written nowhere")
          .isEqualTo(2);
    }
  }

  /**
   * With truncates enabled, a truncate drops every change the task folded before it (of any
   * partition), and the hand-over carries a key file, even without keys, whose sources name the
   * truncate's partition and offset.
   */
  @Test
  void aTruncateDropsWhatCameBeforeItAndHandsOverItsPartitionAndOffset() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables", "db.t"))) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a"))));
      writer.handOver();
      refused.clear();
      try (SinkWriter truncating =
          writer(Map.of("iceberg.tables", "db.t", "iceberg.tables.cdc-truncate-enabled", "true"))) {
        truncating.write(
            List.of(
                envelope(1, "c", null, row(2, "b")),
                createdOnPartition1(),
                envelope(2, "u", row(1, "a"), row(1, "a2")),
                envelope(3, "t", null, null),
                envelope(4, "c", null, row(3, "c")),
                envelope(5, "d", row(4, "d"), null),
                envelope(6, "c", null, row(5, "e")),
                envelope(7, "d", row(5, "e"), null)));
        HandOver handOver = truncating.handOver();

        assertThat(refused).isEmpty();
        TableFiles files = files(handOver, "db.t");
        assertThat(retiredIds(files)).as("nothing committed is left to retire").isEmpty();
        assertThat(files.files().changeSources().partitions())
            .containsExactlyInAnyOrder(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1));
        assertThat(files.files().changeSources().truncatedAt())
            .isEqualTo(Map.of(new TopicPartition(TOPIC, 0), 3L));
        assertThat(commitAndRead(handOver, "db.t"))
            .as("the images of the keys live after the truncate only")
            .isEqualTo(Map.of(3L, "c"));
        assertThat(truncating.changeCounts("db.t").orElseThrow().truncates()).isEqualTo(1);

        truncating.write(List.of(envelope(8, "c", null, row(6, "f"))));
        TableFiles next = files(truncating.handOver(), "db.t");
        assertThat(next.files().changeSources().truncated())
            .as("the next hand-over truncates nothing")
            .isFalse();
        assertThat(retiredIds(next)).containsExactly(6L);
      }
    }
  }

  @Test
  void aTruncateIsABadRecordUnlessTheTableEnablesTruncates() {
    try (SinkWriter writer =
        writer(
            Map.of(
                "iceberg.tables",
                "db.t",
                "iceberg.tables.cdc-truncate-enabled",
                "true",
                "iceberg.table.db.t.cdc-truncate-enabled",
                "false"))) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a")), envelope(1, "t", null, null)));
      assertThat(refused).containsExactly(1L);
      assertThat(files(writer.handOver(), "db.t").files().changeSources().truncated()).isFalse();
    }
    refused.clear();
    try (SinkWriter writer =
        writer(
            Map.of("iceberg.tables", "db.t", "iceberg.table.db.t.cdc-truncate-enabled", "true"))) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a")), envelope(1, "t", null, null)));
      assertThat(refused).isEmpty();
      assertThat(files(writer.handOver(), "db.t").files().changeSources().truncated()).isTrue();
    }
  }

  @Test
  void aTruncateOfATableThatDoesNotExistYetChangesNothing() {
    try (SinkWriter writer =
        writer(Map.of("iceberg.tables", "db.t", "iceberg.tables.cdc-truncate-enabled", "true"))) {
      writer.write(List.of(envelope(0, "t", null, null)));
      HandOver handOver = writer.handOver();
      assertThat(handOver.tables()).isEmpty();
      assertThat(handOver.positions().get(new TopicPartition(TOPIC, 0)).nextOffset()).isEqualTo(1);
      assertThat(refused).isEmpty();
    }
  }

  @Test
  void aDeleteOfATableThatDoesNotExistYetChangesNothing() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables", "db.t"))) {
      writer.write(List.of(tombstone(0, 0, 7), envelope(1, "d", row(8, "x"), null)));
      HandOver handOver = writer.handOver();
      assertThat(handOver.tables()).isEmpty();
      assertThat(handOver.positions().get(new TopicPartition(TOPIC, 0)).nextOffset()).isEqualTo(2);
      assertThat(refused).isEmpty();
    }
  }

  @Test
  void onlyDeletesHandOverAKeyFileAndNoDataFile() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables", "db.t"))) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a"))));
      writer.handOver();
      writer.write(List.of(tombstone(0, 1, 1), envelope(2, "d", row(5, null), null)));
      HandOver handOver = writer.handOver();
      TableFiles files = files(handOver, "db.t");
      assertThat(files.files().dataFiles()).isEmpty();
      assertThat(retiredIds(files)).containsExactly(1L, 5L);
    }
  }

  @Test
  void revokingAPartitionDropsTheFoldItFedAndRewindsTheOthersThatFedIt() {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(List.of(envelope(10, "c", null, row(1, "a")), createdOnPartition1()));
      Map<TopicPartition, Long> rewind = writer.abandon(List.of(new TopicPartition(TOPIC, 1)));
      assertThat(rewind).isEqualTo(Map.of(new TopicPartition(TOPIC, 0), 10L));

      writer.write(List.of(envelope(10, "c", null, row(1, "a"))));
      HandOver handOver = writer.handOver();
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(1L, "a"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(1L);
      assertThat(files(handOver, "db.log").files().recordCount()).isEqualTo(1);
    }
  }

  @Test
  void aPartitionThatOnlySkippedIsReadAgainAfterItIsRevoked() {
    try (SinkWriter writer = writer(Map.of("iceberg.tables", "db.t"))) {
      SinkRecord created = createdOnPartition1();
      writer.write(List.of(envelope(5, "m", null, null), created));
      assertThat(writer.abandon(List.of(new TopicPartition(TOPIC, 0))))
          .isEqualTo(Map.of(new TopicPartition(TOPIC, 1), 20L));

      writer.write(List.of(envelope(5, "m", null, null), created));
      HandOver handOver = writer.handOver();
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(2L, "b"));
    }
  }

  @Test
  void aResetDropsTheFold() {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a"))));
      assertThat(writer.reset()).isEqualTo(Map.of(new TopicPartition(TOPIC, 0), 0L));
      writer.write(List.of(envelope(0, "c", null, row(2, "b"))));
      HandOver handOver = writer.handOver();
      assertThat(commitAndRead(handOver, "db.t")).isEqualTo(Map.of(2L, "b"));
      assertThat(retiredIds(files(handOver, "db.t"))).containsExactly(2L);
    }
  }

  @Test
  void keyFilesGoInOneUnpartitionedDeleteManifest() throws IOException {
    try (SinkWriter writer = writer(Map.of())) {
      writer.write(List.of(envelope(0, "c", null, row(1, "a")), tombstone(0, 1, 2)));
      TableFiles files = files(writer.handOver(), "db.t");
      List<Manifests.Written> manifests = Manifests.write(files, "floe-test-" + UUID.randomUUID());
      assertThat(manifests).hasSize(2);
      ManifestFile keys = manifests.get(1).manifest();
      assertThat(keys.content()).isEqualTo(ManifestContent.DELETES);
      assertThat(keys.partitionSpecId()).isZero();
      assertThat(keys.path()).endsWith("-k-m.avro");
      assertThat(keys.addedFilesCount()).isEqualTo(1);
      assertThat(manifests.get(0).manifest().content()).isEqualTo(ManifestContent.DATA);
      List<String> listed = new ArrayList<>();
      // as the events carry it, a manifest has no snapshot id yet: a reader gives it one
      ManifestFile readable = GenericManifestFile.copyOf(keys).withSnapshotId(1L).build();
      try (var read =
          ManifestFiles.readDeleteManifest(
              readable, files.table().io(), Map.of(0, PartitionSpec.unpartitioned()))) {
        read.forEach(file -> listed.add(file.location()));
      }
      assertThat(listed).containsExactly(files.files().keyFiles().get(0).location());
      assertThat(retiredIds(files)).containsExactly(1L, 2L);
    }
  }

  @Test
  void appendOnlyConnectorsKeepTombstonesAsTheyWere() {
    Map<String, String> props = new HashMap<>();
    props.put("iceberg.table.db.t.upsert-mode-enabled", "false");
    try (SinkWriter writer = writer(props)) {
      writer.write(List.of(flat(0, 1, "a", "c", null), tombstone(0, 1, 1)));
      HandOver handOver = writer.handOver();
      assertThat(tombstones).containsExactly(1L);
      assertThat(files(handOver, "db.t").files().keyFiles()).isEmpty();
      assertThat(files(handOver, "db.t").files().recordCount()).isEqualTo(1);
      assertThat(writer.changeCounts("db.t")).isEmpty();
    }
  }
}
