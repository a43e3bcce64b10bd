/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The credentials of a connector configuration that are, or may be, written in clear text rather
 * than as a config provider reference ({@code ${provider:path:key}}), for the one notice the
 * connector logs at start. Only key names are ever quoted, never values.
 *
 * <p>Connect resolves provider references before the connector sees its configuration, in {@code
 * validate} as in {@code start}: a value that came from a provider and one typed in clear text look
 * the same here. What Floe can know is whether the worker defines any config provider at all
 * ({@link WorkerKafka#configProviders}). When it defines none, every credential is certainly in
 * clear text, stored so in Connect's config topic and shown by {@code GET
 * /connectors/<name>/config}: that is a warning. When it defines some, or its configuration cannot
 * be found, Floe cannot tell and says so at INFO.
 *
 * @param keys the keys that hold a credential, sorted
 * @param workerProviders the worker's config providers, if its configuration was found
 */
public record ClearTextSecrets(List<String> keys, Optional<List<String>> workerProviders) {
  private static final String REFERENCE = "${file:/path/to/secrets.properties:key}";

  public ClearTextSecrets {
    keys = List.copyOf(keys);
    workerProviders = workerProviders.map(List::copyOf);
  }

  /** The credentials of {@code props}, as the connector receives them, on {@code worker}. */
  public static ClearTextSecrets of(Map<String, String> props, WorkerKafka worker) {
    return new ClearTextSecrets(Secrets.keysHoldingSecrets(props), worker.configProviders());
  }

  /**
   * Whether the credentials are certainly in clear text: the worker is known to have no provider.
   */
  public boolean certain() {
    return !keys.isEmpty() && workerProviders.map(List::isEmpty).orElse(false);
  }

  /** The warning to log when credentials are certainly in clear text. */
  public Optional<String> warning() {
    return certain()
        ? Optional.of(
            "Credentials given in clear text in "
                + String.join(", ", keys)
                + ": the Connect worker defines no config provider (config.providers), so Connect"
                + " stores these values as written and shows them to anyone who can read the"
                + " connector's configuration. Define a config provider on the workers (for"
                + " example FileConfigProvider) and set each of these keys to a reference such as "
                + REFERENCE
                + ".")
        : Optional.empty();
  }

  /** The note to log when Floe cannot tell whether credentials came through a provider. */
  public Optional<String> note() {
    if (keys.isEmpty() || certain()) {
      return Optional.empty();
    }
    String worker =
        workerProviders
            .map(p -> "the worker defines " + String.join(", ", p))
            .orElse("the worker's configuration was not found");
    return Optional.of(
        "Credential-bearing keys set: %s. Connect resolves config provider references before the"
                .formatted(String.join(", ", keys))
            + " connector sees them, so Floe cannot tell whether these came through one ("
            + worker
            + "); each should be a reference such as "
            + REFERENCE
            + ".");
  }
}
