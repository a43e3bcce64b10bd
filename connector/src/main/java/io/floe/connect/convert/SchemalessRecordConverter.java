/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;

/** Converts schemaless {@code Map} values with table-side converters compiled once. */
final class SchemalessRecordConverter implements RecordConverter {
  private final org.apache.iceberg.Schema tableSchema;
  private final MapStructPlan plan;
  private final ConvertOptions options;

  private SchemalessRecordConverter(
      org.apache.iceberg.Schema tableSchema, MapStructPlan plan, ConvertOptions options) {
    this.tableSchema = tableSchema;
    this.plan = plan;
    this.options = options;
  }

  static SchemalessRecordConverter compile(
      org.apache.iceberg.Schema tableSchema, ConvertOptions options) {
    MapStructPlan plan = new SchemalessCompiler(options).struct(tableSchema.asStruct(), "", 0);
    return new SchemalessRecordConverter(tableSchema, plan, options);
  }

  @Override
  public Record convert(Object value) {
    return plan.convertMap(asMap(value));
  }

  @Override
  public List<AbsentField> absentFromTable(Object value) {
    return SchemalessDiff.of(asMap(value), tableSchema.asStruct(), options);
  }

  private static Map<?, ?> asMap(Object value) {
    if (value instanceof Map<?, ?> map) {
      return map;
    }
    throw new ConversionException(
        ConversionException.ROOT,
        "Map",
        value == null ? "null (a tombstone?)" : value.getClass().getTypeName(),
        "a record without a schema needs a Map value");
  }

  @Override
  public org.apache.iceberg.Schema tableSchema() {
    return tableSchema;
  }
}
