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
 * A 128-bit hash of a key, the same for keys that Iceberg's comparators hold equal, in two 64-bit
 * halves computed with different seeds and mixers: the probe half ({@link #hash}) places the key in
 * the index's table, the check half ({@link #check}) tells apart keys whose probe halves meet. The
 * key index stores the hash, not the key, so that an entry takes the same few bytes whatever the
 * key's columns, and trusts it: it deletes the rows it holds for a key's hash without reading them.
 * Two of a table's keys sharing all 128 bits is as likely as two random 128-bit numbers meeting:
 * for ten billion keys, about one chance in 10^18.
 *
 * <p>Values are hashed as the key's Iceberg internal values ({@link RetiredKeys}): integers of any
 * width as their {@code long} value (so a column widened from int to long keeps its hashes),
 * floating point as the bits of its {@code double} value, strings by their characters, binary and
 * fixed by their bytes, UUIDs by their 128 bits (as a {@code UUID} or 16 bytes), decimals by their
 * value without trailing zeros.
 */
final class KeyHash implements KeyIndex.Hasher {
  private static final Mix PROBE = new Mix(0x2545F4914F6CDD1DL, 0x9E3779B97F4A7C15L, 29);
  private static final Mix CHECK = new Mix(0x6A09E667F3BCC909L, 0xC2B2AE3D27D4EB4FL, 37);

  /** One half's seed, odd multiplier and rotation. */
  private record Mix(long seed, long multiplier, int rotation) {
    long step(long hash, long value) {
      return Long.rotateLeft(hash ^ finish(value + multiplier), rotation) * multiplier;
    }
  }

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

  @Override
  public long hash(StructLike key) {
    long hash = half(PROBE, key);
    return hash == 0 ? 1 : hash;
  }

  @Override
  public long check(StructLike key) {
    return half(CHECK, key);
  }

  private long half(Mix mix, StructLike key) {
    long hash = mix.seed();
    for (int i = 0; i < accessors.size(); i++) {
      hash = value(mix, hash, types.get(i), accessors.get(i).get(key));
    }
    return finish(hash);
  }

  private static long value(Mix mix, long hash, Type.TypeID type, Object value) {
    if (value == null) {
      return mix.step(hash, 0x5bd1e995L);
    }
    return switch (type) {
      case BOOLEAN -> mix.step(hash, (Boolean) value ? 1 : 2);
      case INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO ->
          mix.step(hash, ((Number) value).longValue());
      case FLOAT, DOUBLE -> mix.step(hash, Double.doubleToLongBits(((Number) value).doubleValue()));
      case STRING -> chars(mix, hash, (CharSequence) value);
      case UUID -> uuid(mix, hash, value);
      case FIXED, BINARY -> bytes(mix, hash, buffer(value));
      case DECIMAL -> decimal(mix, hash, (BigDecimal) value);
      default -> throw new IllegalStateException("no hash for " + type);
    };
  }

  private static long chars(Mix mix, long hash, CharSequence value) {
    int length = value.length();
    long h = mix.step(hash, length);
    long word = 0;
    for (int i = 0; i < length; i++) {
      word = word << 16 | value.charAt(i);
      if ((i & 3) == 3) {
        h = mix.step(h, word);
        word = 0;
      }
    }
    return (length & 3) == 0 ? h : mix.step(h, word);
  }

  private static long bytes(Mix mix, long hash, ByteBuffer value) {
    ByteBuffer bytes = value.duplicate();
    long h = mix.step(hash, bytes.remaining());
    while (bytes.remaining() >= Long.BYTES) {
      h = mix.step(h, bytes.getLong());
    }
    long word = 0;
    boolean rest = bytes.hasRemaining();
    while (bytes.hasRemaining()) {
      word = word << 8 | (bytes.get() & 0xFF);
    }
    return rest ? mix.step(h, word) : h;
  }

  private static long uuid(Mix mix, long hash, Object value) {
    if (value instanceof UUID uuid) {
      return mix.step(
          mix.step(hash, uuid.getMostSignificantBits()), uuid.getLeastSignificantBits());
    }
    ByteBuffer bytes = buffer(value).duplicate();
    return mix.step(mix.step(hash, bytes.getLong()), bytes.getLong());
  }

  private static long decimal(Mix mix, long hash, BigDecimal value) {
    BigDecimal plain = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    return mix.step(
        bytes(mix, hash, ByteBuffer.wrap(plain.unscaledValue().toByteArray())), plain.scale());
  }

  private static ByteBuffer buffer(Object value) {
    return value instanceof byte[] array ? ByteBuffer.wrap(array) : (ByteBuffer) value;
  }

  /** A 64-bit finalizer: every input bit affects every output bit. */
  private static long finish(long value) {
    long h = value;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }
}
