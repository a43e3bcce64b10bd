/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The connector configs of {@code config-examples/}, as the Connect REST API takes them: the JSON
 * files as they are, and the Strimzi {@code KafkaConnector} resources (YAML) as the operator hands
 * them to Connect.
 */
public final class ConfigExamples {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STRIMZI_API_VERSION = "kafka.strimzi.io/v1beta2";

  private ConfigExamples() {}

  public static Path dir() {
    return Paths.get(System.getProperty("floe.config.examples", "../config-examples"));
  }

  /** Every example file, JSON and YAML, sorted by name. */
  public static List<Path> all() {
    try (Stream<Path> files = Files.list(dir())) {
      return files.filter(f -> f.toString().endsWith(".json") || isYaml(f)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + dir(), e);
    }
  }

  private static boolean isYaml(Path file) {
    String name = file.toString();
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  /** One example by file name, e.g. {@code quickstart.json}; a mutable copy. */
  public static Map<String, String> load(String fileName) {
    return load(dir().resolve(fileName));
  }

  public static Map<String, String> load(Path file) {
    if (isYaml(file)) {
      return fromKafkaConnector(file);
    }
    try {
      return new LinkedHashMap<>(
          JSON.readValue(file.toFile(), new TypeReference<Map<String, String>>() {}));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read connector config " + file, e);
    }
  }

  /**
   * A Strimzi {@code KafkaConnector} resource as the REST config the operator gives Connect: {@code
   * metadata.name} as {@code name}, {@code spec.class} as {@code connector.class}, {@code
   * spec.tasksMax} as {@code tasks.max}, and every {@code spec.config} entry, its value as a
   * string. Config provider references ({@code ${secrets:...}}, {@code ${env:...}}) are kept, as
   * they are in the JSON examples: the workers resolve them.
   */
  private static Map<String, String> fromKafkaConnector(Path file) {
    Map<String, Object> resource;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      resource = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read connector resource " + file, e);
    }
    require(file, STRIMZI_API_VERSION.equals(resource.get("apiVersion")), "apiVersion");
    require(file, "KafkaConnector".equals(resource.get("kind")), "kind");
    Map<String, Object> metadata = section(file, resource, "metadata");
    Map<String, Object> spec = section(file, resource, "spec");
    Map<String, String> config = new LinkedHashMap<>();
    config.put("name", scalar(file, "metadata.name", metadata.get("name")));
    config.put("connector.class", scalar(file, "spec.class", spec.get("class")));
    if (spec.containsKey("tasksMax")) {
      config.put("tasks.max", scalar(file, "spec.tasksMax", spec.get("tasksMax")));
    }
    section(file, spec, "config")
        .forEach((key, value) -> config.put(key, scalar(file, "spec.config." + key, value)));
    return config;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> section(Path file, Map<String, Object> parent, String key) {
    Object value = parent.get(key);
    require(file, value instanceof Map, key);
    return (Map<String, Object>) value;
  }

  private static String scalar(Path file, String path, Object value) {
    require(
        file,
        value instanceof String || value instanceof Number || value instanceof Boolean,
        path + " (a string, number or boolean)");
    return String.valueOf(value);
  }

  private static void require(Path file, boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException(
          file + " is not a " + STRIMZI_API_VERSION + " KafkaConnector: check its " + what);
    }
  }

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

  /**
   * The quickstart config with its folder and registry URL replaced by the given ones. Its control
   * clients use the worker's own Kafka cluster, as the example leaves their bootstrap servers out.
   */
  public static Map<String, String> quickstart(Path workDir, String registryUrl) {
    Map<String, String> config = new LinkedHashMap<>();
    load("quickstart.json")
        .forEach(
            (key, value) ->
                config.put(
                    key,
                    value
                        .replace("/tmp/floe-quickstart", workDir.toAbsolutePath().toString())
                        .replace("http://127.0.0.1:8081", registryUrl)));
    return config;
  }
}
