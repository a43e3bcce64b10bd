/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** Keys under a pass-through prefix, which Floe hands to another component as they are. */
final class PrefixedKeys {
  private PrefixedKeys() {}

  /** The keys of {@code props} under {@code prefix}, with the prefix removed, sorted. */
  static Map<String, String> strip(Map<String, ?> props, String prefix) {
    Map<String, String> result = new TreeMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            result.put(key.substring(prefix.length()), String.valueOf(value));
          }
        });
    return Collections.unmodifiableMap(result);
  }
}
