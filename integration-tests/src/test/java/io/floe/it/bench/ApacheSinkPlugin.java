/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * The Apache Iceberg sink 1.12.0 plugin folder that the {@code iceberg-sink-1.12} runtime module
 * resolves from Maven Central (system property {@code floe.bench.apache.sink}), copied next to the
 * other plugins.
 */
final class ApacheSinkPlugin {
  private ApacheSinkPlugin() {}

  static void installInto(Path pluginPath) {
    String configured = System.getProperty("floe.bench.apache.sink");
    if (configured == null || !Files.isDirectory(Paths.get(configured, "lib"))) {
      throw new IllegalStateException(
          "The Apache Iceberg sink plugin folder is not built at "
              + configured
              + "; build with -Pbench and integration-tests/runtimes/iceberg-sink-1.12");
    }
    Path target = pluginPath.resolve("apache-iceberg-sink").resolve("lib");
    try (Stream<Path> jars = Files.list(Paths.get(configured, "lib"))) {
      Files.createDirectories(target);
      for (Path jar : (Iterable<Path>) jars::iterator) {
        Files.copy(jar, target.resolve(jar.getFileName()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot install the Apache Iceberg sink plugin", e);
    }
  }
}
