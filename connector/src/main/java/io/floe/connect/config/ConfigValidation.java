/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Rules that span several keys, as the connector's {@code validate} applies them. Each key group
 * owns its rules; this runs them in turn. Each error is attached to the key the user has to change,
 * so the Connect REST {@code /config/validate} answer points at the right field. Last, the answer's
 * secrets are hidden ({@link Secrets#hideIn}).
 */
public final class ConfigValidation {

  private ConfigValidation() {}

  /**
   * Adds cross-field errors to {@code config}, the result of validating each key on its own. Rules
   * that read a key whose own validation failed are skipped; that key already carries an error.
   */
  public static Config addCrossFieldErrors(Config config, Map<String, String> props) {
    return addCrossFieldErrors(config, props, WorkerKafka.ofThisProcess());
  }

  static Config addCrossFieldErrors(Config config, Map<String, String> props, WorkerKafka worker) {
    Map<String, ConfigValue> values =
        config.configValues().stream()
            .collect(
                Collectors.toMap(
                    ConfigValue::name, Function.identity(), (a, b) -> a, LinkedHashMap::new));
    values.values().forEach(ConfigValidation::dropFollowOnNullError);
    RoutingKeys.check(values);
    PerTableValidation.check(values, props);
    CatalogKeys.check(values, props);
    CommitKeys.check(values, props);
    MaintenanceKeys.check(values);
    KafkaKeys.check(values, props, worker);
    ConnectKeys.check(values, props);
    ApacheSinkKeys.check(values, props);
    UnknownKeys.check(values, props);
    Secrets.hideIn(values.values(), props);
    return new Config(new ArrayList<>(values.values()));
  }

  /**
   * A value that does not parse is also reported by Kafka's validator as "Invalid value null ...
   * must be non-null"; keep only the message about what the user wrote.
   */
  private static void dropFollowOnNullError(ConfigValue value) {
    List<String> messages = value.errorMessages(); // Kafka's own, mutable list
    String followOn = "Invalid value null for configuration " + value.name() + ":";
    if (messages.stream().anyMatch(m -> !m.startsWith(followOn))) {
      messages.removeIf(m -> m.startsWith(followOn));
    }
  }

  static boolean valid(Map<String, ConfigValue> values, String... names) {
    for (String name : names) {
      ConfigValue value = values.get(name);
      if (value == null || !value.errorMessages().isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Adds an error to a key, creating a value entry for keys outside the ConfigDef. */
  static void error(Map<String, ConfigValue> values, String name, String message) {
    values.computeIfAbsent(name, ConfigValue::new).addErrorMessage(message);
  }
}
