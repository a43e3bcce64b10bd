/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The {@code iceberg.kafka.*} keys of the control-topic clients. Their bootstrap servers are
 * required, but may come from the Connect worker ({@link WorkerKafka}) when unset; the rest passes
 * through to the clients, after a check of their JAAS login modules ({@link SaslLoginModules}).
 * Listed in the {@link CommitKeys} group, after its keys.
 *
 * @param explicitBootstrapServers {@code iceberg.kafka.bootstrap.servers}, if set
 * @param clientSettings every {@code iceberg.kafka.*} key with the prefix removed
 */
public record KafkaKeys(
    Optional<String> explicitBootstrapServers, Map<String, Object> clientSettings) {

  public static final String KAFKA_PREFIX = "iceberg.kafka.";

  public static final String KAFKA_BOOTSTRAP_SERVERS = KAFKA_PREFIX + "bootstrap.servers";
  public static final String KAFKA_BOOTSTRAP_SERVERS_DOC =
      "Bootstrap servers of the Kafka cluster that holds the Connect cluster's consumer groups: the"
          + " control topic lives there, and the workers commit their source offsets there in the"
          + " same transactions as their control events. When unset, the Connect worker's own"
          + " bootstrap servers and client security settings are used, found in "
          + WorkerKafka.whereLooked()
          + ". Other client settings of the control clients (security, SASL, TLS) go in"
          + " iceberg.kafka.* and win over the worker's.";

  /** The JAAS configuration of the control clients, whose login modules are checked. */
  static final String KAFKA_JAAS_CONFIG = KAFKA_PREFIX + SaslLoginModules.JAAS_CONFIG;

  static final String MISSING_BOOTSTRAP_SERVERS =
      "not set, and the Connect worker's own bootstrap servers could not be found (looked in "
          + WorkerKafka.whereLooked()
          + "). Set it to the bootstrap servers of the Kafka cluster this Connect cluster stores"
          + " its consumer offsets in (the worker's bootstrap.servers).";

  public KafkaKeys {
    clientSettings = Map.copyOf(clientSettings);
  }

  static KafkaKeys parse(AbstractConfig config) {
    return new KafkaKeys(
        explicit(config.getString(KAFKA_BOOTSTRAP_SERVERS)),
        config.originalsWithPrefix(KAFKA_PREFIX, true));
  }

  /** Defines the keys in the {@link CommitKeys#GROUP}, after {@code order}. */
  static void define(ConfigDef def, int order) {
    def.define(
        KAFKA_BOOTSTRAP_SERVERS,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        KAFKA_BOOTSTRAP_SERVERS_DOC,
        CommitKeys.GROUP,
        ++order,
        Width.LONG,
        "Kafka bootstrap servers");
  }

  /**
   * Bootstrap servers that are set, or found from the worker; login modules that are allowed; TLS
   * stores that open and hold valid certificates ({@link KafkaTlsStores}).
   */
  static void check(
      Map<String, ConfigValue> values, Map<String, String> props, WorkerKafka worker) {
    Optional<String> explicit = explicit((String) values.get(KAFKA_BOOTSTRAP_SERVERS).value());
    Optional<String> control = resolve(explicit, worker);
    control
        .flatMap(
            servers ->
                SourceConsumer.bootstrapProblem(
                    props,
                    servers,
                    explicit.isPresent()
                        ? KAFKA_BOOTSTRAP_SERVERS
                        : worker.find().map(WorkerKafka.Found::source).orElse("the worker")))
        .ifPresent(problem -> ConfigValidation.error(values, SourceConsumer.BOOTSTRAP, problem));
    if (ConfigValidation.valid(values, KAFKA_BOOTSTRAP_SERVERS) && control.isEmpty()) {
      ConfigValidation.error(
          values,
          KAFKA_BOOTSTRAP_SERVERS,
          "Required here: it is "
              + MISSING_BOOTSTRAP_SERVERS
              + " The control topic and the offset commits go there.");
    }
    String jaas = props.get(KAFKA_JAAS_CONFIG);
    if (jaas != null) {
      SaslLoginModules.problem(jaas)
          .ifPresent(problem -> ConfigValidation.error(values, KAFKA_JAAS_CONFIG, problem));
    }
    KafkaTlsStores.check(values, props);
    if (explicit(props.get(KAFKA_BOOTSTRAP_SERVERS)).isEmpty()) {
      worker.find().ifPresent(found -> checkInherited(values, props, found));
    }
  }

  /**
   * The secrets the control clients need along with the worker settings they inherit, but which the
   * worker reads through a config provider that only it resolves: each must be given under {@code
   * iceberg.kafka.*}, or the clients would fail to log in with Kafka's bare "SSL handshake failed"
   * or JAAS error.
   */
  private static void checkInherited(
      Map<String, ConfigValue> values, Map<String, String> props, WorkerKafka.Found found) {
    Map<String, String> needs =
        Map.of(
            "ssl.keystore.password",
            "ssl.keystore.location",
            "ssl.truststore.password",
            "ssl.truststore.location",
            "ssl.key.password",
            "ssl.keystore.location",
            SaslLoginModules.JAAS_CONFIG,
            "sasl.mechanism");
    needs.forEach(
        (secret, setting) -> {
          if (found.unresolved().contains(secret)
              && (found.clientProperties().containsKey(setting)
                  || found.unresolved().contains(setting))
              && !props.containsKey(KAFKA_PREFIX + setting)
              && !props.containsKey(KAFKA_PREFIX + secret)) {
            ConfigValidation.error(
                values,
                KAFKA_PREFIX + secret,
                "Required here: the control clients take "
                    + setting
                    + " from the Connect worker ("
                    + found.source()
                    + "), but the worker's "
                    + secret
                    + " is a config provider reference, which only the worker resolves. Give the"
                    + " control clients theirs in "
                    + KAFKA_PREFIX
                    + secret
                    + " (by reference too), or set "
                    + KAFKA_BOOTSTRAP_SERVERS
                    + " with the control clients' own settings.");
          }
        });
  }

  /**
   * The bootstrap servers of the control clients.
   *
   * @throws ConfigException when they are neither set nor found from the worker
   */
  String bootstrapServers(WorkerKafka worker) {
    return resolve(explicitBootstrapServers, worker)
        .orElseThrow(
            () -> new ConfigException(KAFKA_BOOTSTRAP_SERVERS, null, MISSING_BOOTSTRAP_SERVERS));
  }

  /** Where the control clients' bootstrap servers come from, for the logs. */
  String bootstrapSource(WorkerKafka worker) {
    return explicitBootstrapServers.isPresent()
        ? KAFKA_BOOTSTRAP_SERVERS
        : worker.find().map(WorkerKafka.Found::source).orElse("nowhere");
  }

  /**
   * The control clients' properties: the {@code iceberg.kafka.*} settings, over the worker's own
   * client settings when the bootstrap servers are not set.
   *
   * @throws ConfigException when the JAAS configuration uses a login module that is not allowed
   */
  Map<String, Object> clientProperties(WorkerKafka worker) {
    Map<String, Object> properties = new TreeMap<>();
    if (explicitBootstrapServers.isEmpty()) {
      worker.find().ifPresent(found -> properties.putAll(found.clientProperties()));
    }
    properties.putAll(clientSettings);
    Object jaas = properties.get(SaslLoginModules.JAAS_CONFIG);
    if (jaas != null) {
      SaslLoginModules.problem(String.valueOf(jaas))
          .ifPresent(
              problem -> {
                throw new ConfigException(KAFKA_JAAS_CONFIG, Secrets.MASK, problem);
              });
    }
    return properties;
  }

  /** The rule for the bootstrap servers: as set, else the worker's; empty when neither is known. */
  private static Optional<String> resolve(Optional<String> explicit, WorkerKafka worker) {
    return explicit.or(() -> worker.find().map(WorkerKafka.Found::bootstrapServers));
  }

  private static Optional<String> explicit(String servers) {
    return servers == null || servers.isBlank() ? Optional.empty() : Optional.of(servers);
  }
}
