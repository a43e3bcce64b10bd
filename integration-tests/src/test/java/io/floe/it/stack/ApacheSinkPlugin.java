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
import java.util.stream.Stream;

/**
 * The Apache Iceberg sink 1.12.0 plugin folder that the {@code iceberg-sink-1.12} runtime module
 * resolves from Maven Central (system property {@code floe.apache.sink}), copied next to the other
 * plugins of a worker's {@code plugin.path}: the benchmark compares Floe with it, and the migration
 * test moves a connector from it to Floe. Its task fails on Connect 4.4 workers (it calls Kafka's
 * {@code AppInfoParser}, which 4.4 moved), so it runs on Kafka 4.3 ones.
 */
public final class ApacheSinkPlugin {
  /** The Apache sink's connector class. */
  public static final String CONNECTOR_CLASS = "org.apache.iceberg.connect.IcebergSinkConnector";

  private ApacheSinkPlugin() {}

  /** Copies the plugin's jars into {@code apache-iceberg-sink/lib} under {@code pluginPath}. */
  public static void installInto(Path pluginPath) {
    String configured = System.getProperty("floe.apache.sink");
    if (configured == null || !Files.isDirectory(Paths.get(configured, "lib"))) {
      throw new IllegalStateException(
          "The Apache Iceberg sink plugin folder is not built at "
              + configured
              + "; build the module integration-tests/runtimes/iceberg-sink-1.12 first, e.g. 'mvn"
              + " verify -pl integration-tests -am'");
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
