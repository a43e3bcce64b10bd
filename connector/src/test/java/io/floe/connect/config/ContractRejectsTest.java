/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a table's contract rejects go, and the mistakes {@code /config/validate} names. */
class ContractRejectsTest {
  private static final String REJECTS = "iceberg.table.analytics.buys.contract-rejects";
  private static final String REJECTS_TABLE = "iceberg.table.analytics.buys.contract-rejects-table";
  private static final String CONTRACT =
      "id: buys\nversion: 2\nschema:\n  - name: buys\n    properties:\n      - name: amount\n"
          + "        logicalType: number\n        logicalTypeOptions: {minimum: 0}\n";

  /** Two tables of a JDBC catalog, the second with a contract. */
  private static Map<String, String> contracted() {
    Map<String, String> config = MinimalConfigs.withoutBootstrapServers();
    config.put("iceberg.kafka.bootstrap.servers", "localhost:9092");
    config.put("iceberg.tables", "analytics.views,analytics.buys");
    config.put("iceberg.table.analytics.buys.contract", CONTRACT);
    return config;
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    return MinimalConfigs.errors(config);
  }

  private static String onlyError(Map<String, String> config, String key) {
    Map<String, List<String>> errors = errors(config);
    assertThat(errors).containsOnlyKeys(key);
    return errors.get(key).get(0);
  }

  @Test
  void rejectsAreDeadLetteredUnlessTheyGoToTheQuarantineTableNamedAfterTheTableByDefault() {
    Map<String, String> config = contracted();
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).tableConfig("analytics.buys").rejectsTable()).isEmpty();

    config.put(REJECTS, "dead-letter");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).tableConfig("analytics.buys").rejectsTable()).isEmpty();

    config.put(REJECTS, "table");
    assertThat(errors(config)).isEmpty();
    FloeSinkConfig parsed = new FloeSinkConfig(config);
    assertThat(parsed.tableConfig("analytics.buys").rejectsTable())
        .contains("analytics.buys__rejected");
    assertThat(parsed.tableConfig("analytics.views").rejectsTable()).isEmpty();

    config.put(REJECTS_TABLE, " audit.rejected_buys ");
    assertThat(errors(config)).isEmpty();
    assertThat(new FloeSinkConfig(config).tableConfig("analytics.buys").rejectsTable())
        .contains("audit.rejected_buys");
  }

  @Test
  void anUnknownWhereIsRefusedOnItsKeyNamingTheValuesItTakes() {
    Map<String, String> config = contracted();
    config.put(REJECTS, "quarantine");
    assertThat(onlyError(config, REJECTS))
        .isEqualTo(
            "Invalid value: 'quarantine' is not where rejects go: use dead-letter or table.");
    config.put(REJECTS, "Table");
    assertThat(onlyError(config, REJECTS)).endsWith("use dead-letter or table (in lower case).");
    assertThatThrownBy(() -> new FloeSinkConfig(config).tableConfig("analytics.buys"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(REJECTS + ": 'Table' is not where rejects go");
  }

  @Test
  void aQuarantineTableNeedsAContract() {
    Map<String, String> config = contracted();
    config.remove("iceberg.table.analytics.buys.contract");
    config.put(REJECTS, "table");
    assertThat(onlyError(config, REJECTS))
        .isEqualTo(
            "Table analytics.buys has no contract, so it refuses no record: set"
                + " iceberg.table.analytics.buys.contract, or remove this key.");
  }

  @Test
  void aQuarantineTableNamedWithoutRejectsGoingToItIsAMistakeOnItsKey() {
    Map<String, String> config = contracted();
    config.put(REJECTS_TABLE, "audit.rejected_buys");
    assertThat(onlyError(config, REJECTS_TABLE))
        .isEqualTo(
            "A quarantine table is used only when"
                + " iceberg.table.analytics.buys.contract-rejects=table: set that, or remove this"
                + " key.");
    config.put(REJECTS, "dead-letter");
    assertThat(onlyError(config, REJECTS_TABLE)).startsWith("A quarantine table is used only when");
  }

  @Test
  void aQuarantineTableThatIsARoutedTableIsRefusedOnTheKeyThatNamesIt() {
    Map<String, String> config = contracted();
    config.put(REJECTS, "table");
    config.put(REJECTS_TABLE, "Analytics.Views");
    assertThat(onlyError(config, REJECTS_TABLE))
        .isEqualTo(
            "The quarantine table Analytics.Views is a table records are routed to, and a"
                + " quarantine table holds rejects only: name another with "
                + REJECTS_TABLE
                + ".");
    config.put(REJECTS_TABLE, "analytics.buys");
    assertThat(onlyError(config, REJECTS_TABLE)).startsWith("The quarantine table analytics.buys");

    // the default name, taken by a listed table: the error goes on the key that chose it
    config.remove(REJECTS_TABLE);
    config.put("iceberg.tables", "analytics.views,analytics.buys,analytics.buys__rejected");
    assertThat(onlyError(config, REJECTS))
        .startsWith("The quarantine table analytics.buys__rejected is a table records are routed");
  }

  @Test
  void withDynamicRoutingTheQuarantineTableIsNotTheTableItself() {
    Map<String, String> config = contracted();
    config.remove("iceberg.tables");
    config.put("iceberg.tables.dynamic-enabled", "true");
    config.put("iceberg.tables.route-field", "table");
    config.put(REJECTS, "table");
    assertThat(errors(config)).isEmpty();
    config.put(REJECTS_TABLE, "analytics.buys");
    assertThat(onlyError(config, REJECTS_TABLE)).startsWith("The quarantine table analytics.buys");
  }

  @Test
  void aQuarantineTableNameWithWhitespaceIsRefused() {
    Map<String, String> config = contracted();
    config.put(REJECTS, "table");
    config.put(REJECTS_TABLE, "audit.rejected buys");
    assertThat(errors(config).get(REJECTS_TABLE))
        .singleElement(STRING)
        .isEqualTo(
            "'audit.rejected buys' is not a table name: give namespace.table, without"
                + " whitespace.");
  }

  @Test
  void rejectsOfATableNotListedAreATypo() {
    Map<String, String> config = contracted();
    config.put("iceberg.table.analytics.buy.contract-rejects", "table");
    assertThat(errors(config).get("iceberg.table.analytics.buy.contract-rejects"))
        .singleElement(STRING)
        .contains("is not listed in iceberg.tables");
  }
}
