/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A compiled Connect STRUCT to Iceberg struct conversion. Position {@code i} of every array is
 * table field {@code i}: its Connect field (resolved by name at compile time, null if the record
 * schema lacks it) and its converter. Per record it copies an empty row and reads fields by index.
 *
 * <p>Values are read with {@link Struct#get(Field)}, so a null field with a schema default gets the
 * default, as everywhere in Connect. Connect validates that a nested Struct's schema equals its
 * field's schema, so the compiled indexes fit every nested value.
 */
final class StructPlan implements ValueConverter {
  private final GenericRecord template;
  private final Field[] sources;
  private final ValueConverter[] converters;
  private final boolean[] required;
  private final Site[] sites;
  private final Site self;

  StructPlan(
      GenericRecord template,
      Field[] sources,
      ValueConverter[] converters,
      boolean[] required,
      Site[] sites,
      Site self) {
    this.template = template;
    this.sources = sources;
    this.converters = converters;
    this.required = required;
    this.sites = sites;
    this.self = self;
  }

  @Override
  public Object convert(Object value) {
    if (value instanceof Struct struct) {
      return convertStruct(struct);
    }
    throw self.fail(value, "not a Struct");
  }

  Record convertStruct(Struct struct) {
    GenericRecord row = template.copy();
    for (int i = 0; i < sources.length; i++) {
      Field source = sources[i];
      Object value = source == null ? null : struct.get(source);
      if (value == null) {
        if (required[i]) {
          throw sites[i].fail(
              null,
              source == null
                  ? "the column is required and the record schema has no such field"
                  : "the column is required");
        }
      } else {
        row.set(i, converters[i].convert(value));
      }
    }
    return row;
  }
}
