/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where the stack keeps its files: every service gets a fresh folder under {@code
 * target/it-work/<name>-<n>}, holding its data and its log, so a failed run can be read afterwards.
 */
public final class StackDirs {
  private StackDirs() {}

  /** The root folder, from the {@code floe.it.work} system property (set by failsafe). */
  public static Path root() {
    String configured = System.getProperty("floe.it.work");
    Path root =
        configured != null
            ? Paths.get(configured)
            : Paths.get("target", "it-work").toAbsolutePath();
    try {
      return Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + root, e);
    }
  }

  /** A new, empty folder for one service instance, e.g. {@code target/it-work/kafka-3}. */
  public static Path newServiceDir(String name) {
    Path root = root();
    for (int n = 1; ; n++) {
      Path dir = root.resolve(name + "-" + n);
      try {
        return Files.createDirectory(dir);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // taken by an earlier instance: try the next number
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + dir, e);
      }
    }
  }

  /**
   * {@code target/lib} of the test runtime module {@code integration-tests/runtimes/<module>} (the
   * {@code floe.kafka.runtimes} system property names that folder), which a child JVM takes as its
   * class path.
   *
   * @param what what the module holds, for the message when it is not built
   */
  public static Path runtimeLib(String module, String what) {
    String root = System.getProperty("floe.kafka.runtimes", "runtimes");
    Path lib = Paths.get(root, module, "target", "lib").toAbsolutePath();
    if (!Files.isDirectory(lib)) {
      throw new IllegalStateException(
          what + " not built at " + lib + "; run 'mvn package' from the repository root first");
    }
    return lib;
  }
}
