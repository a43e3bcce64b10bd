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
    return forSchema(recordSchema, tableSchema, FormerNames.NONE, options);
  }

  /**
   * A converter for Connect {@code Struct} values of {@code recordSchema}, which also finds a
   * column's field under a name the column had before a rename.
   *
   * @throws ConversionException as {@link #forSchema(Schema, org.apache.iceberg.Schema,
   *     ConvertOptions)}
   */
  public static RecordConverter forSchema(
      Schema recordSchema,
      org.apache.iceberg.Schema tableSchema,
      FormerNames formerNames,
      ConvertOptions options) {
    return StructRecordConverter.compile(recordSchema, tableSchema, formerNames, options);
  }

  /** A converter for schemaless {@code Map} values. */
  public static RecordConverter forSchemaless(
      org.apache.iceberg.Schema tableSchema, ConvertOptions options) {
    return SchemalessRecordConverter.compile(tableSchema, options);
  }

  /** The factory that compiles with {@code options}: schemaless when the record schema is null. */
  public static ConverterFactory factory(ConvertOptions options) {
    return factory(options, tableSchema -> FormerNames.NONE);
  }

  /**
   * The factory that compiles with {@code options} and the former names {@code history} gives for
   * the table schema compiled against.
   */
  public static ConverterFactory factory(
      ConvertOptions options,
      java.util.function.Function<org.apache.iceberg.Schema, FormerNames> history) {
    return (recordSchema, tableSchema) ->
        recordSchema == null
            ? forSchemaless(tableSchema, options)
            : forSchema(recordSchema, tableSchema, history.apply(tableSchema), options);
  }
}
