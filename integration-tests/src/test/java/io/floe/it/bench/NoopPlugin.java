/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.kafka.connect.sink.SinkConnector;

/** Packs {@link NoopSinkConnector} into a plugin jar of its own, with its service file. */
final class NoopPlugin {
  private NoopPlugin() {}

  /** Writes {@code <pluginPath>/noop-sink/noop-sink.jar}. */
  static void installInto(Path pluginPath) {
    Path jar = pluginPath.resolve("noop-sink").resolve("noop-sink.jar");
    try {
      Files.createDirectories(jar.getParent());
      try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
        for (Class<?> type : List.of(NoopSinkConnector.class, NoopSinkTask.class)) {
          String name = type.getName().replace('.', '/') + ".class";
          out.putNextEntry(new JarEntry(name));
          try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
            in.transferTo(out);
          }
          out.closeEntry();
        }
        out.putNextEntry(new JarEntry("META-INF/services/" + SinkConnector.class.getName()));
        out.write((NoopSinkConnector.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + jar, e);
    }
  }
}
