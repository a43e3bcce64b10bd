/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/** HTTP basic authentication with one user, or none at all. */
final class BasicAuth {
  private static final BasicAuth OPEN = new BasicAuth(null);

  /** {@code user:password} as bytes, or null when every request is let in. */
  private final byte[] credentials;

  private BasicAuth(byte[] credentials) {
    this.credentials = credentials;
  }

  static BasicAuth open() {
    return OPEN;
  }

  static BasicAuth of(String user, String password) {
    if (user == null || user.isEmpty() || user.contains(":") || password == null) {
      throw new IllegalArgumentException("Basic auth needs a user without ':' and a password");
    }
    return new BasicAuth((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** True when the request may pass, given its {@code Authorization} header (or null). */
  boolean permits(String authorization) {
    if (credentials == null) {
      return true;
    }
    if (authorization == null) {
      return false;
    }
    String[] parts = authorization.trim().split("\\s+", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Basic")) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getDecoder().decode(parts[1].trim());
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(given, credentials);
  }

  boolean enabled() {
    return credentials != null;
  }
}
