/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.util.Utf8;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UUIDUtil;
import org.junit.jupiter.api.Test;

/** Keys equal under Iceberg's comparators hash alike, whatever Java value holds them. */
class KeyHashTest {
  private static final Schema KEYS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "name", Types.StringType.get()),
          Types.NestedField.required(3, "uuid", Types.UUIDType.get()),
          Types.NestedField.required(4, "bytes", Types.BinaryType.get()),
          Types.NestedField.required(5, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(6, "ratio", Types.DoubleType.get()));
  private static final KeyHash HASH = KeyHash.of(KEYS, List.of(1, 2, 3, 4, 5, 6));

  /** A key holding its values as given, unchecked, as a reader's or a converter's row may. */
  private record Key(Object[] values) implements StructLike {
    @Override
    public int size() {
      return values.length;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(int pos, Class<T> javaClass) {
      return (T) values[pos];
    }

    @Override
    public <T> void set(int pos, T value) {
      values[pos] = value;
    }
  }

  private static StructLike key(
      Object id, Object name, Object uuid, Object bytes, Object amount, Object ratio) {
    return new Key(new Object[] {id, name, uuid, bytes, amount, ratio});
  }

  @Test
  void equalKeysHashAlikeWhateverHoldsTheirValues() {
    UUID uuid = UUID.randomUUID();
    long one =
        HASH.hash(
            key(
                5L,
                "zoë",
                uuid,
                ByteBuffer.wrap(new byte[] {1, 2, 3}),
                new BigDecimal("1.50"),
                2.5));
    long other =
        HASH.hash(
            key(
                5,
                new Utf8("zoë"),
                UUIDUtil.convertToByteBuffer(uuid),
                new byte[] {1, 2, 3},
                new BigDecimal("1.5"),
                2.5f));
    assertThat(other).isEqualTo(one);
  }

  @Test
  void differentKeysHashApart() {
    Set<Long> hashes = new HashSet<>();
    UUID uuid = new UUID(1, 2);
    for (long id = 0; id < 20_000; id++) {
      hashes.add(HASH.hash(key(id, "a", uuid, ByteBuffer.allocate(0), BigDecimal.ZERO, 0.0)));
    }
    hashes.add(HASH.hash(key(0L, "ab", uuid, ByteBuffer.allocate(0), BigDecimal.ZERO, 0.0)));
    hashes.add(HASH.hash(key(0L, "a", uuid, ByteBuffer.allocate(1), BigDecimal.ZERO, 0.0)));
    hashes.add(HASH.hash(key(0L, "a", uuid, ByteBuffer.allocate(0), BigDecimal.ONE, 0.0)));
    hashes.add(HASH.hash(key(0L, "a", uuid, ByteBuffer.allocate(0), BigDecimal.ZERO, -0.0)));
    hashes.add(
        HASH.hash(key(0L, "a", new UUID(2, 1), ByteBuffer.allocate(0), BigDecimal.ZERO, 0.0)));
    assertThat(hashes).hasSize(20_005).doesNotContain(0L);
  }
}
