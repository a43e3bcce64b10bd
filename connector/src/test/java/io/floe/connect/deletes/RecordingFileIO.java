/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * Iceberg's in-memory FileIO, remembering every file it was asked to create, so that tests can
 * check what became of the files of failed attempts. Public for the catalog's {@code io-impl}.
 */
public class RecordingFileIO extends InMemoryFileIO {
  private static final Set<String> CREATED = ConcurrentHashMap.newKeySet();

  @Override
  public OutputFile newOutputFile(String path) {
    CREATED.add(path);
    return super.newOutputFile(path);
  }

  /** The files ever created under {@code location} whose names contain {@code part}. */
  static Set<String> created(String location, String part) {
    Set<String> found = new java.util.TreeSet<>();
    CREATED.forEach(
        path -> {
          if (path.startsWith(location + "/") && path.contains(part)) {
            found.add(path);
          }
        });
    return found;
  }
}
