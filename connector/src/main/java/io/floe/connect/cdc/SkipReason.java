/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import org.apache.kafka.connect.data.Schema;

/** Why a record changes no row. Each reason is counted on its own. */
public enum SkipReason {
  /** A Debezium logical-decoding message ({@code op = m}). */
  MESSAGE,
  /** A Debezium schema-change event (value schema {@code *.SchemaChangeValue}). */
  SCHEMA_CHANGE,
  /** A Debezium heartbeat. */
  HEARTBEAT,
  /** A Debezium transaction boundary (BEGIN or END). */
  TRANSACTION_METADATA;

  /** The reason to skip a record with this value schema, or null if its schema says nothing. */
  static SkipReason ofSchema(Schema schema) {
    String name = schema == null ? null : schema.name();
    if (name == null) {
      return null;
    }
    if (name.endsWith(".SchemaChangeValue")) {
      return SCHEMA_CHANGE;
    }
    if (name.equals("io.debezium.connector.common.Heartbeat")) {
      return HEARTBEAT;
    }
    if (name.equals("io.debezium.connector.common.TransactionMetadataValue")) {
      return TRANSACTION_METADATA;
    }
    return null;
  }
}
