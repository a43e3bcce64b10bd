/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The programs of the machine a test runs (moto, npm, Azurite), found on the PATH and stopped. */
final class Executables {
  private Executables() {}

  /** The executable {@code name} in a folder of the {@code PATH}, if any. */
  static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      Path candidate = Path.of(entry, name);
      if (!entry.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Stops {@code process}: SIGTERM, then SIGKILL if it has not ended 10 s later. */
  static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
