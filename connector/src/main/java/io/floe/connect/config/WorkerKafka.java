/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What Floe can learn of the Connect worker it runs in: its config providers, and its Kafka client
 * settings, for the control-topic clients when {@code iceberg.kafka.bootstrap.servers} is not set:
 * the control topic and the offset commits belong on the cluster that holds the connector's
 * consumer group, which is the worker's own.
 *
 * <p>Connect does not show a plugin its worker's settings, so they are looked for where workers are
 * started from, in this order:
 *
 * <ol>
 *   <li>the worker properties file named on the JVM's command line after Connect's main class
 *       ({@code connect-distributed.sh worker.properties}; the JVM's {@code sun.java.command}
 *       property holds that line), as the Apache Iceberg sink does;
 *   <li>the environment of the common container images: {@code CONNECT_BOOTSTRAP_SERVERS}
 *       (Confluent's, with {@code CONNECT_SECURITY_PROTOCOL}, {@code CONNECT_SASL_MECHANISM} and
 *       {@code CONNECT_SASL_JAAS_CONFIG}), {@code KAFKA_CONNECT_BOOTSTRAP_SERVERS} (Strimzi's) and
 *       {@code BOOTSTRAP_SERVERS} (Debezium's).
 * </ol>
 *
 * Only the bootstrap servers and the client security settings ({@code security.protocol}, {@code
 * sasl.*}, and from a file {@code ssl.*}) are taken; {@code iceberg.kafka.*} keys always win. A
 * value that is a config provider reference ({@code ${...}}) is resolved by the worker, not here,
 * so it is skipped.
 */
public final class WorkerKafka {
  private static final List<String> MAIN_CLASSES =
      List.of(
          "org.apache.kafka.connect.cli.ConnectDistributed",
          "org.apache.kafka.connect.cli.ConnectStandalone");
  private static final List<String> BOOTSTRAP_VARIABLES =
      List.of("CONNECT_BOOTSTRAP_SERVERS", "KAFKA_CONNECT_BOOTSTRAP_SERVERS", "BOOTSTRAP_SERVERS");

  private final Function<String, String> systemProperties;
  private final Function<String, String> environment;

  /**
   * @param systemProperties the JVM's system properties
   * @param environment the process environment
   */
  public WorkerKafka(
      Function<String, String> systemProperties, Function<String, String> environment) {
    this.systemProperties = systemProperties;
    this.environment = environment;
  }

  /** The worker's settings as this JVM and process show them. */
  public static WorkerKafka ofThisProcess() {
    return new WorkerKafka(System::getProperty, System::getenv);
  }

  /**
   * Where the settings were found, the client settings found there, and the client settings left
   * out because their value is a config provider reference.
   */
  public record Found(String source, Map<String, String> clientProperties, Set<String> unresolved) {
    public String bootstrapServers() {
      return clientProperties.get("bootstrap.servers");
    }
  }

  /** Where {@link #find} looks, for messages. */
  public static String whereLooked() {
    return "the worker properties file on the worker's command line, and the environment"
        + " variables "
        + String.join(", ", BOOTSTRAP_VARIABLES);
  }

  /** The worker's client settings, if its bootstrap servers can be found. */
  public Optional<Found> find() {
    Optional<Found> fromFile = fromWorkerFile();
    return fromFile.isPresent() ? fromFile : fromEnvironment();
  }

  /**
   * The names of the config providers the worker defines ({@code config.providers}), when its
   * configuration can be found: in the worker properties file, or in Confluent's image environment
   * ({@code CONNECT_CONFIG_PROVIDERS}). Empty when the worker's configuration cannot be found.
   */
  public Optional<List<String>> configProviders() {
    Optional<WorkerFile> file = workerFile();
    if (file.isPresent()) {
      return Optional.of(names(file.get().properties().getProperty("config.providers")));
    }
    if (environment.apply("CONNECT_BOOTSTRAP_SERVERS") != null) {
      return Optional.of(names(environment.apply("CONNECT_CONFIG_PROVIDERS")));
    }
    return Optional.empty();
  }

  private static List<String> names(String list) {
    return list == null || list.isBlank()
        ? List.of()
        : Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList();
  }

  private record WorkerFile(Path path, Properties properties) {}

  private Optional<WorkerFile> workerFile() {
    String command = systemProperties.apply("sun.java.command");
    if (command == null) {
      return Optional.empty();
    }
    String[] words = command.trim().split("\\s+");
    if (words.length < 2 || !MAIN_CLASSES.contains(words[0])) {
      return Optional.empty();
    }
    Path file = Path.of(words[1]);
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.of(new WorkerFile(file, properties));
  }

  private Optional<Found> fromWorkerFile() {
    Optional<WorkerFile> file = workerFile();
    if (file.isEmpty()) {
      return Optional.empty();
    }
    Properties properties = file.get().properties();
    Map<String, String> client = new TreeMap<>();
    Set<String> unresolved = new TreeSet<>();
    for (String key : properties.stringPropertyNames()) {
      if (isClientSetting(key)) {
        putResolved(client, unresolved, key, properties.getProperty(key));
      }
    }
    return found("worker properties file " + file.get().path(), client, unresolved);
  }

  private Optional<Found> fromEnvironment() {
    for (String variable : BOOTSTRAP_VARIABLES) {
      String servers = environment.apply(variable);
      if (servers == null || servers.isBlank()) {
        continue;
      }
      Map<String, String> client = new TreeMap<>();
      Set<String> unresolved = new TreeSet<>();
      putResolved(client, unresolved, "bootstrap.servers", servers);
      if (variable.equals("CONNECT_BOOTSTRAP_SERVERS")) {
        for (String key : List.of("security.protocol", "sasl.mechanism", "sasl.jaas.config")) {
          String value =
              environment.apply("CONNECT_" + key.replace('.', '_').toUpperCase(Locale.ROOT));
          if (value != null) {
            putResolved(client, unresolved, key, value);
          }
        }
      }
      return found("environment variable " + variable, client, unresolved);
    }
    return Optional.empty();
  }

  private static Optional<Found> found(
      String source, Map<String, String> client, Set<String> unresolved) {
    String servers = client.get("bootstrap.servers");
    return servers == null || servers.isBlank()
        ? Optional.empty()
        : Optional.of(new Found(source, Map.copyOf(client), Set.copyOf(unresolved)));
  }

  private static boolean isClientSetting(String key) {
    return key.equals("bootstrap.servers")
        || key.equals("security.protocol")
        || key.startsWith("sasl.")
        || key.startsWith("ssl.");
  }

  private static void putResolved(
      Map<String, String> client, Set<String> unresolved, String key, String value) {
    String trimmed = value.trim();
    if (trimmed.contains("${")) {
      unresolved.add(key);
    } else {
      client.put(key, trimmed);
    }
  }
}
