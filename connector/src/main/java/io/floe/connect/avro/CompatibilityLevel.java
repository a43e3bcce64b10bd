/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.Arrays;
import java.util.Optional;

/**
 * A compatibility level of the Confluent registry API: what the registry checks a new schema of a
 * subject against before it takes it. BACKWARD: the new schema reads data written with the earlier
 * one. FORWARD: the earlier schema reads data written with the new one. FULL: both. The {@code
 * _TRANSITIVE} levels check against every earlier version, the others against the latest only.
 */
public enum CompatibilityLevel {
  NONE,
  BACKWARD,
  BACKWARD_TRANSITIVE,
  FORWARD,
  FORWARD_TRANSITIVE,
  FULL,
  FULL_TRANSITIVE;

  private static final String TRANSITIVE = "_TRANSITIVE";

  /** The level a registry names, in any letter case; empty for a name Floe does not know. */
  public static Optional<CompatibilityLevel> forName(String name) {
    return name == null
        ? Optional.empty()
        : Arrays.stream(values())
            .filter(level -> level.name().equalsIgnoreCase(name.trim()))
            .findFirst();
  }

  /**
   * Whether the registry checks that the earlier schema can read what the new one writes (FORWARD
   * and FULL): the only check that refuses a new schema without a field the earlier one has and
   * gives no default, or with such a field turned nullable.
   */
  public boolean oldReadsNew() {
    return name().startsWith("FORWARD") || name().startsWith("FULL");
  }

  /** Whether the registry checks against every earlier version, not only the latest. */
  public boolean transitive() {
    return name().endsWith(TRANSITIVE);
  }
}
