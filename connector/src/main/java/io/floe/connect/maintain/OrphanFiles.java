/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Finds, and where asked deletes, the files under a table's location that nothing of the table
 * references (ARCHITECTURE.md, "Maintenance"): data and delete files of writers that died before
 * their commit, files of a compaction whose commit failed, transport files of a coordinator killed
 * between its commit and their clean-up.
 *
 * <p>A file is an orphan only when all of these hold: it is older than the minimum age (files of a
 * commit in progress, anywhere, are younger; the coordinator raises the age to its control topic's
 * retention plus the commit timeout, so no event that a restarted coordinator could still replay
 * names it); no snapshot, metadata file, manifest list, manifest, statistics file or version hint
 * of the table names it; and no control event the coordinator holds and has not committed names it
 * ({@code inFlight}). Locations are compared by path, without scheme and authority ({@code
 * s3://bucket/t/f} and {@code s3a://bucket/t/f} are one file), so a difference in how a location
 * was spelled keeps a file rather than deleting it.
 */
public final class OrphanFiles {
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  private static final int SAMPLE = 10;
  private static final int DELETE_BATCH = 1000;

  private OrphanFiles() {}

  /** What is done with the orphans found. */
  public enum Mode {
    /** Found, counted and logged; nothing is deleted. */
    DRY_RUN,
    /** Found and deleted. */
    DELETE
  }

  /**
   * Orphan-file removal.
   *
   * @param mode whether orphans are deleted or only reported
   * @param minAgeMs the least age of an orphan (older than any file a commit may still reference)
   * @param interval the least time between two scans of one table (listing a table is costly)
   */
  public record Settings(Mode mode, long minAgeMs, Duration interval) {
    public Settings {
      if (minAgeMs < 0) {
        throw new IllegalArgumentException("minAgeMs must be >= 0: " + minAgeMs);
      }
    }

    /** These settings with the minimum age raised to at least {@code ageMs}. */
    public Settings atLeast(long ageMs) {
      return ageMs <= minAgeMs ? this : new Settings(mode, ageMs, interval);
    }
  }

  /**
   * What one scan found.
   *
   * @param listable whether the table's file IO can list its files (if not, nothing was done)
   * @param filesListed the files under the table's location
   * @param orphans the orphans found
   * @param orphanBytes their size
   * @param deleted the orphans deleted
   * @param sample the first orphans found, for the log
   */
  public record Result(
      boolean listable,
      long filesListed,
      int orphans,
      long orphanBytes,
      int deleted,
      List<String> sample) {
    static final Result NOT_LISTABLE = new Result(false, 0, 0, 0, 0, List.of());
  }

  /**
   * Scans the table's location for orphans, and deletes them in {@link Mode#DELETE}, batch by batch
   * until {@code outOfTime} says the run's time is up.
   *
   * @param nowMs the time the ages are measured at
   * @param inFlight locations that control events the coordinator has not committed yet name
   */
  public static Result clean(
      Table table, Settings settings, long nowMs, Set<String> inFlight, BooleanSupplier outOfTime) {
    FileIO io = table.io();
    if (!(io instanceof SupportsPrefixOperations listing)) {
      return Result.NOT_LISTABLE;
    }
    table.refresh();
    Set<String> kept = referenced(table);
    inFlight.forEach(location -> kept.add(path(location)));
    long cutoff = nowMs - settings.minAgeMs();
    String prefix = table.location().endsWith("/") ? table.location() : table.location() + "/";
    long listed = 0;
    long bytes = 0;
    List<String> orphans = new ArrayList<>();
    for (FileInfo file : listing.listPrefix(prefix)) {
      listed++;
      if (file.createdAtMillis() < cutoff && !kept.contains(path(file.location()))) {
        orphans.add(file.location());
        bytes += file.size();
      }
    }
    int deleted = 0;
    if (settings.mode() == Mode.DELETE) {
      deleted = delete(io, orphans, outOfTime);
    }
    return new Result(
        true,
        listed,
        orphans.size(),
        bytes,
        deleted,
        List.copyOf(orphans.subList(0, Math.min(SAMPLE, orphans.size()))));
  }

  /** Deletes the files a batch at a time while there is time; returns how many it deleted. */
  private static int delete(FileIO io, List<String> files, BooleanSupplier outOfTime) {
    int deleted = 0;
    for (int from = 0; from < files.size() && !outOfTime.getAsBoolean(); from += DELETE_BATCH) {
      List<String> batch = files.subList(from, Math.min(files.size(), from + DELETE_BATCH));
      if (io instanceof SupportsBulkOperations bulk) {
        bulk.deleteFiles(batch);
      } else {
        batch.forEach(io::deleteFile);
      }
      deleted += batch.size();
    }
    return deleted;
  }

  /**
   * The paths of every file the table's metadata names: metadata files (those its metadata log
   * lists too), the version hint, and of every snapshot its manifest list, manifests and their live
   * data and delete files, and the statistics files.
   */
  static Set<String> referenced(Table table) {
    Set<String> paths = new HashSet<>();
    ReachableFileUtil.metadataFileLocations(table, true).forEach(l -> paths.add(path(l)));
    paths.add(path(ReachableFileUtil.versionHintLocation(table)));
    ReachableFileUtil.statisticsFilesLocations(table).forEach(l -> paths.add(path(l)));
    Set<String> manifests = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        paths.add(path(snapshot.manifestListLocation()));
      }
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (manifests.add(manifest.path())) {
          paths.add(path(manifest.path()));
          try (CloseableIterable<String> files =
              ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
            files.forEach(location -> paths.add(path(location)));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return paths;
  }

  /** A location's path: without scheme and authority, single slashes. */
  static String path(String location) {
    String rest = SCHEME.matcher(location).replaceFirst("");
    if (rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      rest = slash < 0 ? "/" : rest.substring(slash);
    }
    return rest.replaceAll("/{2,}", "/");
  }
}
