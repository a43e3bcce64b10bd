/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.config.Secrets;
import java.util.List;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes abandoned data files, best effort: they were never handed over, so a file left behind is
 * an orphan for table maintenance to remove, never lost or duplicated data. A failure is logged
 * with the connector's secrets masked: an object store's error may quote a signed URL or a key.
 */
final class OrphanFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFiles.class);

  private OrphanFiles() {}

  static void delete(FileIO io, List<String> locations, Secrets secrets) {
    if (locations.isEmpty()) {
      return;
    }
    if (io instanceof SupportsBulkOperations bulk) {
      try {
        bulk.deleteFiles(locations);
        return;
      } catch (BulkDeletionFailureException e) {
        LOG.warn(
            "Could not delete {} of {} abandoned data files; they are orphans now: {}",
            e.numberFailedObjects(),
            locations.size(),
            secrets.describe(e));
        return;
      } catch (RuntimeException e) {
        LOG.warn(
            "Bulk delete of abandoned data files failed; deleting one by one: {}",
            secrets.describe(e));
      }
    }
    for (String location : locations) {
      try {
        io.deleteFile(location);
      } catch (RuntimeException e) {
        LOG.warn(
            "Could not delete abandoned data file {}; it is an orphan now: {}",
            location,
            secrets.describe(e));
      }
    }
  }
}
