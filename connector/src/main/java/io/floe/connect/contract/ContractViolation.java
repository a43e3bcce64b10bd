/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import org.apache.kafka.connect.errors.DataException;

/**
 * A row that breaks a rule of its table's contract: a bad record, whose message names the table,
 * the contract, the rule and the field, and never the value (values may be personal data). It
 * carries no stack trace: it is an outcome of the data, told by its message.
 */
public final class ContractViolation extends DataException {
  private static final long serialVersionUID = 1L;

  private final String contractId;
  private final String contractVersion;
  private final String rule;
  private final String field;

  ContractViolation(String table, Contract contract, String rule, String field) {
    super(
        "the row breaks the rule "
            + rule
            + " of field "
            + field
            + " in the contract "
            + contract.describe()
            + " of table "
            + table);
    this.contractId = contract.id();
    this.contractVersion = contract.version();
    this.rule = rule;
    this.field = field;
  }

  /** The id of the contract whose rule was broken. */
  public String contractId() {
    return contractId;
  }

  /** The version of the contract whose rule was broken. */
  public String contractVersion() {
    return contractVersion;
  }

  /** The rule broken, by its name in the contract ({@code maximum}, {@code pattern}, …). */
  public String rule() {
    return rule;
  }

  /** The field whose rule was broken, by its full name. */
  public String field() {
    return field;
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
