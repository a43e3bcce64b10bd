/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * The catalog could not be loaded because it (or the database or server behind it) was out of
 * reach, not because it is misconfigured: worth waiting for.
 */
public final class CatalogUnreachableException extends ConnectException {
  private static final long serialVersionUID = 1L;

  public CatalogUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
