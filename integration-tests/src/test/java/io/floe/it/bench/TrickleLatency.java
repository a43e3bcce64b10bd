/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Produce-to-visible latency of a trickle run: for every row with an id of at least {@code firstId}
 * (the trickle, not the warm-up), the commit time of the snapshot that added it minus its {@code
 * ts}, which the producer set to the moment of sending.
 */
record TrickleLatency(int rows, long p50Millis, long p99Millis, long maxMillis) {

  static TrickleLatency of(Table table, long firstId) {
    List<Long> latencies = new ArrayList<>();
    Long parent = null;
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    snapshots.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
    for (Snapshot snapshot : snapshots) {
      IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table).select("id", "ts");
      scan =
          parent == null
              ? scan.useSnapshot(snapshot.snapshotId())
              : scan.appendsBetween(parent, snapshot.snapshotId());
      try (CloseableIterable<Record> rows = scan.build()) {
        for (Record row : rows) {
          if ((Long) row.getField("id") >= firstId) {
            OffsetDateTime ts = (OffsetDateTime) row.getField("ts");
            latencies.add(snapshot.timestampMillis() - ts.toInstant().toEpochMilli());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      parent = snapshot.snapshotId();
    }
    Collections.sort(latencies);
    if (latencies.isEmpty()) {
      return new TrickleLatency(0, -1, -1, -1);
    }
    return new TrickleLatency(
        latencies.size(),
        percentile(latencies, 0.50),
        percentile(latencies, 0.99),
        latencies.get(latencies.size() - 1));
  }

  private static long percentile(List<Long> sorted, double p) {
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
