/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import org.apache.iceberg.Table;

/**
 * A table's finished files of one hand-over, with the table they were written for.
 *
 * @param tableName the table's name as routing gave it
 * @param table the table as the writer last saw it (for its FileIO, specs and format version)
 * @param files the finished files and the source offsets they cover
 */
public record TableFiles(String tableName, Table table, WrittenFiles files) {}
