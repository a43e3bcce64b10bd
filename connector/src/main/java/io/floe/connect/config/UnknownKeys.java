/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Flags {@code iceberg.*} keys that Floe does not know and that no pass-through prefix takes: most
 * likely a typo, which would otherwise be silently ignored (a misspelt {@code
 * iceberg.tables.auto-create-enabled} leaves tables uncreated). The error suggests the closest
 * known key.
 */
final class UnknownKeys {
  /** Prefixes whose keys go to another component as they are, so any name is accepted. */
  static final List<String> PASS_THROUGH =
      List.of(
          CatalogKeys.CATALOG_PREFIX,
          CatalogKeys.HADOOP_PREFIX,
          KafkaKeys.KAFKA_PREFIX,
          TableKeys.AUTO_CREATE_PROPS_PREFIX,
          WriterKeys.WRITE_PROPS_PREFIX);

  private UnknownKeys() {}

  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    Set<String> known = FloeSinkConfig.CONFIG_DEF.names();
    for (String key : props.keySet()) {
      if (!key.startsWith("iceberg.")
          || known.contains(key)
          || key.startsWith(TableConfig.PREFIX)
          || PASS_THROUGH.stream().anyMatch(key::startsWith)) {
        continue;
      }
      ConfigValidation.error(
          values,
          key,
          "Unknown key "
              + key
              + closest(key, known).map(k -> ": did you mean " + k + "?").orElse(" (a typo?).")
              + " Floe reads only the keys in its configuration reference and passes on those"
              + " under "
              + String.join(", ", PASS_THROUGH)
              + ".");
    }
  }

  /** The known key nearest to {@code key} by edit distance, if it is near enough to be a typo. */
  static Optional<String> closest(String key, Set<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = distance(key, candidate);
      if (distance < bestDistance || (distance == bestDistance && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = distance;
      }
    }
    int tolerated = Math.max(2, key.length() / 5);
    return bestDistance <= tolerated ? Optional.of(best) : Optional.empty();
  }

  /** Levenshtein distance, two rows. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
