/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.kafka.connect.data.Schema;

/** Builds a {@link RecordConverter}; the seam through which {@link ConverterCache} compiles. */
@FunctionalInterface
public interface ConverterFactory {
  /**
   * Compiles a converter.
   *
   * @param recordSchema the record's value schema, or null for schemaless values
   * @param tableSchema the table schema
   */
  RecordConverter create(Schema recordSchema, org.apache.iceberg.Schema tableSchema);
}
