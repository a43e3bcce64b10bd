/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContractTest {
  static final String ORDERS =
      """
      apiVersion: v3.0.2
      kind: DataContract
      id: orders
      version: 1.2.0
      status: active
      schema:
        - name: orders
          logicalType: object
          properties:
            - name: id
              logicalType: integer
              required: true
              description: the order's number
            - name: amount
              logicalType: number
              logicalTypeOptions:
                minimum: 0
                exclusiveMaximum: 10000
            - name: email
              logicalType: string
              logicalTypeOptions:
                pattern: "^[^@]+@[^@]+$"
                maxLength: 64
            - name: status
              logicalType: string
              enum:
                - value: new
                - value: paid
            - name: customer
              logicalType: object
              properties:
                - name: country
                  logicalType: string
                  required: true
                  logicalTypeOptions:
                    minLength: 2
                    maxLength: 2
            - name: customer.tier
              logicalType: integer
              enum: [1, 2, 3]
      """;

  @TempDir Path dir;

  @Test
  void readsTheRulesOfEveryFieldNestedOrDotted() {
    Contract contract = Contract.parse(ORDERS);
    assertThat(contract.id()).isEqualTo("orders");
    assertThat(contract.version()).isEqualTo("1.2.0");
    assertThat(contract.sha256()).hasSize(64);
    assertThat(contract.fields())
        .extracting(FieldRule::path)
        .containsExactly(
            "id", "amount", "email", "status", "customer", "customer.country", "customer.tier");
    FieldRule amount = contract.fields().get(1);
    assertThat(amount.minimum()).isEqualTo(BigDecimal.ZERO);
    assertThat(amount.maximum()).isEqualTo(new BigDecimal("1E+4"));
    assertThat(amount.maximumExclusive()).isTrue();
    assertThat(contract.fields().get(3).allowed()).containsExactly("new", "paid");
    assertThat(contract.rules())
        .contains(
            "id required",
            "amount exclusiveMaximum 10000",
            "customer.country maxLength 2",
            "status enum [new, paid]");
  }

  @Test
  void jsonAndAFileReadAsInline() throws Exception {
    String json =
        """
        {"id": "c", "version": "1", "schema": [{"name": "t", "properties": [
          {"name": "n", "logicalType": "integer", "logicalTypeOptions": {"minimum": 1,
           "maximum": 5, "exclusiveMinimum": true}}]}]}""";
    Contract inline = Contract.read(json);
    assertThat(inline.rules())
        .containsExactly("n logicalType integer", "n exclusiveMinimum 1", "n maximum 5");
    Path file = dir.resolve("orders.yaml");
    Files.writeString(file, ORDERS);
    Contract fromFile = Contract.read(file.toString());
    assertThat(fromFile.rules()).isEqualTo(Contract.parse(ORDERS).rules());
    assertThat(fromFile.sha256()).isEqualTo(Contract.parse(ORDERS).sha256());
    assertThat(fromFile.sha256()).isNotEqualTo(inline.sha256());
  }

  @Test
  void theConfigExamplesContractIsOneFloeEnforces() throws Exception {
    com.fasterxml.jackson.databind.JsonNode example =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(Path.of("../config-examples/data-contract.json").toFile());
    Contract contract = Contract.read(example.get("iceberg.table.iot.readings.contract").asText());
    assertThat(contract.id()).isEqualTo("sensor-readings");
    assertThat(contract.rules())
        .contains("celsius maximum 150", "site.country maxLength 2", "sensor_id required");
  }

  @Test
  void refusesWhatItWouldNotEnforceSayingWhatToFix() {
    assertRefused(dir.resolve("missing.yaml").toString(), "no contract file at");
    assertRefused("id: [\nversion: 1\n", "not valid YAML (line");
    assertRefused("{\"id\": }", "not valid JSON");
    assertRefused(ORDERS.replace("id: orders\n", ""), "has no id");
    assertRefused(ORDERS.replace("apiVersion: v3.0.2", "apiVersion: v2.2.2"), "v3");
    assertRefused(ORDERS.replace("minimum: 0", "minimun: 0"), "option minimun");
    assertRefused(
        ORDERS.replace("required: true\n        description", "requird: true\n        description"),
        "'requird'");
    assertRefused(
        ORDERS.replace("pattern: \"^[^@]+@[^@]+$\"", "pattern: \"[a-\""),
        "not a valid regular expression");
    assertRefused(
        ORDERS.replace("maxLength: 64", "minimum: 3"),
        "option minimum, which Floe does not check on a field of logicalType string");
    assertRefused(
        ORDERS.replace("minimum: 0", "pattern: x"),
        "option pattern, which Floe does not check on a field of logicalType number");
    assertRefused(
        ORDERS.replace("minimum: 0", "minimum: zero"), "minimum of field amount is not a number");
    assertRefused(ORDERS.replace("enum: [1, 2, 3]", "enum: [1, 2.5]"), "not a whole number");
    assertRefused(
        ORDERS.replace(
            "logicalType: integer\n        required", "logicalType: int\n        required"),
        "logicalType 'int'");
    assertRefused(
        ORDERS.replace("- name: customer.tier", "- name: email.tier"),
        "field email.tier is named under email, which the contract makes a string");
    assertRefused(
        ORDERS.replace(
            "required: true\n        description", "unique: \"true\"\n        description"),
        "field id has unique: \"true\": write true or false");
    assertRefused(
        ORDERS.replace(
            "logicalType: object\n        properties:\n          - name: country",
            "logicalType: object\n        unique: true\n        properties:\n"
                + "          - name: country"),
        "field customer is unique and of logicalType object");
    assertRefused(ORDERS.replace("minimum: 0", "minimum: 20000"), "minimum above its maximum");
    assertRefused(ORDERS + "  - name: other\n", "lists 2 objects");
  }

  @Test
  void aUniqueFieldIsARule() {
    Contract contract =
        Contract.parse(
            ORDERS.replace(
                "required: true\n        description", "unique: true\n        description"));
    assertThat(contract.fields().get(0).unique()).isTrue();
    assertThat(contract.fields().get(1).unique()).isFalse();
    assertThat(contract.rules()).contains("id unique");
  }

  private static final String OBJECTIVES =
      """
      id: readings
      version: 1.0.0
      schema:
        - name: readings
          quality:
            - metric: rowCount
              mustBeGreaterThan: 9
              mustBeLessOrEqualTo: 5000
              dimension: completeness
          properties:
            - name: id
              logicalType: integer
      slaProperties:
        - property: latency
          value: 1.5
          unit: m
        - property: frequency
          value: 1
          unit: d
      """;

  @Test
  void readsTheVolumeAndFreshnessObjectives() {
    Objectives objectives = Contract.parse(OBJECTIVES).objectives();
    assertThat(objectives.minRows()).hasValue(10);
    assertThat(objectives.maxRows()).hasValue(5000);
    assertThat(objectives.latencyMs()).hasValue(90_000);
    assertThat(objectives.volumeHolds(10)).isTrue();
    assertThat(objectives.volumeHolds(9)).isFalse();
    assertThat(objectives.volumeHolds(5001)).isFalse();
    assertThat(Contract.parse(OBJECTIVES).rules())
        .endsWith("table rows per commit between 10 and 5000", "table latency at most 90000 ms");

    Objectives between =
        Contract.parse(
                OBJECTIVES
                    .replace("metric: rowCount", "rule: rowCount")
                    .replace("mustBeGreaterThan: 9\n", "mustBeBetween: [0, 20]\n")
                    .replace("mustBeLessOrEqualTo: 5000", "description: none"))
            .objectives();
    assertThat(between.minRows()).isEmpty();
    assertThat(between.maxRows()).hasValue(20);
    assertThat(Contract.parse(ORDERS).objectives()).isEqualTo(Objectives.NONE);
  }

  @Test
  void refusesObjectivesItCannotCheckSayingWhatToFix() {
    assertRefused(
        OBJECTIVES.replace("metric: rowCount", "metric: nullValues"),
        "quality rule nullValues, which Floe does not enforce yet");
    assertRefused(OBJECTIVES.replace("metric: rowCount", "type: sql"), "quality rule of type sql");
    assertRefused(
        OBJECTIVES.replace("mustBeGreaterThan: 9", "mustBeGreaterThan: 6000"),
        "allows no row count (at least 6001 and at most 5000)");
    assertRefused(
        OBJECTIVES.replace("mustBeGreaterThan: 9", "mustBeGreaterThan: many"),
        "mustBeGreaterThan that is not a whole number of rows");
    assertRefused(
        OBJECTIVES.replace("mustBeGreaterThan: 9", "mustBeBetween: [1]"),
        "write mustBeBetween: [lowest, highest]");
    assertRefused(
        OBJECTIVES.replace("mustBeGreaterThan: 9", "mustNotBe: 9"),
        "has mustNotBe, which Floe does not read");
    assertRefused(
        OBJECTIVES
            .replace("mustBeGreaterThan: 9", "unit: rows")
            .replace("mustBeLessOrEqualTo: 5000", "description: none"),
        "sets no bound");
    assertRefused(OBJECTIVES.replace("unit: m", "unit: fortnights"), "unit fortnights");
    assertRefused(OBJECTIVES.replace("value: 1.5", "value: -1"), "no positive value");
    assertRefused(
        OBJECTIVES.replace("unit: m\n", "unit: m\n    element: readings.ts\n"),
        "Floe measures freshness on the table's event-time watermark");
    assertRefused(
        OBJECTIVES.replace(
            "  - property: frequency",
            "  - property: latency\n    value: 2\n    unit: h\n  - property: frequency"),
        "more than one latency");
  }

  private static void assertRefused(String contract, String message) {
    assertThatThrownBy(() -> Contract.read(contract))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }
}
