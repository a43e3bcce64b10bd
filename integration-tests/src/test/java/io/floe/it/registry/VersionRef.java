/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

/**
 * The {@code {version}} of a subject URL: a number in [1, 2^31-1], or {@code latest} (also written
 * {@code -1}).
 */
record VersionRef(int number) {
  static final int LATEST = -1;

  /** Parses a path segment; anything else is a 422 with error code 42202. */
  static VersionRef parse(String text) {
    String trimmed = text.trim();
    if (trimmed.equals("latest")) {
      return new VersionRef(LATEST);
    }
    int number;
    try {
      number = Integer.parseInt(trimmed);
    } catch (NumberFormatException e) {
      throw RegistryException.invalidVersion(text);
    }
    if (number <= 0 && number != LATEST) {
      throw RegistryException.invalidVersion(text);
    }
    return new VersionRef(number);
  }

  boolean isLatest() {
    return number == LATEST;
  }
}
