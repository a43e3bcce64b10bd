/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.IcebergSinkConnector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PerTableValidationTest {

  private static Map<String, String> routed() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", IcebergSinkConnector.class.getName());
    config.put("topics", "events");
    config.put("iceberg.catalog.type", "rest");
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    config.put("iceberg.tables", "analytics.views,analytics.buys");
    config.put("iceberg.tables.route-field", "type");
    config.put("iceberg.table.analytics.views.route-regex", "view");
    config.put("iceberg.table.analytics.buys.route-regex", "buy|refund");
    config.put("iceberg.table.analytics.buys.partition-by", "day(ts), bucket(customer, 16)");
    return config;
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    return MinimalConfigs.errors(config);
  }

  @Test
  void acceptsRouteRulesForEveryTable() {
    assertThat(errors(routed())).isEmpty();
    FloeSinkConfig config = new FloeSinkConfig(routed());
    TableConfig buys = config.tableConfig("analytics.buys");
    assertThat(buys.routeRegex())
        .hasValueSatisfying(p -> assertThat(p.pattern()).isEqualTo("buy|refund"));
    assertThat(buys.partitionBy().terms()).hasSize(2);
    assertThat(config.tableConfig("analytics.views").partitionBy().isUnpartitioned()).isTrue();
  }

  @Test
  void checksATablesOwnMaintenanceSetting() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buys.maintenance-enabled", "false");
    assertThat(errors(config)).isEmpty();
    config.put("iceberg.table.analytics.buys.maintenance-enabled", "nope");
    assertThat(errors(config)).containsOnlyKeys("iceberg.table.analytics.buys.maintenance-enabled");
  }

  @Test
  void aTablesOwnCommitBranchWinsOverTheDefaultWhichWinsOverMain() {
    Map<String, String> config = routed();
    assertThat(new FloeSinkConfig(config).commitBranch("analytics.buys")).isEqualTo("main");
    config.put("iceberg.tables.default-commit-branch", "staging");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).commitBranch("analytics.buys")).isEqualTo("staging");
    config.put("iceberg.table.analytics.buys.commit-branch", "audit");
    assertThat(errors(config)).isEmpty();
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    assertThat(parsed.commitBranch("analytics.buys")).isEqualTo("audit");
    assertThat(parsed.commitBranch("analytics.other")).isEqualTo("staging");
    config.put("iceberg.tables.default-commit-branch", "");
    config.put("iceberg.table.analytics.buys.commit-branch", "main");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).commitBranch("analytics.other")).isEqualTo("main");
  }

  @Test
  void aContractIsReadAndABadOneRefusedOnItsKeySayingWhatToFix() {
    Map<String, String> config = routed();
    String key = "iceberg.table.analytics.buys.contract";
    config.put(
        key,
        "id: buys\nversion: 2\nschema:\n  - name: buys\n    properties:\n      - name: amount\n"
            + "        logicalType: number\n        logicalTypeOptions: {minimum: 0}\n");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).tableConfig("analytics.buys").contract())
        .hasValueSatisfying(c -> assertThat(c.rules()).contains("amount minimum 0"));
    assertThat(new FloeSinkConfig(config).tableConfig("analytics.views").contract()).isEmpty();

    config.put(key, config.get(key).replace("minimum", "minimun"));
    assertThat(errors(config))
        .containsOnlyKeys(key)
        .hasEntrySatisfying(
            key,
            messages ->
                assertThat(messages)
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("Invalid contract: field amount has the option minimun")
                    .contains("it checks exclusiveMaximum, exclusiveMinimum, maximum, minimum"));
    config.put(key, "/no/such/contract.yaml");
    assertThat(errors(config).get(key))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("no contract file at '/no/such/contract.yaml'");
  }

  @Test
  void aUniqueFieldIsRefusedOnAnUpsertTable() {
    Map<String, String> config = routed();
    String key = "iceberg.table.analytics.buys.contract";
    config.put(
        key,
        "id: buys\nversion: 2\nschema:\n  - name: buys\n    properties:\n      - name: id\n"
            + "        logicalType: integer\n        unique: true\n");
    assertThat(errors(config)).isEmpty();
    config.put("iceberg.table.analytics.buys.upsert-mode-enabled", "true");
    assertThat(errors(config).get(key))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("Invalid contract: field id is unique, and the table is in upsert mode");
    config.remove("iceberg.table.analytics.buys.upsert-mode-enabled");
    config.put("iceberg.tables.upsert-mode-enabled", "true");
    assertThat(errors(config)).containsKey(key);
  }

  @Test
  void aBranchNameWithWhitespaceIsRefusedOnItsKey() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buys.commit-branch", "audit ");
    config.put("iceberg.tables.default-commit-branch", "my branch");
    Map<String, List<String>> errors = errors(config);
    assertThat(errors)
        .containsOnlyKeys(
            "iceberg.table.analytics.buys.commit-branch", "iceberg.tables.default-commit-branch");
    assertThat(errors.values())
        .allSatisfy(
            m ->
                assertThat(m.toString())
                    .contains("is not a branch name Floe commits to: it holds whitespace"));
    config.remove("iceberg.tables.default-commit-branch");
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> parsed.tableConfig("analytics.buys"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("iceberg.table.analytics.buys.commit-branch");
  }

  @Test
  void defaultIdColumnsApplyToTablesWithoutTheirOwn() {
    Map<String, String> config = routed();
    config.put("iceberg.tables.default-id-columns", "id, customer.id");
    config.put("iceberg.table.analytics.buys.id-columns", "order_id");
    assertThat(errors(config)).isEmpty();
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    assertThat(parsed.tableConfig("analytics.views").idColumns())
        .containsExactly("id", "customer.id");
    assertThat(parsed.tableConfig("analytics.buys").idColumns()).containsExactly("order_id");

    config.put("iceberg.tables.default-id-columns", "id,,x");
    assertThat(errors(config)).containsOnlyKeys("iceberg.tables.default-id-columns");
  }

  @Test
  void reportsAnInvalidRegexOnItsOwnKey() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.views.route-regex", "view(");
    assertThat(errors(config)).containsOnlyKeys("iceberg.table.analytics.views.route-regex");
  }

  @Test
  void reportsAnInvalidPartitionSpecOnItsOwnKey() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buys.partition-by", "week(ts)");
    assertThat(errors(config)).containsOnlyKeys("iceberg.table.analytics.buys.partition-by");
  }

  @Test
  void reportsAnInvalidDefaultPartitionSpec() {
    Map<String, String> config = routed();
    config.put("iceberg.tables.default-partition-by", "bucket(id)");
    assertThat(errors(config)).containsOnlyKeys("iceberg.tables.default-partition-by");
  }

  @Test
  void flagsSettingsOfUnlistedTablesAsLikelyTypos() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.bys.partition-by", "day(ts)");
    assertThat(errors(config))
        .containsOnlyKeys("iceberg.table.analytics.bys.partition-by")
        .extractingByKey("iceberg.table.analytics.bys.partition-by")
        .satisfies(m -> assertThat(m.toString()).contains("a typo?"));
  }

  @Test
  void flagsUnknownPerTableSettings() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buys.sort-order", "id");
    assertThat(errors(config)).containsOnlyKeys("iceberg.table.analytics.buys.sort-order");
  }

  @Test
  void aTableWithoutARouteRuleWouldReceiveNothing() {
    Map<String, String> config = routed();
    config.remove("iceberg.table.analytics.views.route-regex");
    assertThat(errors(config))
        .containsOnlyKeys("iceberg.tables")
        .extractingByKey("iceberg.tables")
        .satisfies(m -> assertThat(m.toString()).contains("analytics.views"));
  }

  @Test
  void aRouteRuleNeedsARouteField() {
    Map<String, String> config = routed();
    config.remove("iceberg.tables.route-field");
    assertThat(errors(config))
        .containsOnlyKeys(
            "iceberg.table.analytics.views.route-regex",
            "iceberg.table.analytics.buys.route-regex");
  }

  @Test
  void rejectsMalformedTableNames() {
    Map<String, String> config = routed();
    config.put("iceberg.tables", "analytics.views,analytics.buys,db..t");
    assertThat(errors(config)).containsKey("iceberg.tables");
  }

  @Test
  void parsesIdentifierColumnsInTheirOrder() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buys.id-columns", "order_id, customer.id");
    assertThat(errors(config)).isEmpty();
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    assertThat(parsed.tableConfig("analytics.buys").idColumns())
        .containsExactly("order_id", "customer.id");
    assertThat(parsed.tableConfig("analytics.views").idColumns()).isEmpty();
  }

  @Test
  void reportsMalformedIdentifierColumnsOnTheirOwnKey() {
    for (String value : List.of("", "id,", "id, id", "customer..id", ".id", "id.", "order id")) {
      Map<String, String> config = routed();
      config.put("iceberg.table.analytics.buys.id-columns", value);
      Map<String, List<String>> errors = errors(config);
      assertThat(errors)
          .as("id-columns=%s", value)
          .containsOnlyKeys("iceberg.table.analytics.buys.id-columns");
      assertThat(errors.get("iceberg.table.analytics.buys.id-columns").get(0))
          .as("id-columns=%s", value)
          .startsWith("Invalid identifier columns: ");
    }
  }

  @Test
  void identifierColumnsOfATableNotListedAreATypo() {
    Map<String, String> config = routed();
    config.put("iceberg.table.analytics.buyz.id-columns", "id");
    assertThat(errors(config)).containsOnlyKeys("iceberg.table.analytics.buyz.id-columns");
  }
}
