/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * A control-topic message this Floe cannot turn into an event. The subclass says why, so the caller
 * can decide to skip the message or to fail.
 */
public abstract sealed class ControlEventException extends RuntimeException
    permits UnsupportedEventException, CorruptEventException {

  ControlEventException(String message, Throwable cause) {
    super(message, cause);
  }
}
