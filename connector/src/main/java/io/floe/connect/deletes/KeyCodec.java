/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Writes a key (a row of a key schema, holding Iceberg's internal values) as bytes, and reads it
 * back: two keys that Iceberg's comparators hold equal are written as the same bytes, and two keys
 * they hold different as different bytes. The retired keys of a commit are kept this way, a few
 * bytes each, instead of as rows.
 *
 * <p>The key's primitive values are written one after another in the order of the key schema (depth
 * first, so a key column nested in a struct sits where the struct is):
 *
 * <ul>
 *   <li>integers, dates, times and timestamps in big-endian with the sign bit flipped (4 bytes for
 *       int and date, 8 for the others), so that unsigned byte order is their numeric order;
 *   <li>strings as a length and their UTF-8 bytes, whose unsigned order is Iceberg's order of
 *       strings; a string with a lone surrogate (which UTF-8 cannot hold) as a length, a 0xFF byte
 *       (never in UTF-8) and its UTF-16 chars;
 *   <li>binary and fixed as a length and their bytes, UUIDs as their 16 bytes;
 *   <li>booleans as one byte, floating point as its bits (all NaNs alike, as Iceberg's comparators
 *       hold them, and -0.0 apart from 0.0, as they do too);
 *   <li>decimals as their value without trailing zeros: the unscaled bytes and the scale, so that
 *       1.50 and 1.5 are one key.
 * </ul>
 *
 * Lengths are unsigned varints. Columns whose unsigned byte order is Iceberg's order of their
 * values ({@link #byteOrdered}) can be compared without reading the values back.
 */
final class KeyCodec {
  private static final int ILL_FORMED = 0xFF;

  private final Schema keySchema;
  private final List<Types.NestedField> leaves = new ArrayList<>();

  KeyCodec(Schema keySchema) {
    this.keySchema = keySchema;
    collectLeaves(keySchema.asStruct());
  }

  private void collectLeaves(Types.StructType struct) {
    for (Types.NestedField field : struct.fields()) {
      if (field.type().isStructType()) {
        collectLeaves(field.type().asStructType());
      } else {
        leaves.add(field);
      }
    }
  }

  Schema keySchema() {
    return keySchema;
  }

  /** How many primitive values a key holds. */
  int leafCount() {
    return leaves.size();
  }

  /** The position among the key's values of the key column {@code fieldId}. */
  int leafOf(int fieldId) {
    for (int i = 0; i < leaves.size(); i++) {
      if (leaves.get(i).fieldId() == fieldId) {
        return i;
      }
    }
    throw new IllegalArgumentException("field " + fieldId + " is not a key column");
  }

  /** Whether the unsigned byte order of the leaf's values is Iceberg's order of them. */
  boolean byteOrdered(int leaf) {
    return switch (leaves.get(leaf).type().typeId()) {
      case INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO, STRING, BINARY, FIXED -> true;
      default -> false;
    };
  }

  Type.PrimitiveType leafType(int leaf) {
    return leaves.get(leaf).type().asPrimitiveType();
  }

  /**
   * Writes {@code key} to {@code out}.
   *
   * @throws IllegalArgumentException naming the key column that holds no value
   */
  void write(StructLike key, Bytes out) {
    write(keySchema.asStruct(), key, out);
  }

  private void write(Types.StructType struct, StructLike row, Bytes out) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      if (field.type().isStructType()) {
        StructLike nested = row.get(i, StructLike.class);
        if (nested == null) {
          throw noValue(field);
        }
        write(field.type().asStructType(), nested, out);
      } else {
        Object value = row.get(i, Object.class);
        if (value == null) {
          throw noValue(field);
        }
        writeValue(field.type().typeId(), value, out);
      }
    }
  }

  private IllegalArgumentException noValue(Types.NestedField field) {
    return new IllegalArgumentException(
        "a retired key has no value for key column " + keySchema.findColumnName(field.fieldId()));
  }

  private static void writeValue(Type.TypeID type, Object value, Bytes out) {
    switch (type) {
      case BOOLEAN -> out.put((Boolean) value ? 1 : 0);
      case INTEGER, DATE -> out.putInt(((Number) value).intValue() ^ Integer.MIN_VALUE);
      case LONG, TIME, TIMESTAMP, TIMESTAMP_NANO ->
          out.putLong(((Number) value).longValue() ^ Long.MIN_VALUE);
      case FLOAT -> out.putInt(Float.floatToIntBits((Float) value));
      case DOUBLE -> out.putLong(Double.doubleToLongBits((Double) value));
      case STRING -> writeString((CharSequence) value, out);
      case UUID -> writeUuid(value, out);
      case BINARY, FIXED -> writeBytes(buffer(value), out);
      case DECIMAL -> writeDecimal((BigDecimal) value, out);
      default -> throw new IllegalArgumentException("a key column cannot be a " + type);
    }
  }

  static void writeString(CharSequence value, Bytes out) {
    int chars = value.length();
    int utf8 = 0;
    for (int i = 0; i < chars; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        utf8 += 1;
      } else if (c < 0x800) {
        utf8 += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < chars
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        utf8 += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        writeIllFormed(value, out);
        return;
      } else {
        utf8 += 3;
      }
    }
    out.putVarint(utf8);
    out.ensure(utf8);
    for (int i = 0; i < chars; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        out.put(c);
      } else if (c < 0x800) {
        out.put(0xC0 | c >> 6);
        out.put(0x80 | c & 0x3F);
      } else if (Character.isHighSurrogate(c)) {
        int cp = Character.toCodePoint(c, value.charAt(++i));
        out.put(0xF0 | cp >> 18);
        out.put(0x80 | cp >> 12 & 0x3F);
        out.put(0x80 | cp >> 6 & 0x3F);
        out.put(0x80 | cp & 0x3F);
      } else {
        out.put(0xE0 | c >> 12);
        out.put(0x80 | c >> 6 & 0x3F);
        out.put(0x80 | c & 0x3F);
      }
    }
  }

  private static void writeIllFormed(CharSequence value, Bytes out) {
    out.putVarint(1 + 2 * value.length());
    out.put(ILL_FORMED);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      out.put(c >> 8);
      out.put(c);
    }
  }

  private static void writeUuid(Object value, Bytes out) {
    if (value instanceof UUID uuid) {
      out.putLong(uuid.getMostSignificantBits());
      out.putLong(uuid.getLeastSignificantBits());
    } else {
      ByteBuffer bytes = buffer(value).duplicate();
      out.putLong(bytes.getLong());
      out.putLong(bytes.getLong());
    }
  }

  private static void writeBytes(ByteBuffer value, Bytes out) {
    ByteBuffer bytes = value.duplicate();
    out.putVarint(bytes.remaining());
    out.ensure(bytes.remaining());
    while (bytes.hasRemaining()) {
      out.put(bytes.get());
    }
  }

  private static void writeDecimal(BigDecimal value, Bytes out) {
    BigDecimal plain = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    byte[] unscaled = plain.unscaledValue().toByteArray();
    out.putVarint(unscaled.length);
    out.ensure(unscaled.length);
    for (byte b : unscaled) {
      out.put(b);
    }
    out.putInt(plain.scale());
  }

  private static ByteBuffer buffer(Object value) {
    return value instanceof byte[] array ? ByteBuffer.wrap(array) : (ByteBuffer) value;
  }

  /** The key written at {@code start} of {@code bytes}, as a new row of the key schema. */
  GenericRecord read(byte[] bytes, int start) {
    Reader reader = new Reader(bytes, start);
    return read(keySchema.asStruct(), reader);
  }

  private GenericRecord read(Types.StructType struct, Reader reader) {
    GenericRecord row = GenericRecord.create(struct);
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      Type type = fields.get(i).type();
      row.set(
          i,
          type.isStructType()
              ? read(type.asStructType(), reader)
              : reader.value(type.asPrimitiveType()));
    }
    return row;
  }

  /** The value of the leaf in the key written at {@code start}. */
  Object readValue(byte[] bytes, int start, int leaf) {
    Reader reader = new Reader(bytes, start);
    for (int i = 0; i < leaf; i++) {
      reader.skip(leafType(i));
    }
    return reader.value(leafType(leaf));
  }

  /**
   * Where the leaf's bytes start in the key written at {@code start}, and, packed in the same
   * {@code long}, their length: {@code from << 32 | length}. For a string, binary or fixed value
   * these are the bytes after its length, whose unsigned order is the values' order.
   */
  long span(byte[] bytes, int start, int leaf) {
    Reader reader = new Reader(bytes, start);
    for (int i = 0; i < leaf; i++) {
      reader.skip(leafType(i));
    }
    return reader.span(leafType(leaf));
  }

  /** A value of the leaf's type as {@link #span} gives it in a key: to compare keys' bytes with. */
  byte[] encodeValue(int leaf, Object value) {
    Bytes out = new Bytes(16);
    writeValue(leaves.get(leaf).type().typeId(), value, out);
    long span = new Reader(out.array(), 0).span(leafType(leaf));
    int from = (int) (span >>> 32);
    return Arrays.copyOfRange(out.array(), from, from + (int) span);
  }

  /**
   * Whether the string bytes at {@code from}, as {@link #span} gives them, hold a lone surrogate.
   */
  static boolean illFormed(byte[] bytes, long span) {
    return (int) span > 0 && (bytes[(int) (span >>> 32)] & 0xFF) == ILL_FORMED;
  }

  /** A reader of the values of one key. */
  private static final class Reader {
    private final byte[] bytes;
    private int position;

    Reader(byte[] bytes, int position) {
      this.bytes = bytes;
      this.position = position;
    }

    int varint() {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        int b = bytes[position++] & 0xFF;
        value |= (b & 0x7F) << shift;
        if (b < 0x80) {
          return value;
        }
      }
    }

    int getInt() {
      int value = 0;
      for (int i = 0; i < Integer.BYTES; i++) {
        value = value << 8 | bytes[position++] & 0xFF;
      }
      return value;
    }

    long getLong() {
      long value = 0;
      for (int i = 0; i < Long.BYTES; i++) {
        value = value << 8 | bytes[position++] & 0xFF;
      }
      return value;
    }

    long span(Type.PrimitiveType type) {
      Type.TypeID id = type.typeId();
      if (id == Type.TypeID.STRING || id == Type.TypeID.BINARY || id == Type.TypeID.FIXED) {
        int length = varint();
        return (long) position << 32 | length;
      }
      int from = position;
      skip(type);
      return (long) from << 32 | position - from;
    }

    void skip(Type.PrimitiveType type) {
      switch (type.typeId()) {
        case BOOLEAN -> position += 1;
        case INTEGER, DATE, FLOAT -> position += Integer.BYTES;
        case LONG, TIME, TIMESTAMP, TIMESTAMP_NANO, DOUBLE -> position += Long.BYTES;
        case UUID -> position += 2 * Long.BYTES;
        case STRING, BINARY, FIXED -> {
          int length = varint();
          position += length;
        }
        case DECIMAL -> {
          int length = varint();
          position += length + Integer.BYTES;
        }
        default -> throw new IllegalStateException("no key column is a " + type);
      }
    }

    Object value(Type.PrimitiveType type) {
      return switch (type.typeId()) {
        case BOOLEAN -> bytes[position++] != 0;
        case INTEGER, DATE -> getInt() ^ Integer.MIN_VALUE;
        case LONG, TIME, TIMESTAMP, TIMESTAMP_NANO -> getLong() ^ Long.MIN_VALUE;
        case FLOAT -> Float.intBitsToFloat(getInt());
        case DOUBLE -> Double.longBitsToDouble(getLong());
        case STRING -> string();
        case UUID -> new UUID(getLong(), getLong());
        case BINARY, FIXED -> {
          int length = varint();
          ByteBuffer value =
              ByteBuffer.wrap(Arrays.copyOfRange(bytes, position, position + length));
          position += length;
          yield value;
        }
        case DECIMAL -> decimal((Types.DecimalType) type);
        default -> throw new IllegalStateException("no key column is a " + type);
      };
    }

    private String string() {
      int length = varint();
      if (length > 0 && (bytes[position] & 0xFF) == ILL_FORMED) {
        char[] chars = new char[(length - 1) / 2];
        for (int i = 0; i < chars.length; i++) {
          int at = position + 1 + 2 * i;
          chars[i] = (char) ((bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF);
        }
        position += length;
        return new String(chars);
      }
      String value = new String(bytes, position, length, StandardCharsets.UTF_8);
      position += length;
      return value;
    }

    private BigDecimal decimal(Types.DecimalType type) {
      int length = varint();
      BigInteger unscaled = new BigInteger(bytes, position, length);
      position += length;
      BigDecimal value = new BigDecimal(unscaled, getInt());
      // the column's scale, as Iceberg binds a decimal literal only at it
      return value.scale() < type.scale() ? value.setScale(type.scale()) : value;
    }
  }

  /** A growing byte array that keys are written to. */
  static final class Bytes {
    private byte[] bytes;
    private int size;

    Bytes(int capacity) {
      this.bytes = new byte[Math.max(16, capacity)];
    }

    int size() {
      return size;
    }

    byte[] array() {
      return bytes;
    }

    void clear() {
      size = 0;
    }

    void ensure(int more) {
      if (size + more > bytes.length) {
        long grown = Math.max((long) bytes.length + (bytes.length >> 1), (long) size + more);
        if (grown > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("more than 2 GiB of retired keys in one commit");
        }
        bytes = Arrays.copyOf(bytes, (int) grown);
      }
    }

    /** Counts {@code length} bytes written straight into {@link #array()} after {@link #ensure}. */
    void skip(int length) {
      size += length;
    }

    void put(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    void putInt(int value) {
      ensure(Integer.BYTES);
      for (int shift = 24; shift >= 0; shift -= 8) {
        bytes[size++] = (byte) (value >>> shift);
      }
    }

    void putLong(long value) {
      ensure(Long.BYTES);
      for (int shift = 56; shift >= 0; shift -= 8) {
        bytes[size++] = (byte) (value >>> shift);
      }
    }

    void putVarint(int value) {
      int rest = value;
      while (rest >= 0x80) {
        put(rest & 0x7F | 0x80);
        rest >>>= 7;
      }
      put(rest);
    }
  }
}
