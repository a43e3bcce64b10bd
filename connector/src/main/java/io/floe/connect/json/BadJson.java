/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import org.apache.kafka.connect.errors.DataException;

/**
 * A JSON value that does not fit its schema, thrown from where it was found and given its path on
 * the way out: each container it passes through adds its step ({@code a.b}, {@code a[]}, {@code
 * a{key}}, {@code a{value}}, the paths Floe's conversion errors use). Says what was expected and
 * what kind of value was found, never the value. Without a stack trace: it is a message, turned
 * into a {@link DataException} at the converter's boundary.
 */
final class BadJson extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String problem;
  private String path = "";

  BadJson(String problem) {
    super(problem, null, false, false);
    this.problem = problem;
  }

  /** This error, one level further out: inside the struct field {@code name}. */
  BadJson inField(String name) {
    path =
        path.isEmpty() || path.startsWith("[") || path.startsWith("{")
            ? name + path
            : name + "." + path;
    return this;
  }

  /**
   * This error, one level further out: a step such as {@code []}, {@code {key}}, {@code {value}}.
   */
  BadJson inStep(String step) {
    path =
        step + (path.isEmpty() || path.startsWith("[") || path.startsWith("{") ? path : "." + path);
    return this;
  }

  String path() {
    return path;
  }

  String problem() {
    return problem;
  }

  @Override
  public String getMessage() {
    return message("The payload");
  }

  /** The message about {@code subject} (the payload, the record's schema) at this path. */
  String message(String subject) {
    return subject + (path.isEmpty() ? "" : " at " + path) + ": " + problem;
  }

  /** The error as Connect's converters report a record that cannot be converted. */
  DataException toDataException(String subject) {
    return new DataException(message(subject));
  }
}
