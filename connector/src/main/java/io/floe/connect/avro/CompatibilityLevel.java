/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.Locale;
import java.util.Optional;

/**
 * A compatibility level of the Confluent registry API: what the registry checks a new schema of a
 * subject against before it takes it. BACKWARD: the new schema reads data written with the earlier
 * one. FORWARD: the earlier schema reads data written with the new one. FULL: both. The {@code
 * _TRANSITIVE} levels check against every earlier version, the others against the latest only.
 */
public enum CompatibilityLevel {
  NONE(false, false, false),
  BACKWARD(true, false, false),
  BACKWARD_TRANSITIVE(true, false, true),
  FORWARD(false, true, false),
  FORWARD_TRANSITIVE(false, true, true),
  FULL(true, true, false),
  FULL_TRANSITIVE(true, true, true);

  private final boolean newReadsOld;
  private final boolean oldReadsNew;
  private final boolean transitive;

  CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
    this.newReadsOld = newReadsOld;
    this.oldReadsNew = oldReadsNew;
    this.transitive = transitive;
  }

  /** The level a registry names, in any letter case; empty for a name Floe does not know. */
  public static Optional<CompatibilityLevel> forName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether the registry checks that the new schema can read what the earlier one wrote. */
  public boolean newReadsOld() {
    return newReadsOld;
  }

  /**
   * Whether the registry checks that the earlier schema can read what the new one writes: the only
   * check that refuses a new schema without a field the earlier one has and gives no default, or
   * with such a field turned nullable.
   */
  public boolean oldReadsNew() {
    return oldReadsNew;
  }

  /** Whether the registry checks against every earlier version, not only the latest. */
  public boolean transitive() {
    return transitive;
  }
}
