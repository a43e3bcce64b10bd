/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.contract.Contract;
import io.floe.connect.contract.TestContracts;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class SubjectContractCheckTest {
  private static final Contract ORDERS =
      Contract.parse(
          TestContracts.orders(
              "id integer required",
              "customer string required",
              "site.country string required",
              "amount number",
              "placed timestamp"));
  private static final Contract OPTIONAL_ONLY =
      Contract.parse(
          TestContracts.orders(
              "id integer", "customer string", "site.country string", "amount number"));

  static Schema record(String fields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"fields\":["
                + fields
                + "]}");
  }

  static final String SITE =
      "{\"name\":\"site\",\"type\":{\"type\":\"record\",\"name\":\"Site\",\"fields\":["
          + "{\"name\":\"country\",\"type\":\"string\"}]}}";
  static final String ALL_FIELDS =
      "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"customer\",\"type\":\"string\"},"
          + SITE
          + ",{\"name\":\"amount\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":"
          + "\"decimal\",\"precision\":9,\"scale\":2}],\"default\":null},"
          + "{\"name\":\"placed\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}";

  private static List<String> schemaProblems(Schema schema, CompatibilityLevel level) {
    return SubjectContractCheck.schemaProblems(schema, ORDERS, level, false, false);
  }

  @ParameterizedTest
  @EnumSource(
      value = CompatibilityLevel.class,
      names = {"FULL_TRANSITIVE", "FORWARD_TRANSITIVE"})
  void aTransitiveLevelThatReadsNewDataWithOldSchemasProtectsRequiredFields(
      CompatibilityLevel level) {
    assertThat(SubjectContractCheck.levelProblems(level, ORDERS)).isEmpty();
  }

  @Test
  void noneProtectsNothing() {
    assertThat(SubjectContractCheck.levelProblems(CompatibilityLevel.NONE, ORDERS))
        .containsExactly(
            "NONE checks nothing: a new schema may drop a required field, make it nullable or"
                + " change a field's type");
    // a contract of types only is not protected by NONE either
    assertThat(SubjectContractCheck.levelProblems(CompatibilityLevel.NONE, OPTIONAL_ONLY))
        .hasSize(1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "BACKWARD | only checks that a new schema reads the earlier data: it lets a new schema"
            + " drop the required fields [id, customer, site.country] or make them nullable",
        "BACKWARD_TRANSITIVE | only checks that a new schema reads the earlier data: it lets a new"
            + " schema drop the required fields [id, customer, site.country] or make them nullable",
        "FORWARD | checks a new schema against the latest version only: a required field of [id,"
            + " customer, site.country] given a default in one version may be dropped in the next",
        "FULL | checks a new schema against the latest version only: a required field of [id,"
            + " customer, site.country] given a default in one version may be dropped in the next"
      })
  void aLevelThatDoesNotReadNewDataWithEveryEarlierSchemaLetsARequiredFieldGo(
      CompatibilityLevel level, String why) {
    assertThat(SubjectContractCheck.levelProblems(level, ORDERS))
        .containsExactly(level + " " + why);
  }

  @ParameterizedTest
  @EnumSource(
      value = CompatibilityLevel.class,
      names = {"BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FULL", "FULL_TRANSITIVE"})
  void aContractWithoutRequiredFieldsIsProtectedByEveryLevelButNone(CompatibilityLevel level) {
    assertThat(SubjectContractCheck.levelProblems(level, OPTIONAL_ONLY)).isEmpty();
  }

  @Test
  void aSchemaWithTheRequiredFieldsNonNullAndOfTheContractsTypesKeepsIt() {
    assertThat(schemaProblems(record(ALL_FIELDS), CompatibilityLevel.FULL_TRANSITIVE)).isEmpty();
  }

  @Test
  void aRequiredFieldMissingNullableOrWithADefaultIsTold() {
    Schema schema =
        record(
            "{\"name\":\"id\",\"type\":\"long\",\"default\":0},"
                + "{\"name\":\"site\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Site\","
                + "\"fields\":[{\"name\":\"country\",\"type\":\"string\"}]}],\"default\":null}");
    assertThat(schemaProblems(schema, CompatibilityLevel.FULL_TRANSITIVE))
        .containsExactly(
            "it gives the required field id a default, so FULL_TRANSITIVE lets a new version drop"
                + " it",
            "it has no field customer, which the contract requires",
            "it lets the required field site.country be null (a union with null on its way)");
    // under a level that lets any field go, the default changes nothing: the level is told
    assertThat(schemaProblems(schema, CompatibilityLevel.BACKWARD))
        .containsExactly(
            "it has no field customer, which the contract requires",
            "it lets the required field site.country be null (a union with null on its way)");
  }

  @Test
  void aFieldOfAnotherTypeThanTheContractsIsTold() {
    Schema schema =
        record(
            "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"customer\",\"type\":\"string\"},"
                + SITE
                + ",{\"name\":\"amount\",\"type\":\"bytes\"},"
                + "{\"name\":\"placed\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}}");
    assertThat(schemaProblems(schema, CompatibilityLevel.FULL_TRANSITIVE))
        .containsExactly(
            "its field id is string, where the contract says integer",
            "its field amount is bytes, where the contract says number",
            "its field placed is int (date), where the contract says timestamp");
  }

  @Test
  void aConnectTypeNameIsTakenAsMatchingTheContractsType() {
    Schema schema =
        record(
            ALL_FIELDS.replace(
                "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
                "{\"type\":\"long\",\"connect.name\":\"io.debezium.time.MicroTimestamp\"}"));
    assertThat(schemaProblems(schema, CompatibilityLevel.FULL_TRANSITIVE)).isEmpty();
  }

  @Test
  void changeEventsAreCheckedInTheirAfterImage() {
    Schema value =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Value\",\"namespace\":\"shop\",\"fields\":["
                    + ALL_FIELDS.replace("\"id\"", "\"ID\"")
                    + "]}");
    Schema envelope =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Envelope\",\"namespace\":\"shop\",\"fields\":["
                    + "{\"name\":\"before\",\"type\":[\"null\","
                    + value
                    + "],\"default\":null},"
                    + "{\"name\":\"after\",\"type\":[\"null\",\"shop.Value\"],\"default\":null},"
                    + "{\"name\":\"op\",\"type\":\"string\"}]}");
    assertThat(
            SubjectContractCheck.schemaProblems(
                envelope, ORDERS, CompatibilityLevel.FULL_TRANSITIVE, true, true))
        .isEmpty();
    // matched by exact name, ID is not id
    assertThat(
            SubjectContractCheck.schemaProblems(
                envelope, ORDERS, CompatibilityLevel.FULL_TRANSITIVE, true, false))
        .containsExactly("it has no field id, which the contract requires");
    // read as a plain record, the envelope has none of the fields
    assertThat(
            SubjectContractCheck.schemaProblems(
                envelope, ORDERS, CompatibilityLevel.FULL_TRANSITIVE, false, true))
        .hasSize(3);
  }

  @Test
  void aSchemaThatIsNoRecordHasNoRequiredField() {
    assertThat(schemaProblems(Schema.create(Schema.Type.STRING), CompatibilityLevel.FULL))
        .containsExactly(
            "it is a string, not a record, so it has none of the required fields [id, customer,"
                + " site.country]");
  }

  @Test
  void levelsAreReadInAnyCaseAndUnknownOnesAreEmpty() {
    assertThat(CompatibilityLevel.forName(" full_transitive "))
        .contains(CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(CompatibilityLevel.forName("SOMETIMES")).isEmpty();
    assertThat(CompatibilityLevel.forName(null)).isEmpty();
  }
}
