/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.List;
import org.apache.iceberg.data.Record;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** Converts Connect {@code Struct} values of one record schema with a compiled plan. */
final class StructRecordConverter implements RecordConverter {
  private final Schema recordSchema;
  private final org.apache.iceberg.Schema tableSchema;
  private final StructPlan plan;
  private final ConvertOptions options;
  private volatile List<AbsentField> absent;

  private StructRecordConverter(
      Schema recordSchema,
      org.apache.iceberg.Schema tableSchema,
      StructPlan plan,
      ConvertOptions options,
      List<AbsentField> absent) {
    this.recordSchema = recordSchema;
    this.tableSchema = tableSchema;
    this.plan = plan;
    this.options = options;
    this.absent = absent;
  }

  static StructRecordConverter compile(
      Schema recordSchema,
      org.apache.iceberg.Schema tableSchema,
      FormerNames formerNames,
      ConvertOptions options) {
    if (recordSchema.type() != Schema.Type.STRUCT) {
      throw new ConversionException(
          ConversionException.ROOT,
          "struct",
          Paths.describe(recordSchema),
          "a table row needs a Connect STRUCT record schema");
    }
    StructPlan plan =
        new PlanCompiler(options, formerNames).struct(recordSchema, tableSchema.asStruct(), "", 0);
    return new StructRecordConverter(recordSchema, tableSchema, plan, options, null);
  }

  /** The same plan for a record schema equal to this one's (a different object). */
  StructRecordConverter rebind(Schema equalSchema) {
    return new StructRecordConverter(equalSchema, tableSchema, plan, options, absent);
  }

  @Override
  public Record convert(Object value) {
    if (!(value instanceof Struct struct)) {
      throw new ConversionException(
          ConversionException.ROOT,
          "Struct",
          value == null ? "null (a tombstone?)" : value.getClass().getTypeName(),
          "a record with a schema needs a Struct value");
    }
    Schema schema = struct.schema();
    if (schema != recordSchema && !schema.equals(recordSchema)) {
      throw new ConversionException(
          ConversionException.ROOT,
          "a Struct of the record's value schema",
          Paths.describe(schema),
          "the value's schema differs from the record's value schema");
    }
    return plan.convertStruct(struct);
  }

  @Override
  public List<AbsentField> absentFromTable(Object value) {
    return absentFromTable();
  }

  /** The record schema's fields that the table lacks, computed once. */
  List<AbsentField> absentFromTable() {
    List<AbsentField> result = absent;
    if (result == null) {
      result = AbsentFields.of(recordSchema, tableSchema.asStruct(), options);
      absent = result;
    }
    return result;
  }

  @Override
  public org.apache.iceberg.Schema tableSchema() {
    return tableSchema;
  }
}
