/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.Objects;

/**
 * How a table in upsert mode reads changes from its records; immutable. Not yet configurable: the
 * step that wires upsert mode into the write path adds these keys, and the config returns these
 * options only when {@code iceberg.tables.upsert-mode-enabled=true} (empty otherwise):
 *
 * <ul>
 *   <li>{@code iceberg.tables.upsert-mode-enabled} (default {@code false}): whether there are
 *       options at all;
 *   <li>{@code iceberg.tables.cdc-format}: {@link #format()}, one of {@code auto} (the default),
 *       {@code envelope}, {@code flattened}, {@code keyed};
 *   <li>{@code iceberg.tables.cdc-field}: {@link #opField()}, default {@value #DEFAULT_OP_FIELD};
 *   <li>{@code iceberg.tables.cdc-truncate-enabled}: {@link #truncateEnabled()}, default {@code
 *       false};
 *   <li>{@code iceberg.tables.cdc-unavailable-value-placeholder}: {@link
 *       #unavailableValuePlaceholder()}, default {@value #DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER}.
 * </ul>
 *
 * <p>The key columns are the table's {@code iceberg.table.<table>.id-columns}, given to the {@link
 * ChangeNormalizer} of each table.
 *
 * @param format how records carry their changes
 * @param opField the field of a flattened record that holds its op (a dotted path for a field of a
 *     struct, such as {@code _cdc.op}); it never reaches the table
 * @param truncateEnabled whether a Debezium truncate empties the table; if not, it is a bad record
 * @param unavailableValuePlaceholder the value Debezium sends for a column it did not read (an
 *     unchanged TOASTed column), as its {@code unavailable.value.placeholder} sets it; an image
 *     with it, as a string or as its UTF-8 bytes, is a bad record
 */
public record CdcOptions(
    ChangeFormat format,
    String opField,
    boolean truncateEnabled,
    String unavailableValuePlaceholder) {

  /** The op field of Debezium's {@code ExtractNewRecordState} with {@code add.fields=op}. */
  public static final String DEFAULT_OP_FIELD = "__op";

  /** The field Debezium's {@code ExtractNewRecordState} adds to mark deletes ("true"/"false"). */
  public static final String DELETED_FIELD = "__deleted";

  /** Debezium's default {@code unavailable.value.placeholder}. */
  public static final String DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER = "__debezium_unavailable_value";

  /**
   * Checks the options.
   *
   * @throws IllegalArgumentException if the op field is not a dotted path, is {@value
   *     #DELETED_FIELD}, or the placeholder is empty
   */
  public CdcOptions {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(opField, "opField");
    Objects.requireNonNull(unavailableValuePlaceholder, "unavailableValuePlaceholder");
    FieldPath.of(opField);
    if (opField.equals(DELETED_FIELD)) {
      throw new IllegalArgumentException(
          "the op field cannot be " + DELETED_FIELD + ", which marks deletes on its own");
    }
    if (unavailableValuePlaceholder.isEmpty()) {
      throw new IllegalArgumentException("the unavailable-value placeholder must not be empty");
    }
  }

  /** Debezium's defaults: any format, {@code __op}, no truncates, Debezium's placeholder. */
  public static CdcOptions defaults() {
    return new CdcOptions(
        ChangeFormat.AUTO, DEFAULT_OP_FIELD, false, DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER);
  }

  public CdcOptions withFormat(ChangeFormat format) {
    return new CdcOptions(format, opField, truncateEnabled, unavailableValuePlaceholder);
  }

  public CdcOptions withOpField(String opField) {
    return new CdcOptions(format, opField, truncateEnabled, unavailableValuePlaceholder);
  }

  public CdcOptions withTruncateEnabled(boolean truncateEnabled) {
    return new CdcOptions(format, opField, truncateEnabled, unavailableValuePlaceholder);
  }

  public CdcOptions withUnavailableValuePlaceholder(String placeholder) {
    return new CdcOptions(format, opField, truncateEnabled, placeholder);
  }
}
