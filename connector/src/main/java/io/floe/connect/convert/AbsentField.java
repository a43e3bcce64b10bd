/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.iceberg.types.Type;

/**
 * A record field the table lacks, in the form schema evolution needs: {@code
 * updateSchema.addColumn(parent, name, type, doc)} adds it (as an optional column).
 *
 * @param path where it is, in message notation (e.g. {@code customer.addresses[].zip})
 * @param parent the full Iceberg name of the struct that would hold it, as {@code Schema.findField}
 *     accepts it (e.g. {@code customer.addresses.element}), or null for a top-level column
 * @param name the column name
 * @param type its Iceberg type, with ids counted from 1 ({@code UpdateSchema} assigns new ones)
 * @param doc the column doc, or null
 */
public record AbsentField(String path, String parent, String name, Type type, String doc) {}
