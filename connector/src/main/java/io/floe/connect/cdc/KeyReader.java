/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Reads the key of a change. With id columns, the key is their values: taken from the row image of
 * an upsert, and for a delete from the row as it was ({@code before}), else from the record key (a
 * struct or map holding the columns, or the value itself for a single id column). Without id
 * columns, the key is every field of the record key, as Debezium's key struct names the primary key
 * columns (nested structs flattened to dotted names; a schemaless key's fields in name order).
 *
 * <p>A key column that is missing or null makes the record a bad record naming the column.
 */
final class KeyReader {
  private static final int MAX_NAME_LISTS = 64;

  private final List<String> idColumns;
  private final List<FieldPath> paths;
  private final Map<List<String>, List<String>> nameLists = new HashMap<>();

  /**
   * @param idColumns the table's id columns (dotted for a field of a struct); empty to take the key
   *     from the record key
   * @throws IllegalArgumentException if a column name is not a dotted path
   */
  KeyReader(List<String> idColumns) {
    this.idColumns = List.copyOf(idColumns);
    this.paths = this.idColumns.stream().map(FieldPath::of).toList();
  }

  /** The key of an upsert whose row image is {@code image}. */
  RowKey ofUpsert(SinkRecord record, Object image) {
    return idColumns.isEmpty() ? ofRecordKey(record) : ofColumns(record, image, "the row image");
  }

  /**
   * What {@link #ofDelete} reads the key of a delete from: the row before the change if there are
   * id columns and it is given, else the record key.
   */
  Object sourceOfDelete(SinkRecord record, Object before) {
    return idColumns.isEmpty() || before == null ? record.key() : before;
  }

  /** The key of a delete; {@code before} is the row as it was, or null if the record has none. */
  RowKey ofDelete(SinkRecord record, Object before) {
    if (idColumns.isEmpty()) {
      return ofRecordKey(record);
    }
    if (before != null) {
      return ofColumns(record, before, "the row image before the change");
    }
    Object key = record.key();
    if (key == null) {
      throw new BadChangeException(
          record,
          BadChangeException.RECORD_KEY,
          "is missing, and the delete has no row image to take the id columns from");
    }
    if (key instanceof Struct || key instanceof Map) {
      return ofColumns(record, key, "the record key");
    }
    if (idColumns.size() == 1) {
      return RowKey.of(idColumns, List.of(key));
    }
    throw new BadChangeException(
        record,
        BadChangeException.RECORD_KEY,
        "is a single value, which cannot hold the " + idColumns.size() + " id columns");
  }

  private RowKey ofColumns(SinkRecord record, Object container, String where) {
    Object[] values = new Object[paths.size()];
    for (int i = 0; i < values.length; i++) {
      Object value = paths.get(i).in(container);
      if (value == FieldPath.MISSING) {
        throw new BadChangeException(
            record, idColumns.get(i), "(an id column) is missing from " + where);
      }
      if (value == null) {
        throw new BadChangeException(
            record, idColumns.get(i), "(an id column) is null in " + where);
      }
      values[i] = value;
    }
    return RowKey.of(idColumns, Arrays.asList(values));
  }

  private RowKey ofRecordKey(SinkRecord record) {
    Object key = record.key();
    if (key == null) {
      throw new BadChangeException(
          record,
          BadChangeException.RECORD_KEY,
          "is missing, and the table has no id columns to take the key from the row");
    }
    if (!(key instanceof Struct || key instanceof Map)) {
      throw new BadChangeException(
          record,
          BadChangeException.RECORD_KEY,
          "is a single "
              + key.getClass().getSimpleName()
              + ", not a struct whose fields name the key columns; set the table's id columns");
    }
    List<String> names = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    flatten(record, "", key, names, values);
    if (names.isEmpty()) {
      throw new BadChangeException(record, BadChangeException.RECORD_KEY, "has no fields");
    }
    return RowKey.of(shared(names), values);
  }

  private static void flatten(
      SinkRecord record, String prefix, Object container, List<String> names, List<Object> values) {
    if (container instanceof Struct struct) {
      for (Field field : struct.schema().fields()) {
        add(record, prefix + field.name(), struct.getWithoutDefault(field.name()), names, values);
      }
    } else {
      Map<String, Object> sorted = new TreeMap<>();
      ((Map<?, ?>) container).forEach((name, value) -> sorted.put(String.valueOf(name), value));
      sorted.forEach((name, value) -> add(record, prefix + name, value, names, values));
    }
  }

  private static void add(
      SinkRecord record, String path, Object value, List<String> names, List<Object> values) {
    if (value == null) {
      throw new BadChangeException(record, path, "is null in the record key");
    }
    if (value instanceof Struct || value instanceof Map) {
      flatten(record, path + ".", value, names, values);
    } else {
      names.add(path);
      values.add(value);
    }
  }

  /** One list per set of key column names, so that the keys of a table share it. */
  private List<String> shared(List<String> names) {
    List<String> known = nameLists.get(names);
    if (known == null) {
      if (nameLists.size() >= MAX_NAME_LISTS) {
        nameLists.clear();
      }
      known = List.copyOf(names);
      nameLists.put(known, known);
    }
    return known;
  }
}
