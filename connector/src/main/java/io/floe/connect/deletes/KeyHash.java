/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;

/**
 * A 64-bit hash of a key, the same for keys that Iceberg's comparators hold equal: the key index
 * stores hashes, not keys, so that an entry takes the same few bytes whatever the key's columns.
 * Two keys may share a hash; the index then names the files of both for either, which costs reads,
 * never a missed row.
 *
 * <p>Values are hashed as the key's Iceberg internal values ({@link RetiredKeys}): integers of any
 * width as their {@code long} value (so a column widened from int to long keeps its hashes),
 * floating point as the bits of its {@code double} value, strings by their characters, binary and
 * fixed by their bytes, UUIDs by their 128 bits (as a {@code UUID} or 16 bytes), decimals by their
 * value without trailing zeros.
 */
final class KeyHash {
  private static final long SEED = 0x2545F4914F6CDD1DL;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final List<Accessor<StructLike>> accessors;
  private final List<Type.TypeID> types;

  private KeyHash(List<Accessor<StructLike>> accessors, List<Type.TypeID> types) {
    this.accessors = accessors;
    this.types = types;
  }

  /**
   * The hash of keys of {@code keySchema}.
   *
   * @param keyFieldIds the key columns, in the order they are hashed
   * @throws UnsupportedOperationException naming the key column whose type has no hash here
   */
  static KeyHash of(Schema keySchema, List<Integer> keyFieldIds) {
    List<Accessor<StructLike>> accessors = new ArrayList<>();
    List<Type.TypeID> types = new ArrayList<>();
    for (int id : keyFieldIds) {
      Type.TypeID type = keySchema.findType(id).typeId();
      switch (type) {
        case BOOLEAN,
            INTEGER,
            LONG,
            FLOAT,
            DOUBLE,
            DATE,
            TIME,
            TIMESTAMP,
            TIMESTAMP_NANO,
            STRING,
            UUID,
            FIXED,
            BINARY,
            DECIMAL -> {}
        default ->
            throw new UnsupportedOperationException(
                "key column " + keySchema.findColumnName(id) + " is a " + type + ", not indexed");
      }
      accessors.add(keySchema.accessorForField(id));
      types.add(type);
    }
    return new KeyHash(List.copyOf(accessors), List.copyOf(types));
  }

  /** The key's hash; never 0, which the index keeps for empty slots. */
  long hash(StructLike key) {
    long hash = SEED;
    for (int i = 0; i < accessors.size(); i++) {
      hash = value(hash, types.get(i), accessors.get(i).get(key));
    }
    hash = finish(hash);
    return hash == 0 ? 1 : hash;
  }

  private static long value(long hash, Type.TypeID type, Object value) {
    if (value == null) {
      return step(hash, 0x5bd1e995L);
    }
    return switch (type) {
      case BOOLEAN -> step(hash, (Boolean) value ? 1 : 2);
      case INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO ->
          step(hash, ((Number) value).longValue());
      case FLOAT, DOUBLE -> step(hash, Double.doubleToLongBits(((Number) value).doubleValue()));
      case STRING -> chars(hash, (CharSequence) value);
      case UUID -> uuid(hash, value);
      case FIXED, BINARY -> bytes(hash, buffer(value));
      case DECIMAL -> decimal(hash, (BigDecimal) value);
      default -> throw new IllegalStateException("no hash for " + type);
    };
  }

  private static long chars(long hash, CharSequence value) {
    int length = value.length();
    long h = step(hash, length);
    long word = 0;
    for (int i = 0; i < length; i++) {
      word = word << 16 | value.charAt(i);
      if ((i & 3) == 3) {
        h = step(h, word);
        word = 0;
      }
    }
    return (length & 3) == 0 ? h : step(h, word);
  }

  private static long bytes(long hash, ByteBuffer value) {
    ByteBuffer bytes = value.duplicate();
    long h = step(hash, bytes.remaining());
    while (bytes.remaining() >= Long.BYTES) {
      h = step(h, bytes.getLong());
    }
    long word = 0;
    boolean rest = bytes.hasRemaining();
    while (bytes.hasRemaining()) {
      word = word << 8 | (bytes.get() & 0xFF);
    }
    return rest ? step(h, word) : h;
  }

  private static long uuid(long hash, Object value) {
    if (value instanceof UUID uuid) {
      return step(step(hash, uuid.getMostSignificantBits()), uuid.getLeastSignificantBits());
    }
    ByteBuffer bytes = buffer(value).duplicate();
    return step(step(hash, bytes.getLong()), bytes.getLong());
  }

  private static long decimal(long hash, BigDecimal value) {
    BigDecimal plain = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    return step(bytes(hash, ByteBuffer.wrap(plain.unscaledValue().toByteArray())), plain.scale());
  }

  private static ByteBuffer buffer(Object value) {
    return value instanceof byte[] array ? ByteBuffer.wrap(array) : (ByteBuffer) value;
  }

  private static long step(long hash, long value) {
    return Long.rotateLeft(hash ^ finish(value + GOLDEN), 29) * GOLDEN;
  }

  /** A 64-bit finalizer: every input bit affects every output bit. */
  private static long finish(long value) {
    long h = value;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }
}
