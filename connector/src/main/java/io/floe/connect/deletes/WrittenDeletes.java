/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;

/**
 * The delete files written for located rows, not committed yet.
 *
 * @param added the new delete files: one deletion vector per data file (v3), or position delete
 *     files (v2)
 * @param rewritten the delete files the new ones replace (a data file's previous deletion vector,
 *     or its file-scoped position deletes): a commit adding {@code added} must remove these
 * @param referencedDataFiles the locations of the data files the new deletes point at, which must
 *     still exist when they are committed
 * @param rowsDeleted the rows newly deleted
 */
public record WrittenDeletes(
    List<DeleteFile> added,
    List<DeleteFile> rewritten,
    Set<String> referencedDataFiles,
    long rowsDeleted) {

  public WrittenDeletes {
    added = List.copyOf(added);
    rewritten = List.copyOf(rewritten);
    referencedDataFiles = Set.copyOf(referencedDataFiles);
  }

  static WrittenDeletes none() {
    return new WrittenDeletes(List.of(), List.of(), Set.of(), 0);
  }

  public boolean isEmpty() {
    return added.isEmpty();
  }

  /** The files written, each once: the deletion vectors of one write share a Puffin file. */
  public Set<String> fileLocations() {
    Set<String> locations = new LinkedHashSet<>();
    added.forEach(file -> locations.add(file.location()));
    return locations;
  }
}
