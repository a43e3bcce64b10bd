/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.Optional;

/**
 * The kinds of control event, each with the one-byte code that identifies it on the wire. Codes are
 * never reused: a retired type keeps its code.
 */
public enum EventType {
  /** Coordinator to workers: start a commit cycle. */
  START_COMMIT(1),
  /** Worker to coordinator: a manifest of files written for one table. */
  DATA_WRITTEN(2),
  /** Worker to coordinator: the worker has reported everything for the cycle. */
  DATA_COMPLETE(3),
  /** Coordinator to workers: the cycle is committed. */
  COMMIT_COMPLETE(4),
  /** Worker to coordinator: please start a cycle early. */
  COMMIT_REQUEST(5);

  private final int code;

  EventType(int code) {
    this.code = code;
  }

  /** The code of this type on the wire (1 to 255). */
  public int code() {
    return code;
  }

  /** The type with {@code code}, or empty when this version of Floe does not know it. */
  public static Optional<EventType> fromCode(int code) {
    for (EventType type : values()) {
      if (type.code == code) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
