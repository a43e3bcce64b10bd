/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Heap structures for what a cycle holds by the million (changed keys, retired keys): bytes in
 * pages rather than objects or one growing array.
 */
package io.floe.connect.memory;
