/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.kafka.connect.data.Schema;

/** Compiles {@link RecordConverter}s. */
public final class RecordConverters {
  private RecordConverters() {}

  /**
   * A converter for Connect {@code Struct} values of {@code recordSchema}.
   *
   * @throws ConversionException if the record schema is not a struct, is too deep, or uses a
   *     logical type on the wrong physical type
   */
  public static RecordConverter forSchema(
      Schema recordSchema, org.apache.iceberg.Schema tableSchema, ConvertOptions options) {
    return StructRecordConverter.compile(recordSchema, tableSchema, options);
  }

  /** A converter for schemaless {@code Map} values. */
  public static RecordConverter forSchemaless(
      org.apache.iceberg.Schema tableSchema, ConvertOptions options) {
    return SchemalessRecordConverter.compile(tableSchema, options);
  }

  /** The factory that compiles with {@code options}: schemaless when the record schema is null. */
  public static ConverterFactory factory(ConvertOptions options) {
    return (recordSchema, tableSchema) ->
        recordSchema == null
            ? forSchemaless(tableSchema, options)
            : forSchema(recordSchema, tableSchema, options);
  }
}
