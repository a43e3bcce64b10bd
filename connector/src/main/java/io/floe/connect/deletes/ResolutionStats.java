/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.time.Duration;

/**
 * What resolving retired keys at a snapshot cost and found: how well the pruned scan prunes
 * (clustered keys read few files, random keys nearly all of them).
 *
 * @param dataFilesInSnapshot the snapshot's data files, from its summary; -1 when it does not say
 * @param filesPlanned the data files Iceberg's planning kept: partitions and column bounds may hold
 *     a retired key
 * @param filesRead the planned files whose bounds held an actual key, read for their key columns
 * @param rowsRead the live rows read from them (rows deleted before are not counted)
 * @param keysMatched the retired keys found in at least one live row
 * @param rowsMatched the live rows found: more than {@code keysMatched} when a key has duplicates
 * @param elapsed the time the resolution took
 */
public record ResolutionStats(
    long dataFilesInSnapshot,
    long filesPlanned,
    long filesRead,
    long rowsRead,
    long keysMatched,
    long rowsMatched,
    Duration elapsed) {

  /** Nothing resolved: no keys, or no snapshot to resolve them in. */
  static ResolutionStats none(long dataFilesInSnapshot) {
    return new ResolutionStats(dataFilesInSnapshot, 0, 0, 0, 0, 0, Duration.ZERO);
  }
}
