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

  /** The placeholder bootstrap servers of the examples. */
  public static final String EXAMPLE_BOOTSTRAP_SERVERS = "localhost:9092";

  /** The example, pointed at {@code broker} for its control topic. */
  public static Map<String, String> load(String fileName, KafkaBroker broker) {
    Map<String, String> config = load(fileName);
    config.put("iceberg.kafka.bootstrap.servers", broker.bootstrapServers());
    return config;
  }

  /**
   * The example pointed at this stack: its control topic on {@code broker} and its {@code
   * iceberg.catalog.*} keys replaced by {@code catalog} (catalog properties without the prefix).
   */
  public static Map<String, String> forStack(
      String fileName, KafkaBroker broker, Map<String, String> catalog) {
    Map<String, String> config = load(fileName, broker);
    config.keySet().removeIf(key -> key.startsWith("iceberg.catalog."));
    catalog.forEach((key, value) -> config.put("iceberg.catalog." + key, value));
    return config;
  }

  /**
   * {@code dead-letter-queue.json} for one test: one task reading {@code topic} into {@code table},
   * schemaless JSON values with string keys, dead letters to {@code <topic>-dlq} with one replica.
   * Without a {@code name}: the connector is named where it is created.
   */
  public static Map<String, String> deadLetterQueue(
      KafkaBroker broker, Map<String, String> catalog, String topic, String table) {
    Map<String, String> config = forStack("dead-letter-queue.json", broker, catalog);
    config.remove("name");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("iceberg.tables", table);
    config.put("errors.deadletterqueue.topic.name", topic + "-dlq");
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    return config;
  }

  /**
   * {@code config} with the Kafka metadata column {@code _kafka} and a commit every 2 s (timeout
   * 1.5 s), as most end-to-end tests run.
   */
  public static Map<String, String> withMetadataAndQuickCommits(Map<String, String> config) {
    config.put("iceberg.tables.kafka-metadata-column", "_kafka");
    config.put("iceberg.control.commit.interval-ms", "2000");
    config.put("iceberg.control.commit.timeout-ms", "1500");
    return config;
  }

  /** The quickstart config with its folder and registry URL replaced by the given ones. */
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
