/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** An HTTP answer of the registry: status and body, always sent as registry JSON. */
record Reply(int status, byte[] body) {
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  static Reply json(Object value) {
    return new Reply(200, Json.write(value));
  }

  /** A bare schema text, sent as is (it is JSON already). */
  static Reply text(String text) {
    return new Reply(200, text.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code {"error_code":..,"message":..}} with the error's HTTP status. */
  static Reply error(RegistryException error) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error_code", error.errorCode());
    body.put("message", error.getMessage());
    return new Reply(error.status(), Json.write(body));
  }
}
