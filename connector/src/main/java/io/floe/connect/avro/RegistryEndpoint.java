/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.net.URI;
import java.util.Optional;

/**
 * One schema registry URL and the {@code Authorization} header sent to it. The URL holds no user
 * info; {@link #toString()} is the URL only, so an endpoint can be logged and put in messages.
 */
final class RegistryEndpoint {
  private final URI base;
  private final String authorization;

  /**
   * @param base the registry's base URL, without user info or trailing slash
   * @param authorization the {@code Authorization} header value, or null to send none
   */
  RegistryEndpoint(URI base, String authorization) {
    if (base.getRawUserInfo() != null) {
      throw new IllegalArgumentException("A registry endpoint's URL carries no user info");
    }
    this.base = base;
    this.authorization = authorization;
  }

  /** The URL of a path under the base, e.g. {@code /schemas/ids/7}. */
  URI resolve(String path) {
    return URI.create(base.toString() + path);
  }

  URI base() {
    return base;
  }

  Optional<String> authorization() {
    return Optional.ofNullable(authorization);
  }

  @Override
  public String toString() {
    return base.toString();
  }
}
