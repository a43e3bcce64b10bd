/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A stock Kafka distribution (broker, Connect worker, tools) the tests can start, one per supported
 * Connect line. Its jars are copied by the {@code integration-tests/runtimes/kafka-*} modules.
 */
public enum KafkaRuntime {
  KAFKA_3_9("3.9", false),
  KAFKA_4_3("4.3", true),
  KAFKA_4_4("4.4", true);

  /** The runtime the broker and single-version tests use. */
  public static final KafkaRuntime DEFAULT = KAFKA_4_4;

  private final String line;
  private final boolean log4j2;

  KafkaRuntime(String line, boolean log4j2) {
    this.line = line;
    this.log4j2 = log4j2;
  }

  public String line() {
    return line;
  }

  /** Kafka 4 logs through log4j 2; Kafka 3.9 through reload4j (log4j 1 configuration). */
  public boolean usesLog4j2() {
    return log4j2;
  }

  /** The folder holding the distribution's jars. */
  public Path libDir() {
    String root = System.getProperty("floe.kafka.runtimes", "runtimes");
    Path lib = Paths.get(root, "kafka-" + line, "target", "lib").toAbsolutePath();
    if (!Files.isDirectory(lib)) {
      throw new IllegalStateException(
          "Kafka "
              + line
              + " runtime not built at "
              + lib
              + "; run 'mvn package' from the repository root first");
    }
    return lib;
  }

  @Override
  public String toString() {
    return "Kafka " + line;
  }
}
