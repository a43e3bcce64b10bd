/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Consumer;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ContractCheckerTest {
  private static final Types.StructType CUSTOMER =
      Types.StructType.of(
          optional(6, "country", Types.StringType.get()),
          optional(7, "tier", Types.LongType.get()));
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "amount", Types.DoubleType.get()),
          optional(3, "email", Types.StringType.get()),
          optional(4, "status", Types.StringType.get()),
          optional(5, "customer", CUSTOMER));

  private final ContractChecker checker =
      ContractChecker.compile("db.orders", Contract.parse(ContractTest.ORDERS), SCHEMA);

  private static Record row(Consumer<Record> change) {
    Record customer = GenericRecord.create(CUSTOMER);
    customer.setField("country", "DE");
    customer.setField("tier", 2L);
    Record row = GenericRecord.create(SCHEMA);
    row.setField("id", 7L);
    row.setField("amount", 12.5);
    row.setField("email", "ann@example.com");
    row.setField("status", "paid");
    row.setField("customer", customer);
    change.accept(row);
    return row;
  }

  @Test
  void aRowKeepingEveryRulePasses() {
    checker.check(row(r -> {}));
    checker.check(row(r -> r.setField("amount", null)));
    checker.check(row(r -> r.setField("amount", 9999.99)));
    checker.check(row(r -> r.setField("email", "é".repeat(30) + "@x")));
    assertThat(checker.problems()).isEmpty();
  }

  @Test
  void aUniqueValueTakenSinceTheLastHandOverBreaksTheRuleOnceTheRowWasWritten() {
    Contract contract =
        Contract.parse(
            ContractTest.ORDERS
                .replace("required: true\n        description", "unique: true\n        description")
                .replace("- name: email\n", "- name: email\n        unique: true\n"));
    ContractChecker unique = ContractChecker.compile("db.orders", contract, SCHEMA);
    UniqueKeys keys = new UniqueKeys("db.orders", contract);
    assertThat(keys.heldBytes()).isZero();

    unique.checkUnique(row(r -> {}), keys);
    // checked and not written (another table refused the record): the value is not taken
    unique.checkUnique(row(r -> {}), keys);
    keys.admit();
    assertThat(keys.heldBytes()).isPositive();
    assertThatThrownBy(() -> unique.checkUnique(row(r -> {}), keys))
        .isInstanceOf(ContractViolation.class)
        .hasMessage(
            "the row breaks the rule unique of field id in the contract 'orders' version 1.2.0 of"
                + " table db.orders")
        .hasMessageNotContaining("7");
    assertThatThrownBy(() -> unique.checkUnique(row(r -> r.setField("id", 8L)), keys))
        .isInstanceOfSatisfying(
            ContractViolation.class,
            violation -> {
              assertThat(violation.rule()).isEqualTo("unique");
              assertThat(violation.field()).isEqualTo("email");
            });
    // nulls are no value: any number of rows may lack one
    for (int i = 0; i < 3; i++) {
      long id = 100 + i;
      unique.checkUnique(
          row(
              r -> {
                r.setField("id", id);
                r.setField("email", null);
              }),
          keys);
      keys.admit();
    }
    // many values, through the tables' growth
    for (long id = 1000; id < 50_000; id++) {
      long value = id;
      unique.checkUnique(
          row(
              r -> {
                r.setField("id", value);
                r.setField("email", "u" + value + "@example.org");
              }),
          keys);
      keys.admit();
    }
    assertThatThrownBy(
            () ->
                unique.checkUnique(
                    row(
                        r -> {
                          r.setField("id", 1L);
                          r.setField("email", "u49999@example.org");
                        }),
                    keys))
        .hasMessageContaining("unique of field email");
    assertThat(keys.heldBytes()).isEqualTo(2L * 16 * (1 << 17));

    keys.clear();
    assertThat(keys.heldBytes()).isZero();
    unique.checkUnique(row(r -> {}), keys);
  }

  @Test
  void aBrokenRuleIsNamedWithItsFieldAndNeverTheValue() {
    assertBroken(row(r -> r.setField("amount", -0.01)), "minimum", "amount");
    assertBroken(row(r -> r.setField("amount", 10000.0)), "exclusiveMaximum", "amount");
    assertBroken(row(r -> r.setField("amount", Double.NaN)), "minimum", "amount");
    assertBroken(row(r -> r.setField("email", "secret-not-an-email")), "pattern", "email");
    assertBroken(row(r -> r.setField("email", "a@" + "b".repeat(63))), "maxLength", "email");
    assertBroken(row(r -> r.setField("status", "lost")), "enum", "status");
    assertBroken(
        row(r -> ((Record) r.getField("customer")).setField("country", null)),
        "required",
        "customer.country");
    assertBroken(row(r -> r.setField("customer", null)), "required", "customer.country");
    assertBroken(
        row(r -> ((Record) r.getField("customer")).setField("country", "DEU")),
        "maxLength",
        "customer.country");
    assertBroken(
        row(r -> ((Record) r.getField("customer")).setField("tier", 4L)), "enum", "customer.tier");
  }

  @Test
  void aTableThatDoesNotMatchTheContractBreaksTheRuleInEveryRow() {
    Schema other =
        new Schema(
            required(1, "id", Types.StringType.get()),
            optional(2, "amount", Types.DoubleType.get()));
    ContractChecker mismatched =
        ContractChecker.compile("db.orders", Contract.parse(ContractTest.ORDERS), other);
    assertThat(mismatched.problems())
        .containsExactly(
            "field id is a string column, and the contract's logicalType is integer",
            "field customer.country is required and the table has no such column");
    Record row = GenericRecord.create(other);
    row.setField("id", "7");
    assertThatThrownBy(() -> mismatched.check(row))
        .isInstanceOfSatisfying(
            ContractViolation.class, v -> assertThat(v.rule()).isEqualTo("logicalType"));
  }

  private void assertBroken(Record row, String rule, String field) {
    assertThatThrownBy(() -> checker.check(row))
        .isInstanceOfSatisfying(
            ContractViolation.class,
            v -> {
              assertThat(v.rule()).isEqualTo(rule);
              assertThat(v.field()).isEqualTo(field);
              assertThat(v.getMessage())
                  .isEqualTo(
                      "the row breaks the rule "
                          + rule
                          + " of field "
                          + field
                          + " in the contract 'orders' version 1.2.0 of table db.orders")
                  .doesNotContain("secret");
            });
  }
}
