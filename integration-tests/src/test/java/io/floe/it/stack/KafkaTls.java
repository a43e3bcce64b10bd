/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mutual TLS and ACLs for a {@link KafkaBroker}: one {@code SSL} listener for clients and the
 * broker itself, and an {@code SSL} controller listener, each requiring a client certificate issued
 * by the test's authority ({@link TlsCertificates}); Kafka's standard authorizer with {@code
 * allow.everyone.if.no.acl.found=false}.
 *
 * <p>A client's principal is the common name of its certificate ({@code CN=floe} logs in as {@code
 * User:floe}, by {@code ssl.principal.mapping.rules}); {@value #BROKER} (the broker and the
 * controller) and {@value #ADMIN} (the tests' admin client) are super users. Clients verify the
 * broker's host name, as they do by default: its certificate names 127.0.0.1.
 */
public final class KafkaTls implements BrokerSecurity {
  public static final String BROKER = "broker";
  public static final String ADMIN = "admin";

  private static final String LISTENER = "SSL";
  private static final String TYPE = "PKCS12";

  private final TlsCertificates authority;
  private final Path truststore;
  private final Path brokerKeystore;
  private final Path adminKeystore;

  private KafkaTls(TlsCertificates authority) {
    this.authority = authority;
    this.truststore = authority.truststore("truststore");
    this.brokerKeystore = authority.keystore(BROKER);
    this.adminKeystore = authority.keystore(ADMIN);
  }

  /** A broker that trusts {@code authority} only, with a certificate it issued. */
  public static KafkaTls mutual(TlsCertificates authority) {
    return new KafkaTls(authority);
  }

  /** The trust store of the authority, for clients. */
  public Path truststore() {
    return truststore;
  }

  /** The principal of a certificate's common name, as ACLs name it. */
  public static String principal(String commonName) {
    return "User:" + commonName;
  }

  @Override
  public Map<String, String> serverProperties(int port, int controllerPort) {
    Map<String, String> props =
        BrokerSecurity.listenersWithAcls(
            LISTENER, port, controllerPort, principal(BROKER) + ";" + principal(ADMIN));
    props.put("ssl.keystore.location", brokerKeystore.toString());
    props.put("ssl.keystore.password", authority.password());
    props.put("ssl.keystore.type", TYPE);
    props.put("ssl.truststore.location", truststore.toString());
    props.put("ssl.truststore.password", authority.password());
    props.put("ssl.truststore.type", TYPE);
    props.put("ssl.client.auth", "required");
    props.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+)$/$1/,DEFAULT");
    return props;
  }

  @Override
  public List<String> formatArguments() {
    return List.of();
  }

  @Override
  public Map<String, Object> adminLogin() {
    Map<String, Object> props = new LinkedHashMap<>();
    props.putAll(
        clientProperties(adminKeystore, authority.password(), truststore, authority.password()));
    return props;
  }

  /**
   * The client settings that log in with the certificate in {@code keystore}, trusting the stores
   * of {@code truststore}; the passwords as given (values or config provider references).
   */
  public static Map<String, String> clientProperties(
      Path keystore, String keystorePassword, Path truststore, String truststorePassword) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("security.protocol", LISTENER);
    props.put("ssl.keystore.location", keystore.toString());
    props.put("ssl.keystore.password", keystorePassword);
    props.put("ssl.keystore.type", TYPE);
    props.put("ssl.truststore.location", truststore.toString());
    props.put("ssl.truststore.password", truststorePassword);
    props.put("ssl.truststore.type", TYPE);
    return props;
  }

  /**
   * The settings under which a Connect worker logs in with the certificate in {@code keystore}: for
   * its own clients, and for the producers, consumers and admin clients it makes for connectors.
   */
  public Map<String, String> workerProperties(
      Path keystore, String keystorePassword, String truststorePassword) {
    Map<String, String> props = new LinkedHashMap<>();
    Map<String, String> login =
        clientProperties(keystore, keystorePassword, truststore, truststorePassword);
    for (String prefix : List.of("", "producer.", "consumer.", "admin.")) {
      login.forEach((key, value) -> props.put(prefix + key, value));
    }
    return props;
  }
}
