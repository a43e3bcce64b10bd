/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.cdc.CdcOptions;
import io.floe.connect.cdc.Change;
import io.floe.connect.cdc.ChangeCounts;
import io.floe.connect.cdc.ChangeNormalizer;
import io.floe.connect.cdc.FoldedKey;
import io.floe.connect.cdc.KeyedChanges;
import io.floe.connect.cdc.RowKey;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.ConverterCache;
import io.floe.connect.convert.RecordConverters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The changes of one table in upsert mode since the last hand-over: each record is read as a change
 * ({@link ChangeNormalizer}) and folded per key ({@link KeyedChanges}, the last change of a key
 * wins). Nothing reaches a file before the hand-over, when {@link #flush} writes each live key's
 * final image through the table's writer and returns the key of every retired row.
 *
 * <p>A change is converted when it comes (so a record the table cannot take is a bad record at
 * {@code put}, as in append mode): the upsert's image to a row of the table's schema, and the key
 * to a row of the key schema ({@link #keySchema}) holding Iceberg's generic values. An image
 * converted on a schema the table has since left (it evolved later in the cycle) is converted again
 * at the hand-over, from the image record kept for that.
 *
 * <p>Memory: per changed key, the folded entry, the image record (its value only, as {@link
 * KeyedChanges} keeps it), its converted row and the key row. None of it is counted in the writer
 * pool's memory budget, which bounds open files only; a commit empties it.
 *
 * <p>Not thread-safe: used under the {@link SinkWriter}'s caller's lock.
 */
final class UpsertBuffer {
  private final String table;
  private final ChangeNormalizer normalizer;
  private final ConverterCache keyConverters;
  private final Map<RowKey, Converted> converted = new HashMap<>();
  private final Set<TopicPartition> sources = new HashSet<>();
  private final Map<TopicPartition, Long> truncates = new HashMap<>();
  private KeyedChanges fold = new KeyedChanges();

  /** A change as converted when it came, on the table schema {@code schemaId}. */
  private record Converted(Record row, Record key, int schemaId, long bytes) {}

  /**
   * Heap per folded key beyond its converted row and key: the record the image came in (about as
   * large as the row again, counted as such), the fold's and this buffer's map entries and the
   * change's key. Measured with a 5-column row of two strings (about 1,030 bytes a key in all), and
   * rounded so that the estimate comes out about the same.
   */
  private static final long PER_KEY = 500;

  private long heldBytes;

  /**
   * @param table the table's name
   * @param options how the table reads changes
   * @param idColumns the table's key columns, at least one
   * @param convertOptions how values become Iceberg values, for keys read from deletes
   */
  UpsertBuffer(
      String table, CdcOptions options, List<String> idColumns, ConvertOptions convertOptions) {
    this.table = table;
    this.normalizer = new ChangeNormalizer(options, idColumns);
    this.keyConverters = new ConverterCache(16, RecordConverters.factory(convertOptions));
  }

  /**
   * The change {@code record} makes to the table, counted.
   *
   * @throws io.floe.connect.cdc.BadChangeException if it makes none Floe can apply (a bad record)
   */
  Change read(SinkRecord record) {
    return normalizer.normalize(record);
  }

  /** The changes read so far, by kind. */
  ChangeCounts counts() {
    return normalizer.counts();
  }

  /** The table schema narrowed to its identifier fields: the schema of keys. */
  static Schema keySchema(Schema schema) {
    return TypeUtil.select(schema, schema.identifierFieldIds());
  }

  /**
   * The key of a delete as a row of {@code keySchema}. Read from a struct (the row before the
   * change, the flattened row, or the record key) it is converted with the struct's schema, as the
   * rows of upserts are, so a key column of a logical type (a Debezium {@code MicroTimestamp}, say)
   * finds the row an upsert wrote; otherwise from the key's plain values.
   *
   * @throws org.apache.kafka.connect.errors.DataException if a value does not fit its column
   */
  Record keyOfDelete(Change change, Schema keySchema) {
    if (change.keySource() instanceof Struct struct) {
      return keyConverters.get(struct.schema(), keySchema).convert(struct);
    }
    return keyOf(change.key(), keySchema);
  }

  /**
   * The key as a row of {@code keySchema}, converted from the key's plain values.
   *
   * @throws org.apache.kafka.connect.errors.DataException if a value does not fit its column
   */
  Record keyOf(RowKey key, Schema keySchema) {
    Map<String, Object> value = new LinkedHashMap<>();
    for (int i = 0; i < key.size(); i++) {
      put(value, key.columns().get(i).split("\\."), 0, key.value(i));
    }
    return keyConverters.get(null, keySchema).convert(value);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> map, String[] path, int at, Object value) {
    if (at == path.length - 1) {
      map.put(path[at], value);
    } else {
      put(
          (Map<String, Object>) map.computeIfAbsent(path[at], name -> new LinkedHashMap<>()),
          path,
          at + 1,
          value);
    }
  }

  /** The key columns of {@code row}, a row of a schema {@code keySchema} was selected from. */
  static Record keyOf(Record row, Schema keySchema) {
    return project(row, keySchema.asStruct());
  }

  private static Record project(Record row, Types.StructType type) {
    GenericRecord key = GenericRecord.create(type);
    for (Types.NestedField field : type.fields()) {
      Object value = row.getField(field.name());
      key.setField(
          field.name(),
          field.type().isStructType() && value != null
              ? project((Record) value, field.type().asStructType())
              : value);
    }
    return key;
  }

  /**
   * Folds in a change read by {@link #read}.
   *
   * @param row for an upsert, its image as a row of table schema {@code schemaId}; else null
   * @param key for an upsert or a delete, its key as a row of that schema's key schema; else null
   */
  void add(Change change, Record row, Record key, int schemaId) {
    fold.add(change);
    SinkRecord record = change.record();
    TopicPartition source =
        new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    if (change.kind() == Change.Kind.TRUNCATE) {
      // the fold dropped every key: so do the conversions and their bytes
      converted.clear();
      heldBytes = 0;
      truncates.put(source, record.originalKafkaOffset());
    } else if (change.key() != null) {
      long bytes = 2 * ImageSizes.of(row) + ImageSizes.of(key) + PER_KEY;
      Converted before = converted.put(change.key(), new Converted(row, key, schemaId, bytes));
      heldBytes += bytes - (before == null ? 0 : before.bytes());
    }
    // skips too: the fold checks offset order per source partition, so a partition read again
    // from an earlier offset must find the fold dropped
    sources.add(source);
  }

  /**
   * The estimated heap of the folded changes: their images, as converted rows and as the records
   * they came in, and their keys.
   */
  long heldBytes() {
    return heldBytes;
  }

  /** Whether no key changed and no truncate came since the last hand-over. */
  boolean isEmpty() {
    return fold.isEmpty();
  }

  /**
   * Whether a truncate came since the last hand-over: the coordinator must then remove every row
   * committed before, even if no key changed after it.
   */
  boolean truncated() {
    return fold.truncated();
  }

  /**
   * The source partitions whose changes were folded in since the last hand-over, with the offset of
   * the last truncate read from each that had one.
   */
  ChangeSources changeSources() {
    return new ChangeSources(sources, truncates);
  }

  /** The source partitions whose changes (skips included) were folded in since the last drop. */
  Set<TopicPartition> sources() {
    return sources;
  }

  /**
   * Writes every live key's final image through {@code writer} and empties the buffer.
   *
   * @param convert converts an image record on the writer's current schema, for images converted on
   *     an older one
   * @return the keys of the rows to retire, as rows of the key schema of the writer's schema
   */
  List<Record> flush(TableWriter writer, Function<SinkRecord, Record> convert) {
    Schema schema = writer.schema();
    Schema keySchema = keySchema(schema);
    List<Record> retired = new ArrayList<>(fold.size());
    for (FoldedKey folded : fold.keys()) {
      Converted done = converted.get(folded.key());
      boolean current = done.schemaId() == schema.schemaId();
      Record key = done.key();
      if (folded.image().isPresent()) {
        SinkRecord image = folded.image().get();
        Record row = current ? done.row() : convert.apply(image);
        writer.write(
            new TopicPartition(image.originalTopic(), image.originalKafkaPartition()),
            image.originalKafkaOffset(),
            image.timestamp() == null ? OffsetRange.NO_TIMESTAMP : image.timestamp(),
            row);
        key = current ? key : keyOf(row, keySchema);
      } else if (!current) {
        key = keyOf(folded.key(), keySchema);
      }
      if (folded.retire()) {
        retired.add(key);
      }
    }
    drop();
    return retired;
  }

  /** Forgets every change since the last hand-over. */
  void drop() {
    fold = new KeyedChanges();
    converted.clear();
    heldBytes = 0;
    sources.clear();
    truncates.clear();
  }

  @Override
  public String toString() {
    return table;
  }
}
