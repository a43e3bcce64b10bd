/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import io.floe.connect.memory.ByteArena;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * The keys of one table whose stored rows a commit retires: every key deleted or upserted in the
 * cycle. A key is a row of {@link #keySchema()}, the table schema narrowed to the key columns
 * ({@code TypeUtil.select(tableSchema, keyFieldIds)}: same field ids, same order, key columns
 * nested in structs stay nested), holding Iceberg's internal values: a timestamp is a {@code Long}
 * of microseconds, a date an {@code Integer} of days, a string any {@code CharSequence}, binary and
 * fixed a {@code ByteBuffer} — what Iceberg's {@code InternalRecordWrapper} gives for a generic
 * record. Keys equal under Iceberg's comparators are one key.
 *
 * <p>The keys are held as bytes ({@link KeyCodec}) in the pages of a {@link ByteArena} (no array
 * large enough to be hard to place in a small heap), with an open-addressing table of their
 * numbers: a key of one long column takes about 24 bytes, a UUID string about 55, whatever the rows
 * they were read from. Iterating gives each key as a new row; {@link #contains} and the lookups of
 * the readers take any row of the key schema and may be called from several threads.
 */
public final class RetiredKeys implements Iterable<StructLike> {
  private static final int NO_KEY = -1;

  private final KeyCodec codec;
  private final List<Integer> keyFieldIds;
  private final ByteArena arena;
  private final int[] addresses;
  private final int[] lengths;
  private final int[] hashes;
  private final int[] slots;
  private final int size;
  private final boolean[] illFormed;
  private final ThreadLocal<KeyCodec.Bytes> scratch =
      ThreadLocal.withInitial(() -> new KeyCodec.Bytes(64));

  private RetiredKeys(Builder builder) {
    this.codec = builder.codec;
    this.keyFieldIds = builder.keyFieldIds;
    this.arena = builder.arena;
    this.addresses = builder.addresses;
    this.lengths = builder.lengths;
    this.hashes = builder.hashes;
    this.slots = builder.slots;
    this.size = builder.size;
    this.illFormed = builder.illFormed;
  }

  /**
   * The keys to retire.
   *
   * @param tableSchema the table's schema
   * @param keyFieldIds the key columns: the table's identifier field ids
   * @param keys the keys, rows of {@code TypeUtil.select(tableSchema, keyFieldIds)}
   * @throws IllegalArgumentException if there are no key columns, one is not a primitive column of
   *     the table outside lists and maps, or a key has no value for one
   */
  public static RetiredKeys of(
      Schema tableSchema, Set<Integer> keyFieldIds, Iterable<? extends StructLike> keys) {
    Builder builder = builder(tableSchema, keyFieldIds);
    keys.forEach(builder::add);
    return builder.build();
  }

  /**
   * A builder of the keys to retire, taking them one at a time (and copying them: the rows given
   * may be reused).
   *
   * @throws IllegalArgumentException if there are no key columns, or one is not a primitive column
   *     of the table outside lists and maps
   */
  public static Builder builder(Schema tableSchema, Set<Integer> keyFieldIds) {
    if (keyFieldIds.isEmpty()) {
      throw new IllegalArgumentException("retiring keys needs key columns, and none were given");
    }
    Set<Integer> ids = new TreeSet<>(keyFieldIds);
    Map<Integer, Integer> parents = TypeUtil.indexParents(tableSchema.asStruct());
    for (int id : ids) {
      checkKeyColumn(tableSchema, parents, id);
    }
    return new Builder(new KeyCodec(TypeUtil.select(tableSchema, ids)), List.copyOf(ids));
  }

  /** Takes keys one at a time; not thread-safe, and not to be used after {@link #build()}. */
  public static final class Builder {
    private final KeyCodec codec;
    private final List<Integer> keyFieldIds;
    private final KeyCodec.Bytes bytes = new KeyCodec.Bytes(64);
    private final ByteArena arena = new ByteArena();
    private final boolean[] illFormed;
    private int[] addresses = new int[16];
    private int[] lengths = new int[16];
    private int[] hashes = new int[16];
    private int[] slots = new int[32];
    private int size;

    private Builder(KeyCodec codec, List<Integer> keyFieldIds) {
      this.codec = codec;
      this.keyFieldIds = keyFieldIds;
      this.illFormed = new boolean[codec.leafCount()];
    }

    /**
     * Adds {@code key}, a row of the key schema (or a projection to it), unless an equal key is in.
     *
     * @return the key's number among the keys, from 0 in the order they were first added
     * @throws IllegalArgumentException if the key has no value for a key column
     */
    public int add(StructLike key) {
      bytes.clear();
      codec.write(key, bytes);
      int length = bytes.size();
      int hash = hash(bytes.array(), 0, length);
      int mask = slots.length - 1;
      for (int slot = hash & mask; ; slot = slot + 1 & mask) {
        int taken = slots[slot] - 1;
        if (taken == NO_KEY) {
          slots[slot] = size + 1;
          break;
        }
        if (hashes[taken] == hash
            && arena.equals(addresses[taken], lengths[taken], bytes.array(), length)) {
          return taken;
        }
      }
      if (size == hashes.length) {
        hashes = Arrays.copyOf(hashes, size * 2);
        addresses = Arrays.copyOf(addresses, size * 2);
        lengths = Arrays.copyOf(lengths, size * 2);
      }
      hashes[size] = hash;
      addresses[size] = arena.append(bytes.array(), 0, length);
      lengths[size] = length;
      noteIllFormed();
      size++;
      if (size * 4L > slots.length * 3L) {
        rehash();
      }
      return size - 1;
    }

    /** Notes the string columns of the key just written to {@link #bytes} that are ill-formed. */
    private void noteIllFormed() {
      for (int leaf = 0; leaf < illFormed.length; leaf++) {
        if (codec.leafType(leaf).typeId() == Type.TypeID.STRING && !illFormed[leaf]) {
          illFormed[leaf] = KeyCodec.illFormed(bytes.array(), codec.span(bytes.array(), 0, leaf));
        }
      }
    }

    private void rehash() {
      int[] grown = new int[slots.length * 2];
      int mask = grown.length - 1;
      for (int key = 0; key < size; key++) {
        int slot = hashes[key] & mask;
        while (grown[slot] != 0) {
          slot = slot + 1 & mask;
        }
        grown[slot] = key + 1;
      }
      slots = grown;
    }

    /** The schema of the keys: the table schema narrowed to the key columns. */
    public Schema keySchema() {
      return codec.keySchema();
    }

    /** The number of distinct keys added so far. */
    public int size() {
      return size;
    }

    public RetiredKeys build() {
      return new RetiredKeys(this);
    }
  }

  private static int hash(byte[] bytes, int from, int to) {
    long h = 0xCBF29CE484222325L ^ (to - from);
    for (int i = from; i < to; i++) {
      h = (h ^ (bytes[i] & 0xFF)) * 0x100000001B3L;
    }
    h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
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
    return codec.keySchema();
  }

  /** The key columns' field ids, ascending. */
  public List<Integer> keyFieldIds() {
    return keyFieldIds;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The bytes the keys take on the heap, roughly. */
  public long heapBytes() {
    return arena.capacity()
        + 4L * (addresses.length + lengths.length + hashes.length + slots.length);
  }

  /** Whether {@code key}, a row of {@link #keySchema()} (or a projection to it), is retired. */
  public boolean contains(StructLike key) {
    return ordinal(key) >= 0;
  }

  /**
   * The key's number among the keys, from 0 to {@code size() - 1}, or -1 if {@code key} is not
   * retired.
   */
  public int ordinal(StructLike key) {
    KeyCodec.Bytes probe = scratch.get();
    probe.clear();
    try {
      codec.write(key, probe);
    } catch (IllegalArgumentException e) {
      return NO_KEY; // a row without a key value holds no retired key
    }
    return ordinalOf(probe.array(), probe.size());
  }

  /**
   * The number of the key whose bytes, as {@link KeyCodec} writes keys, are the first {@code
   * length} of {@code key}, or -1 if no such key is retired.
   */
  int ordinalOf(byte[] key, int length) {
    int hash = hash(key, 0, length);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = slot + 1 & mask) {
      int taken = slots[slot] - 1;
      if (taken == NO_KEY) {
        return NO_KEY;
      }
      if (hashes[taken] == hash && arena.equals(addresses[taken], lengths[taken], key, length)) {
        return taken;
      }
    }
  }

  /** The key numbered {@code ordinal}, as a new row of the key schema. */
  GenericRecord key(int ordinal) {
    return codec.read(arena.page(addresses[ordinal]), ByteArena.offset(addresses[ordinal]));
  }

  /** The position of the key column {@code fieldId} among a key's values. */
  int leafOf(int fieldId) {
    return codec.leafOf(fieldId);
  }

  /** The value of the key column at {@code leaf} in the key numbered {@code ordinal}. */
  Object value(int ordinal, int leaf) {
    return codec.readValue(
        arena.page(addresses[ordinal]), ByteArena.offset(addresses[ordinal]), leaf);
  }

  /**
   * Whether the key column at {@code leaf} compares in the unsigned order of its bytes, which is
   * Iceberg's order of its values, for every key: then {@link #compare} and {@link #compareTo} need
   * not read values back.
   */
  boolean byteOrdered(int leaf) {
    return codec.byteOrdered(leaf) && !illFormed[leaf];
  }

  /**
   * Compares the key column at {@code leaf} of two keys in the unsigned order of its bytes (see
   * {@link #byteOrdered}).
   */
  int compare(int ordinal, int other, int leaf) {
    byte[] pageA = arena.page(addresses[ordinal]);
    byte[] pageB = arena.page(addresses[other]);
    long a = codec.span(pageA, ByteArena.offset(addresses[ordinal]), leaf);
    long b = codec.span(pageB, ByteArena.offset(addresses[other]), leaf);
    return compareSpans(pageA, a, pageB, b);
  }

  /**
   * The first 8 bytes of the key column at {@code leaf} of a key (zeros past its end), as an
   * unsigned number: of two keys whose column compares lower in the order of its bytes ({@link
   * #compare}), the prefix is never higher, so a sort compares prefixes first and only ties in
   * full.
   */
  long prefix(int ordinal, int leaf) {
    byte[] page = arena.page(addresses[ordinal]);
    long span = codec.span(page, ByteArena.offset(addresses[ordinal]), leaf);
    int from = (int) (span >>> 32);
    int length = Math.min(Long.BYTES, (int) span);
    long prefix = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      prefix = prefix << 8 | (i < length ? page[from + i] & 0xFF : 0);
    }
    return prefix;
  }

  /**
   * Compares the key column at {@code leaf} of a key with a value written by {@link #encode}, in
   * the unsigned order of their bytes (see {@link #byteOrdered}).
   */
  int compareTo(int ordinal, int leaf, byte[] value) {
    byte[] page = arena.page(addresses[ordinal]);
    long a = codec.span(page, ByteArena.offset(addresses[ordinal]), leaf);
    return compareSpans(page, a, value, value.length);
  }

  /** A value of the key column at {@code leaf}, written as a key holds it. */
  byte[] encode(int leaf, Object value) {
    return codec.encodeValue(leaf, value);
  }

  private static int compareSpans(byte[] a, long spanA, byte[] b, long spanB) {
    int fromA = (int) (spanA >>> 32);
    int fromB = (int) (spanB >>> 32);
    return Arrays.compareUnsigned(a, fromA, fromA + (int) spanA, b, fromB, fromB + (int) spanB);
  }

  /** Each key, as a new row of the key schema, in the order they were added. */
  @Override
  public Iterator<StructLike> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public StructLike next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        return key(next++);
      }
    };
  }
}
