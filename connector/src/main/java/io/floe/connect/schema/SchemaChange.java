/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import org.apache.iceberg.UpdateSchema;

/**
 * One change to a table schema that lets it take records of a newer Connect schema. Columns are
 * named by their full Iceberg names in the table's <em>current</em> schema (e.g. {@code
 * customer.addresses.element.zip}), even below a column that a {@link RenameColumn} of the same
 * update renames: {@code UpdateSchema} resolves every name against the schema it started from.
 */
public sealed interface SchemaChange
    permits AddColumn, WidenColumn, MakeOptional, RenameColumn, SetIdentifierFields {
  /** The change in words, for logs, e.g. {@code widen a.b from int to long}. */
  String describe();

  /** Adds this change to {@code update}. */
  void applyTo(UpdateSchema update);
}
