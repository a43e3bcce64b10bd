/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Data contracts at the sink: a table's contract, a subset of the Open Data Contract Standard v3
 * read from YAML or JSON ({@link Contract}, {@link ContractParser}), compiled once per table schema
 * into a {@link ContractChecker} that a converted row is checked with, and the {@link
 * ContractViolation} a row that breaks a rule is refused with (naming the rule and the field, never
 * the value).
 */
package io.floe.connect.contract;
