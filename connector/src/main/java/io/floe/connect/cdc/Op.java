/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

/**
 * The op codes of change records, as their producers spell them (case counts): Debezium's {@code c}
 * (create), {@code r} (snapshot read), {@code u}, {@code d}, {@code t} (truncate) and {@code m}
 * (message), and in flattened records also {@code I}, {@code U} and {@code D} of Iceberg's {@code
 * DebeziumTransform}. Any other code is unknown, never taken for an insert.
 */
enum Op {
  UPSERT,
  DELETE,
  TRUNCATE,
  MESSAGE;

  /** The op of a Debezium envelope's {@code op}, or null if unknown. */
  static Op ofEnvelope(String code) {
    return switch (code) {
      case "c", "r", "u" -> UPSERT;
      case "d" -> DELETE;
      case "t" -> TRUNCATE;
      case "m" -> MESSAGE;
      default -> null;
    };
  }

  /** The op of a flattened record's op field, or null if unknown. */
  static Op ofFlattened(String code) {
    return switch (code) {
      case "I", "U" -> UPSERT;
      case "D" -> DELETE;
      default -> ofEnvelope(code);
    };
  }
}
