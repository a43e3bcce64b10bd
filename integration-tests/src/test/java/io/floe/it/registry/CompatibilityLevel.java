/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityResult;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * The compatibility levels of the Confluent API and what each demands of a new schema, decided by
 * Avro's own {@link SchemaCompatibility} reader/writer check.
 *
 * <p>BACKWARD: the new schema can read data written with the previous one. FORWARD: the previous
 * schema can read data written with the new one. FULL: both. The {@code _TRANSITIVE} levels check
 * every earlier version instead of only the latest.
 */
enum CompatibilityLevel {
  NONE(false, false, false),
  BACKWARD(true, false, false),
  BACKWARD_TRANSITIVE(true, false, true),
  FORWARD(false, true, false),
  FORWARD_TRANSITIVE(false, true, true),
  FULL(true, true, false),
  FULL_TRANSITIVE(true, true, true);

  static final CompatibilityLevel DEFAULT = BACKWARD;

  private final boolean newReadsOld;
  private final boolean oldReadsNew;
  private final boolean transitive;

  CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
    this.newReadsOld = newReadsOld;
    this.oldReadsNew = oldReadsNew;
    this.transitive = transitive;
  }

  /** The level named, in any letter case, or empty for null or an unknown name. */
  static Optional<CompatibilityLevel> forName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** An earlier version of the subject, for the check and its report. */
  record Previous(int version, Schema schema) {}

  /**
   * Checks a candidate against the earlier versions of a subject.
   *
   * @param previous the subject's live versions, newest first
   * @return one line per problem found; empty when the candidate is acceptable
   */
  List<String> problems(Schema candidate, List<Previous> previous) {
    List<Previous> checked = transitive || previous.isEmpty() ? previous : previous.subList(0, 1);
    List<String> problems = new ArrayList<>();
    for (Previous earlier : checked) {
      if (newReadsOld) {
        problems.addAll(
            check(candidate, earlier.schema(), "new schema reading version " + earlier.version()));
      }
      if (oldReadsNew) {
        problems.addAll(
            check(
                earlier.schema(),
                candidate,
                "version " + earlier.version() + " reading new schema"));
      }
    }
    return problems;
  }

  private static List<String> check(Schema reader, Schema writer, String direction) {
    SchemaCompatibilityResult result =
        SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult();
    if (result.getCompatibility() == SchemaCompatibilityType.COMPATIBLE) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    for (Incompatibility incompatibility : result.getIncompatibilities()) {
      lines.add(
          "{errorType:'"
              + incompatibility.getType()
              + "', location:'"
              + incompatibility.getLocation()
              + "', description:'"
              + incompatibility.getMessage()
              + "', check:'"
              + direction
              + "'}");
    }
    return lines;
  }
}
