/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.Map;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;

/**
 * A compiled conversion of schemaless {@code Map} values (JsonConverter with {@code
 * schemas.enable=false}) into an Iceberg struct. Each table field's name and converter are fixed at
 * compile time; per record there is one map lookup per table field. Keys the table lacks are
 * ignored here (see {@link RecordConverter#absentFromTable(Object)}).
 */
final class MapStructPlan implements ValueConverter {
  private final GenericRecord template;
  private final String[] names;
  private final ValueConverter[] converters;
  private final boolean[] required;
  private final Site[] sites;
  private final Site self;
  private final boolean caseInsensitive;

  MapStructPlan(
      GenericRecord template,
      String[] names,
      ValueConverter[] converters,
      boolean[] required,
      Site[] sites,
      Site self,
      boolean caseInsensitive) {
    this.template = template;
    this.names = names;
    this.converters = converters;
    this.required = required;
    this.sites = sites;
    this.self = self;
    this.caseInsensitive = caseInsensitive;
  }

  @Override
  public Object convert(Object value) {
    if (value instanceof Map<?, ?> map) {
      return convertMap(map);
    }
    throw self.fail(value, "not a Map");
  }

  Record convertMap(Map<?, ?> map) {
    GenericRecord row = template.copy();
    for (int i = 0; i < names.length; i++) {
      Object value = FieldMatch.value(map, names[i], caseInsensitive);
      if (value == null) {
        if (required[i]) {
          throw sites[i].fail(null, "the column is required");
        }
      } else {
        row.set(i, converters[i].convert(value));
      }
    }
    return row;
  }
}
