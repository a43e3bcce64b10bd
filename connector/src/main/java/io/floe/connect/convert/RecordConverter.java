/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.List;
import org.apache.iceberg.data.Record;

/**
 * Converts record values into rows of one table schema. Built once per (record schema, table
 * schema) pair by {@link RecordConverters} and cached by {@link ConverterCache}; immutable, and
 * holds no per-record state.
 *
 * <p>Table columns the record lacks are written as null (a required one is an error); record fields
 * the table lacks are ignored here and listed by {@link #absentFromTable(Object)}, for schema
 * evolution.
 */
public interface RecordConverter {
  /**
   * The row for {@code value}: a {@code Struct} for a schema-driven converter, a {@code Map} for a
   * schemaless one.
   *
   * @throws ConversionException if the value does not fit the table; the message names the field
   *     path and types, never the value
   */
  Record convert(Object value);

  /**
   * The record's fields that the table lacks, outermost first per subtree. A schema-driven
   * converter computes this from the record schema once and ignores {@code value}; a schemaless one
   * inspects {@code value}.
   */
  List<AbsentField> absentFromTable(Object value);

  /** The table schema the rows are built for. */
  org.apache.iceberg.Schema tableSchema();
}
