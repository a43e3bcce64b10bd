/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Logging configuration files for child JVMs, written into their service folder. */
final class Logging {
  private Logging() {}

  /** JVM options that make a child of {@code runtime} log at INFO to its standard output. */
  static List<String> jvmOptions(KafkaRuntime runtime, Path dir) {
    try {
      if (runtime.usesLog4j2()) {
        Path file = dir.resolve("log4j2.properties");
        Files.writeString(
            file,
            String.join(
                "\n",
                "status = warn",
                "appender.out.type = Console",
                "appender.out.name = out",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = [%d] %p %m (%c)%n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = out",
                "logger.floe.name = io.floe",
                "logger.floe.level = DEBUG",
                "logger.reflections.name = org.reflections",
                "logger.reflections.level = ERROR",
                ""));
        return List.of("-Dlog4j2.configurationFile=" + file.toUri());
      }
      Path file = dir.resolve("log4j.properties");
      Files.writeString(
          file,
          String.join(
              "\n",
              "log4j.rootLogger=INFO, out",
              "log4j.appender.out=org.apache.log4j.ConsoleAppender",
              "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
              "log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n",
              "log4j.logger.io.floe=DEBUG",
              "log4j.logger.org.reflections=ERROR",
              ""));
      return List.of("-Dlog4j.configuration=" + file.toUri());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write logging configuration in " + dir, e);
    }
  }
}
