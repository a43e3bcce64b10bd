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
import io.floe.connect.cdc.KeyBytes;
import io.floe.connect.cdc.KeyedChanges;
import io.floe.connect.cdc.RowKey;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.ConverterCache;
import io.floe.connect.convert.RecordConverters;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
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
 * ({@link ChangeNormalizer}), its image written through the table's writer as it comes (as append
 * mode writes a row), and folded per key ({@link KeyedChanges}, the last change of a key wins). An
 * image that a later change of the cycle supersedes stays in its file, and its position is kept,
 * for the coordinator to delete with the cycle's commit. At the hand-over {@link #flush} returns
 * the key of every retired row and the superseded rows.
 *
 * <p>A change is converted when it comes (so a record the table cannot take is a bad record at
 * {@code put}, as in append mode): the upsert's image to a row of the table's schema, and the key
 * to a row of the key schema ({@link #keySchema}) holding Iceberg's generic values.
 *
 * <p>Memory: per changed key, the folded entry and the key row; per superseded image, 8 bytes. The
 * images themselves are in the writer's files, within the writer pool's memory budget.
 *
 * <p>Not thread-safe: used under the {@link SinkWriter}'s caller's lock.
 */
final class UpsertBuffer {
  private final String table;
  private final ChangeNormalizer normalizer;
  private final ConverterCache keyConverters;
  private final Set<TopicPartition> sources = new HashSet<>();
  private final Map<TopicPartition, Long> truncates = new HashMap<>();
  private final KeyCodec keyCodec = new KeyCodec();
  private KeyedChanges<ConvertedKey> fold = new KeyedChanges<>(keyCodec);
  private long[] superseded = new long[64];
  private int supersededCount;

  /** A key as converted when its change came, on the table schema {@code schemaId}. */
  private record ConvertedKey(Record key, int schemaId) {}

  /**
   * Keeps a converted key as bytes in the fold: its schema's id, then its values. A key read back
   * in the schema the flush writes keys of comes back as a row; one of an earlier schema comes back
   * without it (the flush converts its {@link RowKey} again).
   */
  private static final class KeyCodec implements KeyedChanges.Codec<ConvertedKey> {
    private int readSchemaId = -1;
    private Types.StructType readType;

    void readAs(Schema schema, Schema keySchema) {
      readSchemaId = schema.schemaId();
      readType = keySchema.asStruct();
    }

    @Override
    public void write(ConvertedKey key, KeyBytes.Writer out) {
      out.putVarint(key.schemaId());
      KeyRecordBytes.write(key.key(), out);
    }

    @Override
    public ConvertedKey read(KeyBytes.Reader in) {
      int schemaId = (int) in.getVarint();
      return new ConvertedKey(
          schemaId == readSchemaId ? KeyRecordBytes.read(readType, in) : null, schemaId);
    }
  }

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
   * Folds in a change read by {@link #read}, writing an upsert's image through {@code writer}.
   *
   * @param writer the table's writer, for an upsert; else null
   * @param row for an upsert, its image as a row of the writer's schema; else null
   * @param key for an upsert or a delete, its key as a row of the key schema of table schema {@code
   *     schemaId}; else null
   */
  void add(Change change, TableWriter writer, Record row, Record key, int schemaId) {
    SinkRecord record = change.record();
    TopicPartition source =
        new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    long written = KeyedChanges.NO_ROW;
    if (change.kind() == Change.Kind.UPSERT) {
      written =
          writer.writeRow(
              source,
              record.originalKafkaOffset(),
              record.timestamp() == null ? OffsetRange.NO_TIMESTAMP : record.timestamp(),
              row);
    }
    ConvertedKey converted = key == null ? null : new ConvertedKey(key, schemaId);
    fold.add(change, written, converted, this::supersede);
    if (change.kind() == Change.Kind.TRUNCATE) {
      truncates.put(source, record.originalKafkaOffset());
    }
    // skips too: the fold checks offset order per source partition, so a partition read again
    // from an earlier offset must find the fold dropped
    sources.add(source);
  }

  private void supersede(long rowNumber) {
    if (supersededCount == superseded.length) {
      superseded = Arrays.copyOf(superseded, superseded.length * 2);
    }
    superseded[supersededCount++] = rowNumber;
  }

  /**
   * The estimated heap of the folded changes: their images, as converted rows and as the records
   * they came in, and their keys.
   */
  long heldBytes() {
    return fold.heldBytes() + 8L * supersededCount;
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
   * What a hand-over takes of an upsert table: the keys to retire, read from the fold one at a time
   * as they are written (a list of a million converted keys would take more heap than the fold),
   * and the rows superseded.
   */
  record Flushed(Iterable<Record> retired, Map<String, long[]> superseded) {
    boolean anyRetired() {
      return retired.iterator().hasNext();
    }
  }

  /**
   * The keys to retire and the superseded rows; call before the writer completes its files, whose
   * rows those are, and {@link #drop} once they are written. The keys are read from the fold as
   * they are iterated, so they are valid until the drop.
   *
   * @param writer the table's writer, whose row numbers the superseded rows are
   * @return the keys of the rows to retire, as rows of the key schema of the writer's schema, and
   *     the positions of the superseded rows by data file location, each ascending
   */
  Flushed flush(TableWriter writer) {
    Schema schema = writer.schema();
    Schema keySchema = keySchema(schema);
    keyCodec.readAs(schema, keySchema);
    Iterable<Record> retired =
        () ->
            StreamSupport.stream(fold.eachKey().spliterator(), false)
                .filter(FoldedKey::retire)
                .map(
                    folded -> {
                      ConvertedKey done = folded.converted();
                      return done != null && done.key() != null
                          ? done.key()
                          : keyOf(folded.key(), keySchema);
                    })
                .iterator();
    return new Flushed(retired, supersededRows(writer));
  }

  private Map<String, long[]> supersededRows(TableWriter writer) {
    long[] numbers = Arrays.copyOf(superseded, supersededCount);
    Arrays.sort(numbers); // by file, then position
    Map<String, long[]> byFile = new LinkedHashMap<>();
    int from = 0;
    while (from < numbers.length) {
      long file = numbers[from] >>> TableWriter.POSITION_BITS;
      int to = from;
      while (to < numbers.length && numbers[to] >>> TableWriter.POSITION_BITS == file) {
        to++;
      }
      long[] positions = new long[to - from];
      for (int i = from; i < to; i++) {
        positions[i - from] = TableWriter.positionOf(numbers[i]);
      }
      byFile.put(writer.locationOf(numbers[from]), positions);
      from = to;
    }
    return byFile;
  }

  /** Forgets every change since the last hand-over. */
  void drop() {
    fold = new KeyedChanges<>(keyCodec);
    superseded = new long[64];
    supersededCount = 0;
    sources.clear();
    truncates.clear();
  }

  @Override
  public String toString() {
    return table;
  }
}
