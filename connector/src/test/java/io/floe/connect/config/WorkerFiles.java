/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Connect workers as Floe finds them: started from a worker properties file. */
public final class WorkerFiles {
  private WorkerFiles() {}

  /** A distributed worker started with {@code properties}, written to a file in {@code dir}. */
  public static WorkerKafka distributedWorker(Path dir, String properties) throws IOException {
    Path file = Files.writeString(dir.resolve("worker.properties"), properties);
    return new WorkerKafka(
        Map.of("sun.java.command", "org.apache.kafka.connect.cli.ConnectDistributed " + file)::get,
        key -> null);
  }
}
