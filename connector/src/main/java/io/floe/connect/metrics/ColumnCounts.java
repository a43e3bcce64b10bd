/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

/**
 * One column's counts in what a commit appended, from its data files' column metrics.
 *
 * @param column the column's full name, dots between the names of nested struct fields
 * @param nulls its nulls, -1 if a file did not count them
 * @param nans its NaNs, -1 if a file did not count them or the column holds no floats
 */
public record ColumnCounts(String column, long nulls, long nans) {}
