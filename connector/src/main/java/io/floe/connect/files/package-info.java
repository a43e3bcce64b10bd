/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * How Floe creates files in a table's storage: through {@link io.floe.connect.files.NewFilesOnly},
 * which creates a file and never replaces one, so a file another writer (or a committed snapshot)
 * holds can never be overwritten.
 */
package io.floe.connect.files;
