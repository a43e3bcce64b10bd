/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/** One-column records and tables for the conversion tests. */
final class Fixtures {
  static final String FIELD = "f";

  private Fixtures() {}

  /** A table with one optional column {@code f} of {@code type}. */
  static org.apache.iceberg.Schema table(Type type) {
    return new org.apache.iceberg.Schema(Types.NestedField.optional(1, FIELD, type));
  }

  /** A record schema with one field {@code f}. */
  static Schema record(Schema field) {
    return SchemaBuilder.struct().field(FIELD, field).build();
  }

  /**
   * Converts a one-field Struct holding {@code value} into a one-column table; returns the value.
   */
  static Object convert(Schema field, Object value, Type target, ConvertOptions options) {
    Schema schema = record(field);
    Struct struct = new Struct(schema).put(FIELD, value);
    Record row = RecordConverters.forSchema(schema, table(target), options).convert(struct);
    return row.get(0);
  }

  /** Converts the schemaless map {@code {f: value}} into a one-column table; returns the value. */
  static Object convertSchemaless(Object value, Type target, ConvertOptions options) {
    Map<String, Object> map = new java.util.HashMap<>();
    map.put(FIELD, value);
    Record row = RecordConverters.forSchemaless(table(target), options).convert(map);
    return row.get(0);
  }
}
