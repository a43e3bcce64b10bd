/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeMap;

/**
 * The keys of one table whose stored rows a commit retires: every key deleted or upserted in the
 * cycle. A key is a row of {@link #keySchema()}, the table schema narrowed to the key columns
 * ({@code TypeUtil.select(tableSchema, keyFieldIds)}: same field ids, same order, key columns
 * nested in structs stay nested), holding Iceberg's internal values: a timestamp is a {@code Long}
 * of microseconds, a date an {@code Integer} of days, a string any {@code CharSequence}, binary and
 * fixed a {@code ByteBuffer} — what Iceberg's {@code InternalRecordWrapper} gives for a generic
 * record. Keys equal under Iceberg's comparators are one key.
 *
 * <p>The rows are kept, not copied: a caller must not reuse them.
 */
public final class RetiredKeys implements Iterable<StructLike> {
  private final Schema keySchema;
  private final List<Integer> keyFieldIds;
  private final StructLikeMap<Integer> keys;

  private RetiredKeys(Schema keySchema, List<Integer> keyFieldIds, StructLikeMap<Integer> keys) {
    this.keySchema = keySchema;
    this.keyFieldIds = keyFieldIds;
    this.keys = keys;
  }

  /**
   * The keys to retire.
   *
   * @param tableSchema the table's schema
   * @param keyFieldIds the key columns: the table's identifier field ids
   * @param keys the keys, rows of {@code TypeUtil.select(tableSchema, keyFieldIds)}
   * @throws IllegalArgumentException if there are no key columns, or one is not a primitive column
   *     of the table outside lists and maps
   */
  public static RetiredKeys of(
      Schema tableSchema, Set<Integer> keyFieldIds, Iterable<? extends StructLike> keys) {
    if (keyFieldIds.isEmpty()) {
      throw new IllegalArgumentException("retiring keys needs key columns, and none were given");
    }
    Set<Integer> ids = new TreeSet<>(keyFieldIds);
    Map<Integer, Integer> parents = TypeUtil.indexParents(tableSchema.asStruct());
    for (int id : ids) {
      checkKeyColumn(tableSchema, parents, id);
    }
    Schema keySchema = TypeUtil.select(tableSchema, ids);
    StructLikeMap<Integer> ordinals = StructLikeMap.create(keySchema.asStruct());
    for (StructLike key : keys) {
      for (int id : ids) {
        if (keySchema.accessorForField(id).get(key) == null) {
          throw new IllegalArgumentException(
              "a retired key has no value for key column " + keySchema.findColumnName(id));
        }
      }
      ordinals.putIfAbsent(key, ordinals.size());
    }
    return new RetiredKeys(keySchema, List.copyOf(ids), ordinals);
  }

  private static void checkKeyColumn(Schema schema, Map<Integer, Integer> parents, int id) {
    Types.NestedField field = schema.findField(id);
    if (field == null) {
      throw new IllegalArgumentException("key column id " + id + " is not in the table's schema");
    }
    if (!field.type().isPrimitiveType()) {
      throw new IllegalArgumentException(
          "key column " + schema.findColumnName(id) + " is a " + field.type() + ", not a value");
    }
    for (Integer parent = parents.get(id); parent != null; parent = parents.get(parent)) {
      Type type = schema.findType(parent);
      if (!type.isStructType()) {
        throw new IllegalArgumentException(
            "key column " + schema.findColumnName(id) + " is inside a " + type.typeId());
      }
    }
  }

  /** The table schema narrowed to the key columns: the schema of every key. */
  public Schema keySchema() {
    return keySchema;
  }

  /** The key columns' field ids, ascending. */
  public List<Integer> keyFieldIds() {
    return keyFieldIds;
  }

  public int size() {
    return keys.size();
  }

  public boolean isEmpty() {
    return keys.isEmpty();
  }

  /** Whether {@code key}, a row of {@link #keySchema()} (or a projection to it), is retired. */
  public boolean contains(StructLike key) {
    return keys.containsKey(key);
  }

  /**
   * The key's number among the keys, from 0 to {@code size() - 1}, or -1 if {@code key} is not
   * retired.
   */
  int ordinal(StructLike key) {
    Integer ordinal = keys.get(key);
    return ordinal == null ? -1 : ordinal;
  }

  @Override
  public Iterator<StructLike> iterator() {
    return keys.keySet().iterator();
  }
}
