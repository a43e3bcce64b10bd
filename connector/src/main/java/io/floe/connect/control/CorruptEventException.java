/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * A message that starts like a Floe event but cannot be decoded: truncated, with a length beyond
 * its end, with unexpected bytes after the payload, or with field values no valid event has.
 */
public final class CorruptEventException extends ControlEventException {

  CorruptEventException(String message, Throwable cause) {
    super(message, cause);
  }

  CorruptEventException(String message) {
    this(message, null);
  }
}
