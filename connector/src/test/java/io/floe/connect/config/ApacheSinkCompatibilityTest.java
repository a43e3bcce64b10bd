/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.IcebergSinkConnector;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.connect.IcebergSinkConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * Every key of the Apache Iceberg sink 1.12, read from its {@code IcebergSinkConfig} in its jar, is
 * accepted by Floe and explained in the README's migration table, so an Apache sink configuration
 * deploys with only {@code connector.class} changed.
 */
class ApacheSinkCompatibilityTest {
  private static final Path README = Paths.get("..", "README.md");
  private static final String MIGRATION_HEADING = "## Migrating from the Apache Iceberg sink";

  /** Values for keys whose Apache default is empty, as an Apache sink configuration sets them. */
  private static final Map<String, String> SAMPLES =
      Map.ofEntries(
          Map.entry("iceberg.tables", "db.events"),
          Map.entry("iceberg.tables.route-field", "type"),
          Map.entry("iceberg.tables.default-id-columns", "id"),
          Map.entry("iceberg.tables.default-partition-by", "id"),
          Map.entry("iceberg.tables.default-commit-branch", "audit"),
          Map.entry("iceberg.connect.group-id", "connect-events-sink"),
          Map.entry("iceberg.coordinator.transactional.prefix", "events-"),
          Map.entry("iceberg.coordinator.transactional.suffix", "-1"),
          Map.entry("iceberg.hadoop-conf-dir", "/etc/hadoop/conf"));

  /** Per-table values, by setting. */
  private static final Map<String, String> TABLE_SAMPLES =
      Map.of(
          "route-regex", ".*",
          "id-columns", "id",
          "partition-by", "id",
          "commit-branch", "staging");

  /** Keys under each pass-through prefix, by prefix. */
  private static final Map<String, String> PREFIX_SAMPLES =
      Map.of(
          "iceberg.catalog.", "iceberg.catalog.uri",
          "iceberg.hadoop.", "iceberg.hadoop.fs.s3a.endpoint",
          "iceberg.kafka.", "iceberg.kafka.bootstrap.servers",
          "iceberg.tables.auto-create-props.", "iceberg.tables.auto-create-props.format-version",
          "iceberg.tables.write-props.",
              "iceberg.tables.write-props.write.parquet.compression-codec");

  private static final Pattern SETTING = Pattern.compile("[a-z]+(-[a-z]+)+");

  /** The Apache sink's keys: its ConfigDef's, and the other {@code iceberg.*} names it reads. */
  private record ApacheKeys(Set<String> keys, Set<String> prefixes, Set<String> tableSettings) {}

