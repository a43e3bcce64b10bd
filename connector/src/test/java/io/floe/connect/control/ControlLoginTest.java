/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;

import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.Test;

/**
 * A failed login of the control clients reads as what is wrong: the causes the JDK gives for a TLS
 * handshake are turned into the setting to change, with the endpoint and Kafka's own chain kept.
 */
class ControlLoginTest {
  private static final String ENDPOINT = "10.0.0.7:9093 (security.protocol=SSL)";

  private static String message(Throwable cause) {
    SslAuthenticationException e = new SslAuthenticationException("SSL handshake failed");
    e.initCause(cause);
    return ControlLogin.explain(e, ENDPOINT).getMessage();
  }

  @Test
  void anUntrustedBrokerNamesTheTruststore() {
    assertThat(
            message(
                new SSLHandshakeException(
                    "PKIX path building failed: unable to find valid certification path to"
                        + " requested target")))
        .startsWith(
            "The control clients could not log in to the Kafka cluster of the control topic at "
                + ENDPOINT)
        .contains("the broker's certificate is not trusted")
        .contains("iceberg.kafka.ssl.truststore.location")
        .contains("SSL handshake failed; javax.net.ssl.SSLHandshakeException: PKIX");
  }

  @Test
  void anExpiredBrokerCertificateOrClientCertificateIsToldApart() {
    assertThat(
            message(
                new SSLHandshakeException(
                    "PKIX path validation failed: java.security.cert.CertPathValidatorException:"
                        + " validity check failed")))
        .contains("the broker's certificate, or one that signed it, has expired");
    assertThat(message(new SSLHandshakeException("Received fatal alert: certificate_expired")))
        .contains("the broker refused the control clients' certificate: it has expired")
        .contains("iceberg.kafka.ssl.keystore.location");
  }

  @Test
  void aRefusedClientCertificateAndAWrongAddressAreNamed() {
    assertThat(message(new SSLHandshakeException("Received fatal alert: certificate_unknown")))
        .contains("not signed by an authority the broker trusts");
    assertThat(
            message(
                new SSLHandshakeException(
                    "No subject alternative names matching IP address 10.0.0.7 found")))
        .contains("does not name the address connected to");
  }

  @Test
  void aRefusedSaslLoginNamesTheSaslSettings() {
    assertThat(
            ControlLogin.explain(
                    new SaslAuthenticationException("Authentication failed: invalid credentials"),
                    ENDPOINT)
                .getMessage())
        .contains("the broker refused their login")
        .contains("iceberg.kafka.sasl.*")
        .contains("invalid credentials");
  }
}
