/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.Locale;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * A failed login of the control clients, told as what is wrong and which setting to change: Kafka
 * says only "SSL handshake failed", and what the JDK found (a certificate not trusted, expired, or
 * not naming the broker's address) hides in the causes.
 */
public final class ControlLogin {
  private static final String TRUSTSTORE =
      "iceberg.kafka.ssl.truststore.location (or the worker's ssl.truststore.location)";
  private static final String KEYSTORE =
      "iceberg.kafka.ssl.keystore.location (or the worker's ssl.keystore.location)";

  private static final String LOGIN_REFUSED =
      "the broker refused their login. Check iceberg.kafka.sasl.* (or the worker's sasl.*).";

  private ControlLogin() {}

  /**
   * @param endpoint where the control clients connect, e.g. {@code 10.0.0.1:9093
   *     (security.protocol=SSL)}
   */
  public static ConnectException explain(AuthenticationException e, String endpoint) {
    return new ConnectException(message(e, endpoint), e);
  }

  static String message(AuthenticationException e, String endpoint) {
    String causes = causes(e);
    return "The control clients could not log in to the Kafka cluster of the control topic at "
        + endpoint
        + ": "
        + (e instanceof SslAuthenticationException ? tlsReason(causes) : LOGIN_REFUSED)
        + " ("
        + causes
        + ")";
  }

  private static String tlsReason(String causes) {
    String lower = causes.toLowerCase(Locale.ROOT);
    if (lower.contains("certificateexpiredexception")
        || lower.contains("validity check failed")
        || lower.contains("notafter")) {
      return "the TLS handshake failed because the broker's certificate, or one that signed it, has"
          + " expired or is not valid yet. Renew the broker's certificate.";
    }
    if (lower.contains("certificate_expired")) {
      return "the broker refused the control clients' certificate: it has expired. Renew the"
          + " certificate in "
          + KEYSTORE
          + ".";
    }
    if (lower.contains("pkix path") || lower.contains("unable to find valid certification path")) {
      return "the TLS handshake failed because the broker's certificate is not trusted: no"
          + " certificate authority in the control clients' truststore signed it. Check "
          + TRUSTSTORE
          + ".";
    }
    if (lower.contains("no subject alternative")
        || lower.contains("no name matching")
        || lower.contains("hostname")) {
      return "the TLS handshake failed because the broker's certificate does not name the address"
          + " connected to. Connect to a name the certificate holds, or give the broker a"
          + " certificate for this address.";
    }
    if (lower.contains("certificate_required") || lower.contains("bad_certificate")) {
      return "the broker requires a client certificate and refused the control clients' one (or"
          + " got none). Check "
          + KEYSTORE
          + ": the broker's truststore must hold the authority that signed it.";
    }
    if (lower.contains("certificate_unknown")) {
      return "the broker refused the control clients' certificate: it is not signed by an"
          + " authority the broker trusts, or it has expired. Check "
          + KEYSTORE
          + ".";
    }
    return "the TLS handshake failed. Check the iceberg.kafka.ssl.* settings (or the worker's"
        + " ssl.*) against the broker's listener.";
  }

  /** Kafka's message and each cause's, outermost first: where the JDK says what failed. */
  private static String causes(Throwable error) {
    StringBuilder messages = new StringBuilder(String.valueOf(error.getMessage()));
    Throwable cause = error.getCause();
    while (cause != null && cause != cause.getCause()) {
      messages.append("; ").append(cause);
      cause = cause.getCause();
    }
    return messages.toString();
  }
}