  private static ApacheKeys apacheKeys() throws IllegalAccessException {
    Set<String> keys = new TreeSet<>(IcebergSinkConfig.CONFIG_DEF.names());
    Set<String> prefixes = new TreeSet<>();
    Set<String> settings = new TreeSet<>();
    for (Field field : IcebergSinkConfig.class.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers()) || field.getType() != String.class) {
        continue;
      }
      field.setAccessible(true);
      String value = (String) field.get(null);
      if (value.startsWith("iceberg.") && value.endsWith(".")) {
        prefixes.add(value);
      } else if (value.startsWith("iceberg.") && !field.getName().startsWith("DEFAULT_")) {
        keys.add(value);
      } else if (SETTING.matcher(value).matches() && !field.getName().startsWith("DEFAULT_")) {
        settings.add(value); // route-regex, id-columns, ...: read as iceberg.table.<t>.<setting>
      }
    }
    prefixes.remove(TableConfig.PREFIX);
    assertThat(keys).contains("iceberg.tables", "iceberg.control.commit.interval-ms");
    assertThat(settings).contains("id-columns", "commit-branch");
    assertThat(prefixes).contains("iceberg.catalog.", "iceberg.hadoop.");
    return new ApacheKeys(keys, prefixes, settings);
  }

  /** A configuration setting every Apache key, each to its Apache default or a typical value. */
  private static Map<String, String> everyApacheKey(ApacheKeys apache) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("name", "events-sink");
    config.put("topics", "events");
    config.put("iceberg.catalog.type", "rest");
    config.put("iceberg.catalog.uri", "http://catalog:8181");
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    Map<String, ConfigDef.ConfigKey> defined = IcebergSinkConfig.CONFIG_DEF.configKeys();
    for (String key : apache.keys()) {
      config.put(key, sample(key, defined.get(key)));
    }
    for (String setting : apache.tableSettings()) {
      config.put(TableConfig.key("db.events", setting), TABLE_SAMPLES.getOrDefault(setting, "x"));
    }
    for (String prefix : apache.prefixes()) {
      config.putIfAbsent(PREFIX_SAMPLES.getOrDefault(prefix, prefix + "some.key"), "v");
    }
    config.put("iceberg.catalog.uri", "http://catalog:8181");
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    return config;
  }

  private static String sample(String key, ConfigDef.ConfigKey definition) {
    if (SAMPLES.containsKey(key)) {
      return SAMPLES.get(key);
    }
    if (definition != null && definition.hasDefault() && definition.defaultValue != null) {
      return ConfigDef.convertToString(definition.defaultValue, definition.type);
    }
    if (definition == null) {
      return "x";
    }
    return switch (definition.type) {
      case BOOLEAN -> "true";
      case INT, SHORT -> "4";
      case LONG -> "120000";
      default -> "x";
    };
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    return new IcebergSinkConnector()
        .validate(config).configValues().stream()
            .filter(v -> !v.errorMessages().isEmpty())
            .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void everyKeyOfTheApacheSinkIsOneOfFloesKeysOrPassedThrough() throws Exception {
    ApacheKeys apache = apacheKeys();
    List<String> unknown = new ArrayList<>();
    for (String key : apache.keys()) {
      if (!FloeSinkConfig.CONFIG_DEF.names().contains(key)) {
        unknown.add(key);
      }
    }
    for (String prefix : apache.prefixes()) {
      if (!UnknownKeys.PASS_THROUGH.contains(prefix)) {
        unknown.add(prefix + "*");
      }
    }
    for (String setting : apache.tableSettings()) {
      if (!TableConfig.SETTINGS.contains(setting)) {
        unknown.add("iceberg.table.<table>." + setting);
      }
    }
    assertThat(unknown).as("Apache Iceberg sink keys Floe does not know").isEmpty();
  }

  @Test
  void aConfigurationSettingEveryApacheKeyValidatesAndStarts() throws Exception {
    Map<String, String> config = everyApacheKey(apacheKeys());
    assertThat(errors(config)).isEmpty();
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    assertThat(parsed.tableConfig("db.events").idColumns()).containsExactly("id");
    assertThat(parsed.transactionalIdPrefix()).isEqualTo("events-");
    assertThat(parsed.hadoopConfDir()).hasValue("/etc/hadoop/conf");
    assertThat(parsed.apacheSinkProblems()).isEmpty();
  }

  @Test
  void theReadmeMigrationTableExplainsEveryApacheKey() throws Exception {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf(MIGRATION_HEADING);
    assertThat(start).as("README section '%s'", MIGRATION_HEADING).isNotNegative();
    int end = readme.indexOf("\n## ", start + MIGRATION_HEADING.length());
    String section = end < 0 ? readme.substring(start) : readme.substring(start, end);
    ApacheKeys apache = apacheKeys();
    List<String> missing = new ArrayList<>();
    for (String key : apache.keys()) {
      if (!section.contains("| `" + key + "`")) {
        missing.add(key);
      }
    }
    for (String prefix : apache.prefixes()) {
      if (!section.contains("| `" + prefix + "*`")) {
        missing.add(prefix + "*");
      }
    }
    for (String setting : apache.tableSettings()) {
      if (!section.contains("| `iceberg.table.<table>." + setting + "`")) {
        missing.add("iceberg.table.<table>." + setting);
      }
    }
    assertThat(missing).as("Apache keys without a row in the README's migration table").isEmpty();
  }

  @Test
  void theApacheTransactionalPrefixIsFloesUnlessFloesOwnIsSet() {
    Map<String, String> config = minimal();
    config.put("iceberg.coordinator.transactional.prefix", "orders-");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).transactionalIdPrefix()).isEqualTo("orders-");

    config.put("iceberg.control.transactional-id-prefix", "orders-");
    assertThat(errors(config)).isEmpty();

    config.put("iceberg.control.transactional-id-prefix", "sales-");
    Map<String, List<String>> errors = errors(config);
    assertThat(errors).containsOnlyKeys("iceberg.coordinator.transactional.prefix");
    assertThat(errors.get("iceberg.coordinator.transactional.prefix").toString())
        .contains("iceberg.coordinator.transactional.prefix")
        .contains("iceberg.control.transactional-id-prefix");
    assertThat(new FloeSinkConfig(config).transactionalIdPrefix()).isEqualTo("sales-");
  }

  @Test
  void theConnectGroupIdIsAcceptedOnlyWhenItNamesTheConnectorsOwnGroup() {
    Map<String, String> config = minimal();
    config.put("iceberg.connect.group-id", "connect-orders");
    assertThat(errors(config)).isEmpty();

    config.put("iceberg.connect.group-id", "cg-orders");
    assertThat(errors(config))
        .containsOnlyKeys("iceberg.connect.group-id")
        .extractingByKey("iceberg.connect.group-id")
        .satisfies(m -> assertThat(m.toString()).contains("connect-orders"));
    assertThat(new FloeSinkConfig(config).apacheSinkProblems())
        .containsOnlyKeys("iceberg.connect.group-id");

    config.put("consumer.override.group.id", "cg-orders");
    assertThat(errors(config)).isEmpty();
  }

  @Test
  void hadoopCredentialsAreHiddenInTheValidationAnswer() {
    Map<String, String> config = minimal();
    config.put("iceberg.hadoop.fs.s3a.secret.key", "canary-hadoop-secret");
    config.put("iceberg.hadoop.fs.s3a.access.key", "canary-hadoop-access");
    config.put("iceberg.hadoop.fs.s3a.endpoint", "http://minio:9000");
    List<ConfigValue> values = new IcebergSinkConnector().validate(config).configValues();
    assertThat(errors(config)).isEmpty();
    assertThat(values)
        .allSatisfy(
            v -> {
              assertThat(String.valueOf(v.value())).doesNotContain("canary-hadoop-secret");
              assertThat(v.errorMessages().toString()).doesNotContain("canary-hadoop");
            });
    assertThat(Secrets.isSecretKey("iceberg.hadoop.fs.s3a.secret.key")).isTrue();
    assertThat(Secrets.isSecretKey("iceberg.hadoop.fs.s3a.access.key")).isTrue();
    assertThat(Secrets.isSecretKey("iceberg.hadoop.fs.s3a.endpoint")).isFalse();
    assertThat(Secrets.of(config).mask("fs.s3a.secret.key=canary-hadoop-secret"))
        .isEqualTo("fs.s3a.secret.key=" + Secrets.MASK);
    assertThat(Secrets.redacted(config))
        .containsEntry("iceberg.hadoop.fs.s3a.secret.key", Secrets.MASK)
        .containsEntry("iceberg.hadoop.fs.s3a.access.key", Secrets.MASK)
        .containsEntry("iceberg.hadoop.fs.s3a.endpoint", "http://minio:9000");
  }

  @Test
  void warnsOncePerApacheKeyFloeDoesNotUse() {
    Map<String, String> config = minimal();
    config.put("iceberg.control.commit.threads", "8");
    config.put("iceberg.control.group-id-prefix", "cg-control-");
    config.put("iceberg.tables.schema-force-optional", "true");
    List<String> warnings = new FloeSinkConfig(config).apacheSinkWarnings();
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).startsWith("iceberg.control.commit.threads ");
    assertThat(warnings.get(1))
        .startsWith("iceberg.control.group-id-prefix ")
        .contains("floe-<connector name>-coordinator");
  }

  private static Map<String, String> minimal() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("name", "orders");
    config.put("topics", "orders");
    config.put("iceberg.tables", "db.orders");
    config.put("iceberg.catalog.type", "rest");
    config.put("iceberg.catalog.uri", "http://catalog:8181");
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    return config;
  }
}
