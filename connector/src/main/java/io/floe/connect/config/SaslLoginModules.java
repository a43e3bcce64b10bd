/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JAAS login modules the control-topic clients accept in a pass-through {@code
 * iceberg.kafka.sasl.jaas.config}, or inherit from the worker: Kafka's PLAIN, SCRAM and OAUTHBEARER
 * modules, Kerberos, and Amazon MSK's IAM module (SASL mechanism {@code AWS_MSK_IAM}, with its
 * callback handler {@code software.amazon.msk.auth.iam.IAMClientCallbackHandler}; the plugin
 * bundles both). Any other module (JNDI or LDAP based ones in particular) could make the worker
 * load code or contact hosts named in a connector config, so it is refused.
 */
final class SaslLoginModules {
  static final String JAAS_CONFIG = "sasl.jaas.config";

  static final Set<String> ALLOWED =
      Set.of(
          "org.apache.kafka.common.security.plain.PlainLoginModule",
          "org.apache.kafka.common.security.scram.ScramLoginModule",
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
          "com.sun.security.auth.module.Krb5LoginModule",
          "software.amazon.msk.auth.iam.IAMLoginModule");

  private SaslLoginModules() {}

  /** Why {@code jaasConfig} is refused, or empty if every module in it is allowed. */
  static Optional<String> problem(String jaasConfig) {
    List<String> modules = modules(jaasConfig);
    if (modules.isEmpty()) {
      return Optional.of(
          "Not a JAAS configuration: expected '<LoginModule class> required <options>;'.");
    }
    for (String module : modules) {
      if (!ALLOWED.contains(module)) {
        return Optional.of(
            "Login module "
                + module
                + " is not allowed for the control-topic clients: use one of PlainLoginModule,"
                + " ScramLoginModule, OAuthBearerLoginModule (org.apache.kafka.common.security.*),"
                + " com.sun.security.auth.module.Krb5LoginModule or"
                + " software.amazon.msk.auth.iam.IAMLoginModule.");
      }
    }
    return Optional.empty();
  }

  /**
   * The first token of every entry of a JAAS configuration (its login module class), in order.
   * Quoted option values and comments are removed first, as Kafka's own parser skips them, so
   * nothing can hide a module from this check.
   */
  static List<String> modules(String jaasConfig) {
    String text =
        jaasConfig
            .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
            .replaceAll("(?s)/\\*.*?\\*/", " ")
            .replaceAll("//[^\\n]*", " ");
    List<String> modules = new ArrayList<>();
    for (String entry : text.split(";")) {
      String trimmed = entry.strip();
      if (!trimmed.isEmpty()) {
        modules.add(trimmed.split("\\s+", 2)[0]);
      }
    }
    return modules;
  }
}
