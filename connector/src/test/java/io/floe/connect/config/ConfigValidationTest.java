/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.IcebergSinkConnector;
import io.floe.connect.convert.TimeOfDayType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigValidationTest {

  private static Map<String, String> valid() {
    Map<String, String> config = MinimalConfigs.withoutBootstrapServers();
    config.put(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS, "localhost:9092");
    return config;
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    Config result = new IcebergSinkConnector().validate(config);
    return result.configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void acceptsAMinimalStaticConfig() {
    assertThat(errors(valid())).isEmpty();
  }

  @Test
  void orphanFilesYoungerThanTwoCommitIntervalsAreRefusedWhenRemovalIsOn() {
    Map<String, String> config = valid();
    config.put(CommitKeys.COMMIT_INTERVAL_MS, "60000");
    config.put(MaintenanceKeys.ORPHAN_MIN_AGE_MS, "100000");
    assertThat(errors(config)).as("removal off: the age is not used").isEmpty();
    config.put(MaintenanceKeys.ORPHAN_FILES, "dry-run");
    assertThat(errors(config))
        .containsOnlyKeys(MaintenanceKeys.ORPHAN_MIN_AGE_MS)
        .extractingByKey(
            MaintenanceKeys.ORPHAN_MIN_AGE_MS, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("at least twice the commit interval (60000 ms)");
    config.put(MaintenanceKeys.ORPHAN_MIN_AGE_MS, "120000");
    assertThat(errors(config)).isEmpty();
    config.put(MaintenanceKeys.ORPHAN_FILES, "sometimes");
    assertThat(errors(config)).containsOnlyKeys(MaintenanceKeys.ORPHAN_FILES);
  }

  @Test
  void requiresATableListOrDynamicRouting() {
    Map<String, String> config = valid();
    config.remove(RoutingKeys.TABLES);
    assertThat(errors(config))
        .containsOnlyKeys(RoutingKeys.TABLES)
        .extractingByKey(RoutingKeys.TABLES, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("No table to write to");
  }

  @Test
  void rejectsStaticAndDynamicRoutingTogetherOnTheDynamicKey() {
    Map<String, String> config = valid();
    config.put(RoutingKeys.TABLES_DYNAMIC_ENABLED, "true");
    config.put(RoutingKeys.TABLES_ROUTE_FIELD, "table");
    assertThat(errors(config)).containsOnlyKeys(RoutingKeys.TABLES_DYNAMIC_ENABLED);
  }

  @Test
  void dynamicRoutingNeedsARouteField() {
    Map<String, String> config = valid();
    config.remove(RoutingKeys.TABLES);
    config.put(RoutingKeys.TABLES_DYNAMIC_ENABLED, "true");
    assertThat(errors(config))
        .containsOnlyKeys(RoutingKeys.TABLES_ROUTE_FIELD)
        .extractingByKey(
            RoutingKeys.TABLES_ROUTE_FIELD, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("set iceberg.tables.route-field");
  }

  @Test
  void requiresACatalogTypeOrImplementation() {
    Map<String, String> config = valid();
    config.remove(CatalogKeys.CATALOG_TYPE);
    assertThat(errors(config)).containsOnlyKeys(CatalogKeys.CATALOG_TYPE);

    config.put(CatalogKeys.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
    assertThat(errors(config)).isEmpty();

    config.put(CatalogKeys.CATALOG_TYPE, "rest");
    assertThat(errors(config)).containsOnlyKeys(CatalogKeys.CATALOG_IMPL);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jbdc", "nessie", "", "hive2"})
  void rejectsUnknownCatalogTypes(String type) {
    Map<String, String> config = valid();
    config.put(CatalogKeys.CATALOG_TYPE, type);
    assertThat(errors(config)).containsOnlyKeys(CatalogKeys.CATALOG_TYPE);
  }

  private static Map<String, String> restWithOAuth2() {
    Map<String, String> config = valid();
    config.put(CatalogKeys.CATALOG_TYPE, "rest");
    config.put("iceberg.catalog.uri", "https://catalog.example.com/api/catalog");
    config.put("iceberg.catalog.credential", "client:secret");
    config.put("iceberg.catalog.oauth2-server-uri", "https://idp.example.com/oauth2/token");
    config.put("iceberg.catalog.scope", "PRINCIPAL_ROLE:ALL");
    config.put("iceberg.catalog.header.X-Iceberg-Access-Delegation", "vended-credentials");
    return config;
  }

  @Test
  void acceptsARestCatalogWithOAuth2AndVendedCredentials() {
    assertThat(errors(restWithOAuth2())).isEmpty();
    Map<String, String> both = restWithOAuth2();
    both.put(
        "iceberg.catalog.header.x-iceberg-access-delegation", "remote-signing, vended-credentials");
    both.remove("iceberg.catalog.header.X-Iceberg-Access-Delegation");
    both.put("iceberg.catalog.oauth2-server-uri", "v1/oauth/tokens");
    assertThat(errors(both)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"vended-credential", "vended_credentials", "", "vended-credentials,"})
  void refusesAnUnknownAccessDelegationOnItsKey(String value) {
    Map<String, String> config = restWithOAuth2();
    config.put("iceberg.catalog.header.X-Iceberg-Access-Delegation", value);
    assertThat(errors(config))
        .containsOnlyKeys("iceberg.catalog.header.X-Iceberg-Access-Delegation")
        .extractingByKey(
            "iceberg.catalog.header.X-Iceberg-Access-Delegation",
            InstanceOfAssertFactories.list(String.class))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("vended-credentials and remote-signing");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://idp.example.com/token", "https://idp example.com/token", " "})
  void refusesATokenEndpointThatIsNoUrl(String value) {
    Map<String, String> config = restWithOAuth2();
    config.put("iceberg.catalog.oauth2-server-uri", value);
    assertThat(errors(config)).containsOnlyKeys("iceberg.catalog.oauth2-server-uri");
  }

  @Test
  void refusesTheRestClientsLoginOnAnotherCatalogTypeNamingTheKey() {
    Map<String, String> config = restWithOAuth2();
    config.put(CatalogKeys.CATALOG_TYPE, "jdbc");
    Map<String, List<String>> errors = errors(config);
    assertThat(errors)
        .containsOnlyKeys(
            "iceberg.catalog.credential",
            "iceberg.catalog.oauth2-server-uri",
            "iceberg.catalog.scope",
            "iceberg.catalog.header.X-Iceberg-Access-Delegation");
    assertThat(errors.get("iceberg.catalog.credential"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("Only a REST catalog uses iceberg.catalog.credential")
        .contains("iceberg.catalog.type is jdbc")
        .doesNotContain("client:secret");
  }

  @ParameterizedTest
  @ValueSource(strings = {"REST", "Jdbc", " glue ", "hadoop", "Hive"})
  void catalogTypesAreCaseInsensitive(String type) {
    Map<String, String> config = valid();
    config.put(CatalogKeys.CATALOG_TYPE, type);
    assertThat(errors(config)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"long", "micros", "long_micros", "timestamp", ""})
  void rejectsAnUnknownTimeTypeOnItsKey(String type) {
    Map<String, String> config = valid();
    config.put(ConversionKeys.TIME_TYPE, type);
    assertThat(errors(config)).containsOnlyKeys(ConversionKeys.TIME_TYPE);
  }

  @ParameterizedTest
  @CsvSource({"time, TIME", "long-micros, LONG_MICROS", "Long-Micros, LONG_MICROS", "TIME, TIME"})
  void theTimeTypeReachesTheConverters(String type, TimeOfDayType expected) {
    Map<String, String> config = valid();
    config.put(ConversionKeys.TIME_TYPE, type);
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).convertOptions().timeOfDayType()).isEqualTo(expected);
    config.remove(ConversionKeys.TIME_TYPE);
    assertThat(new FloeSinkConfig(config).convertOptions().timeOfDayType())
        .as("the default")
        .isEqualTo(TimeOfDayType.LONG_MICROS);
  }

  @Test
  void commitTimeoutMustBeShorterThanTheInterval() {
    Map<String, String> config = valid();
    config.put(CommitKeys.COMMIT_INTERVAL_MS, "10000");
    config.put(CommitKeys.COMMIT_TIMEOUT_MS, "10000");
    assertThat(errors(config))
        .containsOnlyKeys(CommitKeys.COMMIT_TIMEOUT_MS)
        .extractingByKey(CommitKeys.COMMIT_TIMEOUT_MS, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("10000 ms");

    config.put(CommitKeys.COMMIT_TIMEOUT_MS, "9999");
    assertThat(errors(config)).isEmpty();
  }

  @Test
  void aKeyThatFailsItsOwnValidationGetsNoCrossFieldNoise() {
    Map<String, String> config = valid();
    config.put(CommitKeys.COMMIT_INTERVAL_MS, "soon");
    assertThat(errors(config))
        .containsOnlyKeys(CommitKeys.COMMIT_INTERVAL_MS)
        .extractingByKey(
            CommitKeys.COMMIT_INTERVAL_MS, InstanceOfAssertFactories.list(String.class))
        .hasSize(1);
  }

  @Test
  void anUnsetCommitTimeoutIsDerivedFromAShortIntervalInsteadOfRefused() {
    Map<String, String> config = valid();
    config.put(CommitKeys.COMMIT_INTERVAL_MS, "10000");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).commitTimeout()).hasMillis(5000);
    config.put(CommitKeys.COMMIT_INTERVAL_MS, "300000");
    assertThat(new FloeSinkConfig(config).commitTimeout()).hasMillis(30000);
    config.put(CommitKeys.COMMIT_TIMEOUT_MS, "40000");
    assertThat(new FloeSinkConfig(config).commitTimeout()).hasMillis(40000);
  }

  @Test
  void unsetBootstrapServersAreTheWorkersOwnWhenTheyCanBeFound() {
    Map<String, String> config = valid();
    config.remove(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS);
    WorkerKafka worker =
        new WorkerKafka(key -> null, Map.of("CONNECT_BOOTSTRAP_SERVERS", "broker:9092")::get);
    Config result =
        ConfigValidation.addCrossFieldErrors(
            new Config(FloeSinkConfig.CONFIG_DEF.validate(config)), config, worker);
    assertThat(result.configValues()).allSatisfy(v -> assertThat(v.errorMessages()).isEmpty());
  }

  @Test
  void requiresTheControlClientsBootstrapServers() {
    Map<String, String> config = valid();
    config.remove(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS);
    assertThat(errors(config))
        .containsOnlyKeys(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS)
        .extractingByKey(
            KafkaKeys.KAFKA_BOOTSTRAP_SERVERS, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("worker's bootstrap.servers");
  }

  @ParameterizedTest
  @CsvSource({"explicit:9092,", ",worker:9092", ","})
  void validationRefusesExactlyTheBootstrapServersTheControlClientsCannotStartWith(
      String explicit, String workers) {
    Map<String, String> config = valid();
    config.remove(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS);
    if (explicit != null) {
      config.put(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS, explicit);
    }
    Map<String, String> environment = new HashMap<>();
    if (workers != null) {
      environment.put("CONNECT_BOOTSTRAP_SERVERS", workers);
    }
    WorkerKafka worker = new WorkerKafka(key -> null, environment::get);
    boolean refused =
        ConfigValidation.addCrossFieldErrors(
                new Config(FloeSinkConfig.CONFIG_DEF.validate(config)), config, worker)
            .configValues()
            .stream()
            .anyMatch(v -> !v.errorMessages().isEmpty());
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    if (refused) {
      assertThatThrownBy(() -> parsed.kafkaBootstrapServers(worker))
          .hasMessageContaining(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS);
    } else {
      assertThat(parsed.kafkaBootstrapServers(worker))
          .isEqualTo(explicit != null ? explicit : workers);
    }
    assertThat(refused).isEqualTo(explicit == null && workers == null);
  }

  @Test
  void flagsAMisspeltKeyWithTheKeyItProbablyMeant() {
    Map<String, String> config = valid();
    config.put("iceberg.tables.auto-create-enable", "true");
    config.put("iceberg.control.comit.interval-ms", "1000");
    Map<String, List<String>> errors = errors(config);
    assertThat(errors)
        .containsOnlyKeys("iceberg.tables.auto-create-enable", "iceberg.control.comit.interval-ms");
    assertThat(errors.get("iceberg.tables.auto-create-enable").get(0))
        .contains("did you mean iceberg.tables.auto-create-enabled?");
    assertThat(errors.get("iceberg.control.comit.interval-ms").get(0))
        .contains("did you mean iceberg.control.commit.interval-ms?");
  }

  @Test
  void acceptsAnyKeyUnderThePassThroughPrefixesAndFlagsAnUnrelatedOne() {
    Map<String, String> config = valid();
    config.put("iceberg.catalog.warehouse", "s3://bucket/wh");
    config.put("iceberg.kafka.security.protocol", "SASL_SSL");
    config.put("iceberg.tables.auto-create-props.format-version", "2");
    config.put("iceberg.tables.write-props.write.parquet.compression-codec", "zstd");
    assertThat(errors(config)).isEmpty();

    config.put("iceberg.something-else", "x");
    assertThat(errors(config).get("iceberg.something-else"))
        .singleElement()
        .asString()
        .contains("Unknown key iceberg.something-else (a typo?)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
            + " password=\"p\";",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\""
            + " password=\"a;b com.sun.security.auth.module.JndiLoginModule required\";",
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
        "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;",
        "software.amazon.msk.auth.iam.IAMLoginModule required;"
      })
  void acceptsTheStandardSaslLoginModules(String jaas) {
    Map<String, String> config = valid();
    config.put("iceberg.kafka.sasl.jaas.config", jaas);
    assertThat(errors(config)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "com.sun.security.auth.module.JndiLoginModule required"
            + " user.provider.url=\"ldap://evil/x\";",
        "org.apache.kafka.common.security.plain.PlainLoginModule required;"
            + " /* hidden */ com.example.Ldap required;",
        "org.apache.kafka.common.security.plain.PlainLoginModule required; // c\n"
            + " com.example.Ldap required;"
      })
  void rejectsOtherSaslLoginModulesWithoutEchoingTheConfig(String jaas) {
    Map<String, String> config = valid();
    config.put("iceberg.kafka.sasl.jaas.config", jaas);
    assertThat(errors(config).get("iceberg.kafka.sasl.jaas.config"))
        .singleElement()
        .asString()
        .contains("is not allowed for the control-topic clients")
        .doesNotContain("evil");
  }

  @Test
  void acceptsReadCommittedSourceConsumersAndRejectsAnyOtherLevelOnItsKey() {
    Map<String, String> config = valid();
    config.put("consumer.override.isolation.level", "read_committed");
    assertThat(errors(config)).isEmpty();
    config.put("consumer.override.isolation.level", "read_uncommitted");
    assertThat(errors(config))
        .containsOnlyKeys("consumer.override.isolation.level")
        .extractingByKey(
            "consumer.override.isolation.level", InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("read_committed")
        .contains("aborted");
  }

  @Test
  void aConnectorThatReadsUncommittedDoesNotStart() {
    Map<String, String> config = valid();
    config.put("consumer.override.isolation.level", "read_uncommitted");
    assertThatThrownBy(() -> new IcebergSinkConnector().start(config))
        .isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
        .hasMessageContaining("consumer.override.isolation.level");
  }

  @ParameterizedTest
  @CsvSource({
    "consumer.override.enable.auto.commit, true, commits the source offsets itself",
    "consumer.override.enable.auto.commit, ' TRUE ', commits the source offsets itself",
    "consumer.override.auto.offset.reset, latest, are never read",
    "consumer.override.auto.offset.reset, none, a task fails"
  })
  void rejectsSourceConsumerOverridesThatBreakExactlyOnceOnTheirKeySayingWhy(
      String key, String value, String why) {
    Map<String, String> config = valid();
    config.put(key, value);
    assertThat(errors(config))
        .containsOnlyKeys(key)
        .extractingByKey(key, InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains(why);
    assertThatThrownBy(() -> new IcebergSinkConnector().start(config))
        .isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
        .hasMessageStartingWith(key + ": ");
  }

  @Test
  void rejectsSourceTopicsOnAnotherClusterThanTheControlTopicSayingWhatToSet() {
    Map<String, String> config = valid();
    config.put("iceberg.kafka.bootstrap.servers", "control-1:9092");
    config.put("consumer.override.bootstrap.servers", "source-1:9092,source-2:9092");
    assertThat(errors(config))
        .containsOnlyKeys("consumer.override.bootstrap.servers")
        .extractingByKey(
            "consumer.override.bootstrap.servers", InstanceOfAssertFactories.list(String.class))
        .singleElement()
        .asString()
        .contains("share no broker")
        .contains("set iceberg.kafka.bootstrap.servers to the same servers");

    config.put("iceberg.kafka.bootstrap.servers", "SASL_SSL://Source-2:9092, other:9092");
    assertThat(errors(config)).as("a shared broker: one cluster").isEmpty();
  }

  @Test
  void acceptsTheSourceConsumerOverridesThatKeepExactlyOnce() {
    Map<String, String> config = valid();
    config.put("consumer.override.enable.auto.commit", "false");
    config.put("consumer.override.auto.offset.reset", "earliest");
    assertThat(errors(config)).isEmpty();
  }

  /**
   * A validate answer as Connect renders it: each value through {@code ConfigDef.convertToString}
   * with its key's type (none for a key outside the ConfigDef), and its error messages.
   */
  private static String rendered(Config config) {
    return config.configValues().stream()
        .map(
            v -> {
              var key = FloeSinkConfig.CONFIG_DEF.configKeys().get(v.name());
              return v.name()
                  + "="
                  + ConfigDef.convertToString(v.value(), key == null ? null : key.type)
                  + " "
                  + v.errorMessages();
            })
        .collect(Collectors.joining("\n"));
  }

  @Test
  void theValidateAnswerQuotesNoSecretOfAPassThroughKeyEvenInAnError() {
    String canary = "canary-0b9d44e1";
    Map<String, String> config = valid();
    config.put("iceberg.catalog.jdbc.password", canary);
    config.put("iceberg.catalog.s3.secret-access-key", canary + "-s3");
    config.put("iceberg.kafka.ssl.key.password", canary + "-key");
    config.put("iceberg.kafka.sasl.jaas.config", "NoModule required password=\"" + canary + "\";");
    config.put("value.converter.basic.auth.user.info", "user:" + canary);
    config.put("iceberg.catalgo.password", canary); // a typo, reported as an unknown key

    Config result = new IcebergSinkConnector().validate(config);

    assertThat(errors(config))
        .containsKeys("iceberg.kafka.sasl.jaas.config", "iceberg.catalgo.password");
    assertThat(rendered(result)).doesNotContain(canary);
  }
}
