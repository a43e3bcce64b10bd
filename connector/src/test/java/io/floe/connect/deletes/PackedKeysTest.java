/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The retired keys held as bytes: one key per set of keys Iceberg's comparators hold equal, never
 * one for keys they hold apart, the keys read back as they went in, and the byte order of the
 * columns that prune equal to Iceberg's order of their values.
 */
class PackedKeysTest {
  private static final Schema ONE =
      new Schema(
          Types.NestedField.required(1, "k", Types.StringType.get()),
          Types.NestedField.required(2, "d", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(3, "b", Types.BinaryType.get()),
          Types.NestedField.required(4, "u", Types.UUIDType.get()),
          Types.NestedField.required(5, "f", Types.DoubleType.get()),
          Types.NestedField.required(
              6,
              "origin",
              Types.StructType.of(
                  Types.NestedField.required(7, "ts", Types.TimestampType.withZone()),
                  Types.NestedField.required(8, "day", Types.DateType.get()))));

  private static RetiredKeys keysOf(int fieldId, Object... values) {
    Schema keySchema = ONE.select(ONE.findColumnName(fieldId));
    List<StructLike> keys = new ArrayList<>();
    for (Object value : values) {
      GenericRecord key = GenericRecord.create(keySchema);
      key.set(0, value);
      keys.add(key);
    }
    return RetiredKeys.of(ONE, Set.of(fieldId), keys);
  }

  @Test
  void keysEqualUnderIcebergsComparatorsAreOneKeyWhateverTheirJavaType() {
    assertThat(keysOf(1, "abc", CharBuffer.wrap("abc"), new StringBuilder("abc")).size())
        .isEqualTo(1);
    assertThat(keysOf(2, new BigDecimal("1.50"), new BigDecimal("1.5")).size()).isEqualTo(1);
    assertThat(keysOf(3, ByteBuffer.wrap(new byte[] {1, 2}), new byte[] {1, 2}).size())
        .isEqualTo(1);
    UUID uuid = UUID.randomUUID();
    ByteBuffer uuidBytes = ByteBuffer.allocate(16);
    uuidBytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
    assertThat(keysOf(4, uuid, uuidBytes.flip()).size()).isEqualTo(1);
    assertThat(keysOf(5, Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L)).size())
        .isEqualTo(1);
  }

  @Test
  void keysIcebergsComparatorsHoldApartStayApart() {
    // lone surrogates: a UTF-8 encoder would turn both into '?'
    assertThat(keysOf(1, "\uD800a", "\uD801a", "?a", "\uDC00", "").size()).isEqualTo(5);
    assertThat(keysOf(5, 0.0, -0.0).size()).isEqualTo(2);
    assertThat(
            keysOf(2, new BigDecimal("1.5"), new BigDecimal("15"), new BigDecimal("-1.5")).size())
        .isEqualTo(3);
    assertThat(
            keysOf(3, new byte[] {1}, new byte[] {1, 0}, new byte[] {0, 1}, new byte[] {}).size())
        .isEqualTo(4);
  }

  @Test
  void keysReadBackAsTheyWentIn() {
    GenericRecord origin = GenericRecord.create(ONE.findType("origin").asStructType());
    origin.set(0, 1_700_000_000_000_000L);
    origin.set(1, -3);
    GenericRecord row = GenericRecord.create(ONE);
    row.set(0, "sm\u00f8rrebr\u00f8d \uD83D\uDE00 \uD800");
    row.set(1, new BigDecimal("12.30"));
    row.set(2, ByteBuffer.wrap(new byte[] {(byte) 0xFF, 0}));
    row.set(3, UUID.randomUUID());
    row.set(4, -0.0);
    row.set(5, origin);
    RetiredKeys keys = RetiredKeys.of(ONE, Set.of(1, 2, 3, 4, 5, 7, 8), List.of(row));

    StructLike back = keys.iterator().next();
    assertThat(back.get(0, CharSequence.class).toString()).isEqualTo(row.get(0));
    assertThat(back.get(1, BigDecimal.class)).isEqualTo(new BigDecimal("12.30"));
    assertThat(back.get(2, ByteBuffer.class)).isEqualTo(row.get(2));
    assertThat(back.get(3, UUID.class)).isEqualTo(row.get(3));
    assertThat(Double.doubleToLongBits(back.get(4, Double.class)))
        .isEqualTo(Double.doubleToLongBits(-0.0));
    StructLike nested = back.get(5, StructLike.class);
    assertThat(nested.get(0, Long.class)).isEqualTo(1_700_000_000_000_000L);
    assertThat(nested.get(1, Integer.class)).isEqualTo(-3);
    assertThat(keys.contains(row)).isTrue();
    assertThat(keys.contains(back)).isTrue();
    origin.set(1, -4);
    assertThat(keys.contains(row)).isFalse();
  }

