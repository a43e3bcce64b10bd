/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Matches a request's method and raw path to an {@link Endpoint}, decoding path parameters only
 * after splitting, so a subject may contain an encoded {@code /}.
 */
final class Router {
  private Router() {}

  /** A matched endpoint and its decoded path parameters. */
  record Route(Endpoint endpoint, Map<String, String> params) {}

  /**
   * The endpoint for a request.
   *
   * @throws RegistryException 404 when no endpoint has this path, 405 when some endpoint has it but
   *     not with this method
   */
  static Route resolve(String method, String rawPath) {
    List<String> actual = segments(rawPath);
    boolean pathKnown = false;
    for (Endpoint endpoint : Endpoint.values()) {
      Optional<Map<String, String>> params = match(endpoint.segments(), actual);
      if (params.isPresent()) {
        if (endpoint.method().equals(method)) {
          return new Route(endpoint, params.get());
        }
        pathKnown = true;
      }
    }
    throw pathKnown ? RegistryException.methodNotAllowed() : RegistryException.notFound();
  }

  /** A path without its leading and trailing {@code /}, split at each {@code /}. */
  static List<String> segments(String path) {
    String trimmed = path;
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("/", -1));
  }

  private static Optional<Map<String, String>> match(List<String> template, List<String> actual) {
    if (template.size() != actual.size()) {
      return Optional.empty();
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < template.size(); i++) {
      String expected = template.get(i);
      String segment = actual.get(i);
      if (expected.startsWith("{")) {
        if (segment.isEmpty()) {
          return Optional.empty();
        }
        params.put(expected.substring(1, expected.length() - 1), decode(segment));
      } else if (!expected.equals(segment)) {
        return Optional.empty();
      }
    }
    return Optional.of(params);
  }

  /** Percent-decoding as in a URL path, where {@code +} is a plus, not a space. */
  private static String decode(String segment) {
    try {
      return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw RegistryException.badRequest("Malformed percent-encoding in path: " + segment);
    }
  }

  /** The query parameters of a raw query string; the last of repeated names wins. */
  static Map<String, String> query(String rawQuery) {
    Map<String, String> query = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        query.put(
            URLDecoder.decode(name, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw RegistryException.badRequest("Malformed percent-encoding in query: " + pair);
      }
    }
    return query;
  }

  /** A boolean query parameter: true only when given as {@code true}, in any letter case. */
  static boolean flag(Map<String, String> query, String name) {
    return Boolean.parseBoolean(query.get(name));
  }
}
