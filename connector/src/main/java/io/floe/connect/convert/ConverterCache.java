/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * A bounded, least-recently-used cache of {@link RecordConverter}s for one table, keyed by the
 * identity of the record's value schema and the table schema's id.
 *
 * <p>Connect converters reuse one schema object per schema version, so lookups are identity
 * comparisons; the last hit is remembered, so a run of records with one schema costs neither a hash
 * lookup nor an allocation. Only on a miss are the cached schemas compared with {@code equals}
 * (deep, slow): an equal schema reuses the compiled plan instead of compiling again.
 *
 * <p>One cache per table: table schema ids are only unique within a table. Not thread-safe; a
 * Connect task uses it from its one thread.
 */
public final class ConverterCache {
  /** A bound that holds many schema versions of many topics routed to one table. */
  public static final int DEFAULT_MAX_ENTRIES = 64;

  private final ConverterFactory factory;
  private final Map<Key, RecordConverter> entries;
  private Schema lastSchema;
  private int lastTableSchemaId;
  private RecordConverter last;

  /**
   * Creates an empty cache.
   *
   * @param maxEntries the most converters kept; the least recently used goes first
   * @param factory compiles a converter on a miss
   */
  public ConverterCache(int maxEntries, ConverterFactory factory) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
    }
    this.factory = factory;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, RecordConverter> eldest) {
            return size() > maxEntries;
          }
        };
  }

  /**
   * The converter for values of {@code recordSchema} (null for schemaless values) into {@code
   * tableSchema}, compiled on first use.
   *
   * @throws ConversionException if compiling fails
   */
  public RecordConverter get(Schema recordSchema, org.apache.iceberg.Schema tableSchema) {
    int tableSchemaId = tableSchema.schemaId();
    if (last != null && recordSchema == lastSchema && tableSchemaId == lastTableSchemaId) {
      return last;
    }
    Key key = new Key(recordSchema, tableSchemaId);
    RecordConverter converter = entries.get(key);
    if (converter == null) {
      converter = reuseEqual(recordSchema, tableSchema);
      if (converter == null) {
        converter = factory.create(recordSchema, tableSchema);
      }
      entries.put(key, converter);
    }
    lastSchema = recordSchema;
    lastTableSchemaId = tableSchemaId;
    last = converter;
    return converter;
  }

  /** How many converters are cached. */
  public int size() {
    return entries.size();
  }

  /** Forgets every converter, for example when the table is dropped and recreated. */
  public void clear() {
    entries.clear();
    last = null;
    lastSchema = null;
  }

  private RecordConverter reuseEqual(Schema recordSchema, org.apache.iceberg.Schema tableSchema) {
    if (recordSchema == null) {
      return null;
    }
    for (Map.Entry<Key, RecordConverter> entry : entries.entrySet()) {
      Key key = entry.getKey();
      RecordConverter cached = entry.getValue();
      if (key.tableSchemaId == tableSchema.schemaId()
          && key.schema != null
          && cached instanceof StructRecordConverter struct
          && key.schema.equals(recordSchema)
          && cached.tableSchema().sameSchema(tableSchema)) {
        return struct.rebind(recordSchema);
      }
    }
    return null;
  }

  /** Identity of the record schema plus the table schema id. */
  private static final class Key {
    private final Schema schema;
    private final int tableSchemaId;

    Key(Schema schema, int tableSchemaId) {
      this.schema = schema;
      this.tableSchemaId = tableSchemaId;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && key.schema == schema && key.tableSchemaId == tableSchemaId;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(schema) * 31 + tableSchemaId;
    }
  }
}