  @Test
  void theBytesOfColumnsThatPruneOrderAsIcebergOrdersTheirValues() {
    Random random = new Random(7);
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "i", Types.IntegerType.get()),
            Types.NestedField.required(2, "l", Types.LongType.get()),
            Types.NestedField.required(3, "s", Types.StringType.get()),
            Types.NestedField.required(4, "b", Types.BinaryType.get()),
            Types.NestedField.required(5, "t", Types.TimestampType.withoutZone()));
    List<StructLike> rows = new ArrayList<>();
    for (int n = 0; n < 400; n++) {
      GenericRecord row = GenericRecord.create(schema);
      row.set(0, random.nextInt(5) == 0 ? random.nextInt(3) - 1 : random.nextInt());
      row.set(1, random.nextInt(5) == 0 ? random.nextLong(3) - 1 : random.nextLong());
      row.set(2, randomString(random));
      byte[] bytes = new byte[random.nextInt(4)];
      random.nextBytes(bytes);
      row.set(3, ByteBuffer.wrap(bytes));
      row.set(4, random.nextLong());
      rows.add(row);
    }
    RetiredKeys keys = RetiredKeys.of(schema, Set.of(1, 2, 3, 4, 5), rows);
    for (int leaf = 0; leaf < 5; leaf++) {
      assertThat(keys.byteOrdered(leaf)).isTrue();
      Type.PrimitiveType type = schema.columns().get(leaf).type().asPrimitiveType();
      Comparator<Object> order = Comparators.forType(type);
      for (int n = 0; n < 2_000; n++) {
        int a = random.nextInt(keys.size());
        int b = random.nextInt(keys.size());
        Object va = keys.value(a, leaf);
        Object vb = keys.value(b, leaf);
        assertThat(Integer.signum(keys.compare(a, b, leaf)))
            .as("%s: %s vs %s", type, va, vb)
            .isEqualTo(Integer.signum(order.compare(va, vb)));
        assertThat(Integer.signum(keys.compareTo(a, leaf, keys.encode(leaf, vb))))
            .isEqualTo(Integer.signum(order.compare(va, vb)));
        int byPrefix = Long.compareUnsigned(keys.prefix(a, leaf), keys.prefix(b, leaf));
        assertThat(
                byPrefix == 0 || Integer.signum(byPrefix) == Integer.signum(order.compare(va, vb)))
            .as("%s: prefixes of %s and %s", type, va, vb)
            .isTrue();
      }
    }
  }

  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(6);
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(4)) {
        case 0 -> s.append((char) ('a' + random.nextInt(3)));
        case 1 -> s.append((char) (0x80 + random.nextInt(0x700)));
        case 2 -> s.append((char) (0xE000 + random.nextInt(0x1FFF)));
        default -> s.appendCodePoint(0x10000 + random.nextInt(0x1000));
      }
    }
    return s.toString();
  }

  @Test
  void aFileIsReadWhenItsBoundsHoldAKeyWhateverTheStringsHold() {
    Schema schema = new Schema(Types.NestedField.required(1, "s", Types.StringType.get()));
    RetiredKeys wellFormed = keysOfStrings(schema, "apple", "m\u00fcller", "zebra");
    RetiredKeys illFormed = keysOfStrings(schema, "apple", "m\uD800", "zebra");
    assertThat(illFormed.byteOrdered(0)).isFalse();
    for (RetiredKeys keys : List.of(wellFormed, illFormed)) {
      KeyBounds bounds = KeyBounds.of(keys);
      assertThat(bounds.mayHoldKey(file(schema, "b", "l"))).isFalse();
      assertThat(bounds.mayHoldKey(file(schema, "b", "n"))).isTrue();
      assertThat(bounds.mayHoldKey(file(schema, "zebra", "zz"))).isTrue();
      assertThat(bounds.mayHoldKey(file(schema, "zebra0", "zz"))).isFalse();
      assertThat(bounds.mayHoldKey(file(schema, "a", "apple"))).isTrue();
      assertThat(bounds.mayHoldKey(file(schema, "a", "appl"))).isFalse();
    }
  }

  private static RetiredKeys keysOfStrings(Schema schema, String... values) {
    List<StructLike> keys = new ArrayList<>();
    for (String value : values) {
      GenericRecord key = GenericRecord.create(schema);
      key.set(0, value);
      keys.add(key);
    }
    return RetiredKeys.of(schema, Set.of(1), keys);
  }

  private static DataFile file(Schema schema, String lower, String upper) {
    Type type = schema.findType(1);
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("/t/" + lower + "-" + upper + ".parquet")
        .withFileSizeInBytes(10)
        .withMetrics(
            new Metrics(
                10L,
                null,
                null,
                null,
                null,
                java.util.Map.of(1, Conversions.toByteBuffer(type, lower)),
                java.util.Map.of(1, Conversions.toByteBuffer(type, upper))))
        .build();
  }

  @Test
  void aKeyOfOneLongTakesAFewBytes() {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    RetiredKeys.Builder builder = RetiredKeys.builder(schema, Set.of(1));
    GenericRecord key = GenericRecord.create(schema);
    for (long id = 0; id < 100_000; id++) {
      key.set(0, id * 7919);
      builder.add(key);
    }
    RetiredKeys keys = builder.build();

    assertThat(keys.size()).isEqualTo(100_000);
    assertThat(keys.heapBytes() / keys.size()).isLessThan(40);
    key.set(0, 7919L * 99_999);
    assertThat(keys.ordinal(key)).isEqualTo(99_999);
  }
}
