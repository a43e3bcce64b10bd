/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * A partition spec as users write it: comma-separated terms, each a column name (identity), {@code
 * year(c)}, {@code month(c)}, {@code day(c)}, {@code hour(c)}, {@code bucket(c, N)} or {@code
 * truncate(c, W)}. {@code bucket[N](c)} and {@code truncate[W](c)} are accepted too. Columns may be
 * nested ({@code a.b}). Parsing checks the syntax; {@link #toSpec(Schema)} checks the columns.
 */
public final class PartitionBy {
  private static final String COLUMN = "([^\\s(),\\[\\]]+)";
  private static final Pattern IDENTITY = Pattern.compile(COLUMN);
  private static final Pattern TIME =
      Pattern.compile(
          "(year|years|month|months|day|days|hour|hours)\\(\\s*" + COLUMN + "\\s*\\)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern WIDTH_ARG =
      Pattern.compile(
          "(bucket|truncate)\\(\\s*" + COLUMN + "\\s*,\\s*(\\d+)\\s*\\)", Pattern.CASE_INSENSITIVE);
  private static final Pattern WIDTH_BRACKET =
      Pattern.compile(
          "(bucket|truncate)\\[\\s*(\\d+)\\s*\\]\\(\\s*" + COLUMN + "\\s*\\)",
          Pattern.CASE_INSENSITIVE);

  /** One term of the spec. */
  public record Term(String transform, String column, int width) {
    @Override
    public String toString() {
      return switch (transform) {
        case "identity" -> column;
        case "bucket", "truncate" -> transform + "(" + column + ", " + width + ")";
        default -> transform + "(" + column + ")";
      };
    }
  }

  private static final PartitionBy UNPARTITIONED = new PartitionBy(List.of());

  private final List<Term> terms;

  private PartitionBy(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  public static PartitionBy unpartitioned() {
    return UNPARTITIONED;
  }

  /**
   * Parses a spec; blank means unpartitioned.
   *
   * @throws IllegalArgumentException naming the term that does not parse
   */
  public static PartitionBy parse(String text) {
    if (text == null || text.isBlank()) {
      return UNPARTITIONED;
    }
    List<Term> terms = new ArrayList<>();
    for (String raw : splitTerms(text)) {
      terms.add(parseTerm(raw.trim()));
    }
    return new PartitionBy(terms);
  }

  /** Splits on commas outside parentheses and brackets. */
  private static List<String> splitTerms(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(' || c == '[') {
        depth++;
      } else if (c == ')' || c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private static Term parseTerm(String term) {
    if (term.isEmpty()) {
      throw new IllegalArgumentException("empty partition term");
    }
    Matcher time = TIME.matcher(term);
    if (time.matches()) {
      String unit = time.group(1).toLowerCase(Locale.ROOT);
      return new Term(
          unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit, time.group(2), 0);
    }
    Matcher arg = WIDTH_ARG.matcher(term);
    if (arg.matches()) {
      return new Term(
          arg.group(1).toLowerCase(Locale.ROOT), arg.group(2), width(term, arg.group(3)));
    }
    Matcher bracket = WIDTH_BRACKET.matcher(term);
    if (bracket.matches()) {
      return new Term(
          bracket.group(1).toLowerCase(Locale.ROOT),
          bracket.group(3),
          width(term, bracket.group(2)));
    }
    if (IDENTITY.matcher(term).matches()) {
      return new Term("identity", term, 0);
    }
    throw new IllegalArgumentException(
        "cannot parse partition term '"
            + term
            + "': use a column name, year(c), month(c), day(c), hour(c), bucket(c, N) or"
            + " truncate(c, W)");
  }

  private static int width(String term, String digits) {
    try {
      int width = Integer.parseInt(digits);
      if (width <= 0) {
        throw new IllegalArgumentException("the width in '" + term + "' must be positive");
      }
      return width;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the width in '" + term + "' is too large", e);
    }
  }

  public List<Term> terms() {
    return terms;
  }

  public boolean isUnpartitioned() {
    return terms.isEmpty();
  }

  /**
   * The Iceberg spec for {@code schema}.
   *
   * @throws IllegalArgumentException naming the term whose column is missing or whose transform
   *     does not apply to the column's type
   */
  public PartitionSpec toSpec(Schema schema) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    for (Term term : terms) {
      if (schema.findField(term.column()) == null) {
        throw new IllegalArgumentException(
            "partition term '"
                + term
                + "' names column '"
                + term.column()
                + "', which the schema lacks");
      }
      try {
        switch (term.transform()) {
          case "identity" -> builder.identity(term.column());
          case "year" -> builder.year(term.column());
          case "month" -> builder.month(term.column());
          case "day" -> builder.day(term.column());
          case "hour" -> builder.hour(term.column());
          case "bucket" -> builder.bucket(term.column(), term.width());
          case "truncate" -> builder.truncate(term.column(), term.width());
          default -> throw new IllegalStateException("unknown transform " + term.transform());
        }
      } catch (IllegalArgumentException | ValidationException e) {
        throw new IllegalArgumentException(
            "partition term '" + term + "' does not apply: " + e.getMessage(), e);
      }
    }
    try {
      return builder.build();
    } catch (ValidationException e) {
      throw new IllegalArgumentException(
          "partition spec '" + this + "' does not apply: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return terms.isEmpty()
        ? "(unpartitioned)"
        : String.join(", ", terms.stream().map(Term::toString).toList());
  }
}
