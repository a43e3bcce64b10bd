/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The connector configs of {@code config-examples/}, as the Connect REST API takes them. */
public final class ConfigExamples {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ConfigExamples() {}

  public static Path dir() {
    return Paths.get(System.getProperty("floe.config.examples", "../config-examples"));
  }

  /** Every example file, sorted by name. */
  public static List<Path> all() {
    try (Stream<Path> files = Files.list(dir())) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + dir(), e);
    }
  }

  /** One example by file name, e.g. {@code quickstart.json}; a mutable copy. */
  public static Map<String, String> load(String fileName) {
    return load(dir().resolve(fileName));
  }

  public static Map<String, String> load(Path file) {
    try {
      return new LinkedHashMap<>(
          JSON.readValue(file.toFile(), new TypeReference<Map<String, String>>() {}));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read connector config " + file, e);
    }
  }

  /** The quickstart config with its folder and registry URL replaced by the given ones. */
  /** The placeholder bootstrap servers of the examples. */
  public static final String EXAMPLE_BOOTSTRAP_SERVERS = "localhost:9092";

  /** The example, pointed at {@code broker} for its control topic. */
  public static Map<String, String> load(String fileName, KafkaBroker broker) {
    Map<String, String> config = load(fileName);
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    return config;
  }

  public static Map<String, String> quickstart(
      Path workDir, String registryUrl, String bootstrapServers) {
    Map<String, String> config = new LinkedHashMap<>();
    load("quickstart.json")
        .forEach(
            (key, value) ->
                config.put(
                    key,
                    value
                        .replace("/tmp/floe-quickstart", workDir.toAbsolutePath().toString())
                        .replace("http://127.0.0.1:8081", registryUrl)
                        .replace(EXAMPLE_BOOTSTRAP_SERVERS, bootstrapServers)));
    return config;
  }
}
