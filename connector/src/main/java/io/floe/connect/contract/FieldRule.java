/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules a contract sets on one field, as written (the bounds and allowed values are read into
 * the column's values when the contract is compiled against a table schema, {@link
 * ContractChecker}).
 *
 * @param path the field's full name, dots between the names of nested struct fields
 * @param logicalType the contract's type of the field ({@code string}, {@code integer}, …), null if
 *     not given
 * @param physicalType the contract's physical type, free text, null if not given
 * @param required whether a row must have a value (not null) for the field
 * @param minimum the lower bound, a number or (dates, timestamps, times) an ISO-8601 text; null for
 *     none
 * @param minimumExclusive whether a value equal to {@code minimum} breaks the rule
 * @param maximum the upper bound, as {@code minimum}
 * @param maximumExclusive whether a value equal to {@code maximum} breaks the rule
 * @param minLength the least number of characters of a text, null for none
 * @param maxLength the most characters of a text, null for none
 * @param pattern a regular expression a text must contain a match of, null for none
 * @param allowed the values the field may take (numbers as {@link BigDecimal}, others as text or
 *     true/false), empty for any
 * @param unique whether no two rows of one commit cycle of an appending table may share a value
 */
public record FieldRule(
    String path,
    String logicalType,
    String physicalType,
    boolean required,
    Object minimum,
    boolean minimumExclusive,
    Object maximum,
    boolean maximumExclusive,
    Integer minLength,
    Integer maxLength,
    Pattern pattern,
    List<Object> allowed,
    boolean unique) {

  public static final String REQUIRED = "required";
  public static final String MINIMUM = "minimum";
  public static final String MAXIMUM = "maximum";
  public static final String EXCLUSIVE_MINIMUM = "exclusiveMinimum";
  public static final String EXCLUSIVE_MAXIMUM = "exclusiveMaximum";
  public static final String MIN_LENGTH = "minLength";
  public static final String MAX_LENGTH = "maxLength";
  public static final String PATTERN = "pattern";
  public static final String ENUM = "enum";
  public static final String UNIQUE = "unique";
  public static final String LOGICAL_TYPE = "logicalType";
  public static final String PHYSICAL_TYPE = "physicalType";

  public FieldRule {
    allowed = List.copyOf(allowed);
  }

  /** The name of the lower bound's rule, as a violation names it. */
  String minimumRule() {
    return minimumExclusive ? EXCLUSIVE_MINIMUM : MINIMUM;
  }

  /** The name of the upper bound's rule, as a violation names it. */
  String maximumRule() {
    return maximumExclusive ? EXCLUSIVE_MAXIMUM : MAXIMUM;
  }

  /** Whether the field has a rule on its value besides being required. */
  boolean checksValue() {
    return minimum != null
        || maximum != null
        || minLength != null
        || maxLength != null
        || pattern != null
        || !allowed.isEmpty();
  }

  /**
   * The rules as one line each ({@code amount maximum 1000}), in a fixed order: what a change of
   * contract is told by.
   */
  List<String> describe() {
    List<String> rules = new ArrayList<>();
    if (logicalType != null) {
      rules.add(path + " " + LOGICAL_TYPE + " " + logicalType);
    }
    if (required) {
      rules.add(path + " " + REQUIRED);
    }
    if (minimum != null) {
      rules.add(path + " " + minimumRule() + " " + text(minimum));
    }
    if (maximum != null) {
      rules.add(path + " " + maximumRule() + " " + text(maximum));
    }
    if (minLength != null) {
      rules.add(path + " " + MIN_LENGTH + " " + minLength);
    }
    if (maxLength != null) {
      rules.add(path + " " + MAX_LENGTH + " " + maxLength);
    }
    if (pattern != null) {
      rules.add(path + " " + PATTERN + " " + pattern.pattern());
    }
    if (unique) {
      rules.add(path + " " + UNIQUE);
    }
    if (!allowed.isEmpty()) {
      rules.add(path + " " + ENUM + " " + allowed.stream().map(FieldRule::text).toList());
    }
    return rules;
  }

  /** A bound or allowed value as a contract writes it: numbers in plain digits. */
  private static String text(Object value) {
    return value instanceof BigDecimal number ? number.toPlainString() : String.valueOf(value);
  }
}
