/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The TLS key stores and trust stores of the Kafka clients a connector configures: Floe's control
 * clients ({@code iceberg.kafka.*}) and the clients Connect makes for it ({@code
 * consumer.override.*}, {@code producer.override.*}, {@code admin.override.*}). Each store given
 * with its password is opened at validation, so that a missing store, a wrong password, or a
 * certificate that has expired or is not valid yet is reported on the key to change, instead of
 * failing a TLS handshake later with Kafka's "SSL handshake failed".
 */
final class KafkaTlsStores {
  /** The prefixes of the connector's Kafka clients, and which clients each one configures. */
  static final Map<String, String> CLIENTS =
      Map.of(
          KafkaKeys.KAFKA_PREFIX,
          "Floe's control clients",
          "consumer.override.",
          "the sink task's consumer",
          "producer.override.",
          "the dead-letter queue's producer",
          "admin.override.",
          "the dead-letter queue's admin client");

  private KafkaTlsStores() {}

  /** Reports each store's problem on its location key. */
  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    Instant now = Instant.now();
    CLIENTS.forEach(
        (prefix, clients) -> {
          for (String store : List.of("keystore", "truststore")) {
            String location = prefix + "ssl." + store + ".location";
            problem(props, prefix, store, clients, now)
                .ifPresent(problem -> ConfigValidation.error(values, location, problem));
          }
        });
  }

  /**
   * What is wrong with the {@code store} ("keystore" or "truststore") that the keys under {@code
   * prefix} name, at {@code now}; empty when it is fine, not set, a PEM store, given without a
   * password (Kafka then opens it as it can), or by a config provider reference the worker left
   * unresolved (it defines no such provider, and will refuse the connector for it).
   */
  static Optional<String> problem(
      Map<String, String> props, String prefix, String store, String clients, Instant now) {
    String key = prefix + "ssl." + store;
    String location = props.get(key + ".location");
    String password = props.get(key + ".password");
    String type = props.getOrDefault(key + ".type", KeyStore.getDefaultType());
    if (location == null
        || location.isBlank()
        || password == null
        || location.contains("${")
        || password.contains("${")
        || type.toUpperCase(Locale.ROOT).equals("PEM")) {
      return Optional.empty();
    }
    KeyStore keys;
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      keys = KeyStore.getInstance(type);
      keys.load(in, password.toCharArray());
    } catch (NoSuchFileException e) {
      return Optional.of(
          "No " + store + " at " + location + " on this worker, for " + clients + ".");
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return Optional.of(
          "Cannot open the "
              + store
              + " "
              + location
              + " of "
              + clients
              + " as "
              + type
              + " ("
              + e.getMessage()
              + "): check "
              + key
              + ".password and "
              + key
              + ".type.");
    }
    try {
      List<X509Certificate> certificates =
          store.equals("keystore") ? ownCertificates(keys) : trustedCertificates(keys);
      return validity(certificates, store, location, clients, now);
    } catch (GeneralSecurityException e) {
      return Optional.of(
          "Cannot read the certificates of the " + store + " " + location + ": " + e.getMessage());
    }
  }

  /** The first certificate of each key entry's chain: what the clients present to the broker. */
  private static List<X509Certificate> ownCertificates(KeyStore keys)
      throws GeneralSecurityException {
    List<X509Certificate> own = new ArrayList<>();
    for (String alias : Collections.list(keys.aliases())) {
      if (keys.isKeyEntry(alias) && keys.getCertificate(alias) instanceof X509Certificate cert) {
        own.add(cert);
      }
    }
    return own;
  }

  private static List<X509Certificate> trustedCertificates(KeyStore keys)
      throws GeneralSecurityException {
    List<X509Certificate> trusted = new ArrayList<>();
    for (String alias : Collections.list(keys.aliases())) {
      Certificate cert = keys.getCertificate(alias);
      if (keys.isCertificateEntry(alias) && cert instanceof X509Certificate x509) {
        trusted.add(x509);
      }
    }
    return trusted;
  }

  /** A problem when no certificate of the store is valid at {@code now}. */
  private static Optional<String> validity(
      List<X509Certificate> certificates,
      String store,
      String location,
      String clients,
      Instant now) {
    if (certificates.isEmpty()) {
      return Optional.of(
          "The "
              + store
              + " "
              + location
              + " of "
              + clients
              + " holds no "
              + (store.equals("keystore") ? "key with its certificate" : "trusted certificate")
              + ".");
    }
    X509Certificate first = certificates.get(0);
    for (X509Certificate cert : certificates) {
      if (!now.isBefore(cert.getNotBefore().toInstant())
          && !now.isAfter(cert.getNotAfter().toInstant())) {
        return Optional.empty();
      }
    }
    boolean expired = now.isAfter(first.getNotAfter().toInstant());
    String consequence =
        store.equals("keystore")
            ? "the broker will refuse " + clients + " at the TLS handshake. Renew it."
            : clients + " will trust no broker. Add the current certificate authority.";
    return Optional.of(
        "The certificate "
            + first.getSubjectX500Principal().getName()
            + " in the "
            + store
            + " "
            + location
            + (expired
                ? " expired on " + first.getNotAfter().toInstant()
                : " is not valid before " + first.getNotBefore().toInstant())
            + ": "
            + consequence);
  }
}
