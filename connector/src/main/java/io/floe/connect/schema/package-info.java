/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The schema room: what a table needs to take records of a newer Connect schema, and applying it.
 *
 * <p>{@link io.floe.connect.schema.SchemaDiff} compares a record schema with a table schema and
 * lists {@link io.floe.connect.schema.SchemaChange}s (new optional columns at any depth, safe
 * widenings, required to optional, renames by Avro alias), or throws {@link
 * io.floe.connect.schema.IncompatibleSchemaException}. {@link io.floe.connect.schema.SchemaEvolver}
 * applies them in one {@code UpdateSchema} commit, computing them again on the fresh schema when
 * another task changed the table meanwhile.
 *
 * <p>All column names in changes are names in the table's current schema: {@code UpdateSchema}
 * resolves names against the schema it started from, also below a column it renames.
 */
package io.floe.connect.schema;
