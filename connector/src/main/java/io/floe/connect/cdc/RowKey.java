/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * The key of a row: its key columns' names and values; an immutable value, usable as a map key.
 *
 * <p>Values are normalised so that the same key read from different records is equal: every integer
 * is a {@code Long}, every float a {@code Double}, a {@code BigDecimal} has no trailing zeros
 * ({@code 1.50} equals {@code 1.5}), bytes ({@code byte[]} or {@code ByteBuffer}) compare by
 * content, a {@code java.util.Date} is an {@code Instant}, and a struct is the list of its field
 * values (its schema's name, version and doc do not count). So a key column widened from int to
 * long, or a key struct of another schema version, still finds its row. Strings, booleans and other
 * values are kept as they are.
 *
 * <p>{@link #toString()} names the columns only: key values are data and may be personal.
 */
public final class RowKey {
  private final List<String> columns;
  private final List<Object> values;
  private final int hash;

  private RowKey(List<String> columns, List<Object> values) {
    this.columns = columns;
    this.values = values;
    this.hash = 31 * columns.hashCode() + values.hashCode();
  }

  /**
   * The key with these columns and values.
   *
   * @param columns the key columns' full names (dotted for a field of a struct); an immutable list
   *     is kept as it is, so the keys of one table share one list
   * @param values the columns' values in the same order, none null
   * @throws IllegalArgumentException if the sizes differ or a value is null
   */
  public static RowKey of(List<String> columns, List<?> values) {
    if (columns.size() != values.size() || columns.isEmpty()) {
      throw new IllegalArgumentException(
          "a key needs one value per column, and at least one column: "
              + columns.size()
              + " columns, "
              + values.size()
              + " values");
    }
    Object[] normalised = new Object[values.size()];
    for (int i = 0; i < normalised.length; i++) {
      Object value = values.get(i);
      if (value == null) {
        throw new IllegalArgumentException("key column '" + columns.get(i) + "' is null");
      }
      normalised[i] = normalise(value);
    }
    return new RowKey(List.copyOf(columns), List.of(normalised));
  }

  /** The key columns' full names. */
  public List<String> columns() {
    return columns;
  }

  /** How many columns the key has. */
  public int size() {
    return values.size();
  }

  /**
   * The normalised value of column {@code index} (see the class comment); bytes come back as a new
   * read-only {@code ByteBuffer}.
   */
  public Object value(int index) {
    Object value = values.get(index);
    return value instanceof Bytes bytes ? bytes.buffer() : value;
  }

  static Object normalise(Object value) {
    if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros();
    }
    if (value instanceof byte[] bytes) {
      return new Bytes(bytes.clone());
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return new Bytes(bytes);
    }
    if (value instanceof Date date) {
      return date.toInstant();
    }
    if (value instanceof Struct struct) {
      List<Object> fields = new ArrayList<>(struct.schema().fields().size());
      for (Field field : struct.schema().fields()) {
        Object child = struct.getWithoutDefault(field.name());
        fields.add(child == null ? null : normalise(child));
      }
      return Collections.unmodifiableList(fields);
    }
    if (value instanceof List<?> list) {
      List<Object> elements = new ArrayList<>(list.size());
      list.forEach(element -> elements.add(element == null ? null : normalise(element)));
      return Collections.unmodifiableList(elements);
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> entries = new HashMap<>();
      map.forEach(
          (k, v) -> entries.put(k == null ? null : normalise(k), v == null ? null : normalise(v)));
      return Collections.unmodifiableMap(entries);
    }
    return value;
  }

  private static final int NULL = 0;
  private static final int LONG = 1;
  private static final int DOUBLE = 2;
  private static final int TRUE = 3;
  private static final int FALSE = 4;
  private static final int STRING = 5;
  private static final int DECIMAL = 6;
  private static final int BYTES = 7;
  private static final int INSTANT = 8;
  private static final int LIST = 9;
  private static final int MAP = 10;
  private static final int OTHER = 11;

  /**
   * Writes the key's values (not its columns) as bytes: two keys of the same columns write the same
   * bytes exactly when they are equal. A map's entries are written in the order of their bytes. A
   * value of a type a key never normally holds is written as its class and text, and reads back as
   * that text.
   */
  void writeValues(KeyBytes.Writer out) {
    for (Object value : values) {
      writeValue(value, out);
    }
  }

  private static void writeValue(Object value, KeyBytes.Writer out) {
    if (value == null) {
      out.put(NULL);
    } else if (value instanceof Long l) {
      out.put(LONG);
      out.putLong(l);
    } else if (value instanceof Double d) {
      out.put(DOUBLE);
      out.putLong(Double.doubleToLongBits(d)); // as Double.equals compares
    } else if (value instanceof Boolean b) {
      out.put(b ? TRUE : FALSE);
    } else if (value instanceof String string) {
      out.put(STRING);
      out.putChars(string);
    } else if (value instanceof BigDecimal decimal) {
      out.put(DECIMAL);
      out.putVarint(decimal.scale() & 0xFFFFFFFFL);
      out.putBytes(decimal.unscaledValue().toByteArray());
    } else if (value instanceof Bytes bytes) {
      out.put(BYTES);
      out.putBytes(bytes.bytes);
    } else if (value instanceof java.time.Instant instant) {
      out.put(INSTANT);
      out.putLong(instant.getEpochSecond());
      out.putVarint(instant.getNano());
    } else if (value instanceof List<?> list) {
      out.put(LIST);
      out.putVarint(list.size());
      list.forEach(element -> writeValue(element, out));
    } else if (value instanceof Map<?, ?> map) {
      out.put(MAP);
      out.putVarint(map.size());
      List<byte[]> entries = new ArrayList<>(map.size());
      KeyBytes.Writer entry = new KeyBytes.Writer();
      map.forEach(
          (k, v) -> {
            entry.clear();
            writeValue(k, entry);
            writeValue(v, entry);
            entries.add(entry.toByteArray());
          });
      entries.sort(Arrays::compareUnsigned);
      entries.forEach(bytes -> append(bytes, out));
    } else {
      out.put(OTHER);
      out.putChars(value.getClass().getName());
      out.putChars(value.toString());
    }
  }

  private static void append(byte[] bytes, KeyBytes.Writer out) {
    for (byte b : bytes) {
      out.put(b);
    }
  }

  /** Reads a key of {@code columns} that {@link #writeValues} wrote. */
  static RowKey readValues(List<String> columns, KeyBytes.Reader in) {
    Object[] read = new Object[columns.size()];
    for (int i = 0; i < read.length; i++) {
      read[i] = readValue(in);
    }
    return new RowKey(columns, List.of(read));
  }

  private static Object readValue(KeyBytes.Reader in) {
    int tag = in.get();
    return switch (tag) {
      case NULL -> null;
      case LONG -> in.getLong();
      case DOUBLE -> Double.longBitsToDouble(in.getLong());
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case STRING -> in.getChars();
      case DECIMAL -> {
        int scale = (int) in.getVarint();
        yield new BigDecimal(new java.math.BigInteger(in.getBytes()), scale);
      }
      case BYTES -> new Bytes(in.getBytes());
      case INSTANT -> java.time.Instant.ofEpochSecond(in.getLong(), in.getVarint());
      case LIST -> {
        int size = (int) in.getVarint();
        List<Object> elements = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          elements.add(readValue(in));
        }
        yield Collections.unmodifiableList(elements);
      }
      case MAP -> {
        int size = (int) in.getVarint();
        Map<Object, Object> entries = new HashMap<>();
        for (int i = 0; i < size; i++) {
          Object k = readValue(in);
          entries.put(k, readValue(in));
        }
        yield Collections.unmodifiableMap(entries);
      }
      case OTHER -> {
        in.getChars(); // the class
        yield in.getChars();
      }
      default -> throw new IllegalStateException("a folded key holds an unknown tag " + tag);
    };
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || o instanceof RowKey other
            && hash == other.hash
            && values.equals(other.values)
            && columns.equals(other.columns);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "RowKey" + columns;
  }

  /** Bytes compared by content; the array is never handed out. */
  static final class Bytes {
    private final byte[] bytes;

    Bytes(byte[] bytes) {
      this.bytes = bytes;
    }

    ByteBuffer buffer() {
      return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "bytes[" + bytes.length + "]";
    }
  }
}
