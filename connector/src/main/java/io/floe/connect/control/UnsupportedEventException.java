/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * A well-formed message this Floe cannot read: not a Floe event at all, an event type it does not
 * know, or a payload written by a newer Floe in a way older readers cannot read.
 */
public final class UnsupportedEventException extends ControlEventException {

  /** Why the message is unsupported. */
  public enum Reason {
    /** The message does not start with the Floe magic bytes: another producer wrote it. */
    FOREIGN_FORMAT,
    /** The event type code is unknown to this Floe. */
    UNKNOWN_TYPE,
    /** The payload needs a reader of a newer schema version than this Floe has. */
    VERSION_TOO_NEW
  }

  private final Reason reason;

  UnsupportedEventException(Reason reason, String message) {
    super(message, null);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
