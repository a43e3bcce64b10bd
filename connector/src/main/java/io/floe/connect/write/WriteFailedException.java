/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * Writing a row failed for a reason that is not the record's: a data file could not be written,
 * rolled or uploaded (the object store is unreachable, say). The task's writers refuse further work
 * until {@link SinkWriter#reset} drops what they hold; the record itself is not a bad record.
 */
public final class WriteFailedException extends ConnectException {
  private static final long serialVersionUID = 1L;

  public WriteFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
