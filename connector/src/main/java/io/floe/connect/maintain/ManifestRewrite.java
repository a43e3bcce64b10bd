/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.RewriteManifests;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Rewrites a table's data manifests into fewer, once there are more than a threshold of them. Each
 * of the connector's commits appends the manifests the tasks wrote as they are (one per task and
 * table), so without this a table committed every 10 s by four tasks gains some 1,400 manifests an
 * hour, and every scan reads them all. The commit carries the connector's marks ({@link Marks}) and
 * gives way to any conflicting commit.
 */
public final class ManifestRewrite {
  private ManifestRewrite() {}

  /**
   * What one run did.
   *
   * @param before the data manifests of the snapshot it read
   * @param after the data manifests after it, {@code before} when it did nothing
   */
  public record Result(int before, int after) {
    public boolean rewrote() {
      return after != before;
    }
  }

  /**
   * Rewrites the table's data manifests if it has more than {@code threshold}.
   *
   * @param threads the threads that read manifests
   */
  public static Result rewriteIfMany(
      Table table, int threshold, Marks marks, ExecutorService threads) {
    table.refresh();
    Snapshot start = table.currentSnapshot();
    if (start == null) {
      return new Result(0, 0);
    }
    int before = start.dataManifests(table.io()).size();
    if (before <= threshold) {
      return new Result(before, before);
    }
    // one cluster per partition spec: its entries go into manifests of the target size
    RewriteManifests rewrite =
        table
            .rewriteManifests()
            .rewriteIf(manifest -> true)
            .clusterBy(file -> Integer.toString(file.specId()))
            .scanManifestsWith(threads);
    marks.carry(rewrite, table, start);
    try {
      rewrite.commit();
    } catch (ValidationException | CommitFailedException e) {
      return new Result(before, before); // planned again at the next run
    }
    table.refresh();
    List<ManifestFile> after = table.currentSnapshot().dataManifests(table.io());
    return new Result(before, after.size());
  }
}
