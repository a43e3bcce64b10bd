/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

/** How the records of a table carry their changes. */
public enum ChangeFormat {
  /**
   * Decided per record: a Debezium envelope, a flattened record when it has the op field or {@code
   * __deleted}, else a plain keyed record.
   */
  AUTO,
  /** Debezium's envelope: {@code op}, {@code before}, {@code after}, {@code source}. */
  ENVELOPE,
  /**
   * A row image as Debezium's {@code ExtractNewRecordState} (or Iceberg's {@code
   * DebeziumTransform}) leaves it, with the op field and/or {@code __deleted}; a record with
   * neither is an upsert.
   */
  FLATTENED,
  /** Every record is an upsert of its key; a tombstone deletes the key. */
  KEYED
}
