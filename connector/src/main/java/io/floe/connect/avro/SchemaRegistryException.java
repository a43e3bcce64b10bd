/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * The schema registry cannot be used, whatever the record: it stayed unreachable (or answered 5xx)
 * on every URL through all retries, refused the credentials (401) or the access (403), or answered
 * something that is not the registry API. Messages name the registry by its URL without user info,
 * and never carry a credential.
 *
 * <p>A record whose schema the registry does not know is a {@link
 * org.apache.kafka.connect.errors.DataException} instead: that record is bad, the registry is fine.
 */
public class SchemaRegistryException extends ConnectException {
  private static final long serialVersionUID = 1L;

  public SchemaRegistryException(String message) {
    super(message);
  }

  public SchemaRegistryException(String message, Throwable cause) {
    super(message, cause);
  }
}
