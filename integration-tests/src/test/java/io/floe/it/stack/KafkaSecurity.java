/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SASL and ACLs for a {@link KafkaBroker}: one {@code SASL_PLAINTEXT} listener for clients and the
 * broker itself (mechanisms PLAIN and SCRAM-SHA-512), a SASL/PLAIN controller listener, and Kafka's
 * standard authorizer with {@code allow.everyone.if.no.acl.found=false}.
 *
 * <p>The super user {@value #ADMIN} logs in with PLAIN (its password is in the broker's JAAS
 * configuration, so the broker and the controller can use it before any metadata exists); every
 * other user logs in with SCRAM-SHA-512, its credential written into the metadata log when the
 * storage is formatted ({@code kafka-storage format --add-scram}). Such a user may do nothing until
 * an ACL allows it ({@link Acls}).
 */
public final class KafkaSecurity implements BrokerSecurity {
  /** The super user: the broker, the controller, and the tests' admin client. */
  public static final String ADMIN = "admin";

  private static final String LISTENER = "SASL_PLAINTEXT";
  private static final String SCRAM = "SCRAM-SHA-512";
  private static final String PLAIN = "PLAIN";

  private final Map<String, String> passwords;

  private KafkaSecurity(Map<String, String> passwords) {
    this.passwords = Map.copyOf(passwords);
  }

  /** The super user and SCRAM-SHA-512 users with these names, each with its own password. */
  public static KafkaSecurity withScramUsers(String... users) {
    Map<String, String> passwords = new LinkedHashMap<>();
    passwords.put(ADMIN, ADMIN + "-pw");
    for (String user : users) {
      if (user.equals(ADMIN)) {
        throw new IllegalArgumentException(ADMIN + " is the super user already");
      }
      passwords.put(user, user + "-pw");
    }
    return new KafkaSecurity(passwords);
  }

  /**
   * The same users, with {@code user}'s password replaced; for a broker not yet started, as the
   * SCRAM credentials are written when its storage is formatted.
   */
  public KafkaSecurity withPassword(String user, String password) {
    if (!passwords.containsKey(user) || user.equals(ADMIN)) {
      throw new IllegalArgumentException("No SCRAM user " + user);
    }
    Map<String, String> changed = new LinkedHashMap<>(passwords);
    changed.put(user, password);
    return new KafkaSecurity(changed);
  }

  /** The JAAS configuration with which a SCRAM user logs in. */
  public static String scramJaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + user
        + "\" password=\""
        + password
        + "\";";
  }

  /** The principal of a user, as ACLs name it. */
  public static String principal(String user) {
    return "User:" + user;
  }

  @Override
  public Map<String, String> serverProperties(int port, int controllerPort) {
    Map<String, String> props =
        BrokerSecurity.listenersWithAcls(LISTENER, port, controllerPort, principal(ADMIN));
    props.put("sasl.enabled.mechanisms", PLAIN + "," + SCRAM);
    props.put("sasl.mechanism.inter.broker.protocol", PLAIN);
    props.put("sasl.mechanism.controller.protocol", PLAIN);
    props.put("listener.name.controller.sasl.enabled.mechanisms", PLAIN);
    String plainServer = plainServerJaas();
    props.put("listener.name.controller.plain.sasl.jaas.config", plainServer);
    props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", plainServer);
    props.put(
        "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    return props;
  }

  /** The PLAIN login of the broker (as the super user), and the one user PLAIN accepts. */
  private String plainServerJaas() {
    return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
        + ADMIN
        + "\" password=\""
        + passwords.get(ADMIN)
        + "\" user_"
        + ADMIN
        + "=\""
        + passwords.get(ADMIN)
        + "\";";
  }

  /** The arguments of {@code kafka-storage format} that create the SCRAM users. */
  @Override
  public List<String> formatArguments() {
    List<String> args = new ArrayList<>();
    passwords.forEach(
        (user, password) -> {
          if (!user.equals(ADMIN)) {
            args.add("--add-scram");
            args.add(SCRAM + "=[name=" + user + ",password=" + password + "]");
          }
        });
    return args;
  }

  @Override
  public Map<String, Object> adminLogin() {
    return clientProperties(ADMIN);
  }

  /** The client settings that log in as {@code user}. */
  public Map<String, Object> clientProperties(String user) {
    String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("No user " + user);
    }
    boolean admin = user.equals(ADMIN);
    return login(
        admin ? PLAIN : SCRAM,
        admin
            ? "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + user
                + "\" password=\""
                + password
                + "\";"
            : scramJaas(user, password));
  }

  /** Client settings that log in with SCRAM-SHA-512 and this JAAS configuration. */
  public static Map<String, Object> scramLogin(String jaasConfig) {
    return login(SCRAM, jaasConfig);
  }

  private static Map<String, Object> login(String mechanism, String jaasConfig) {
    Map<String, Object> props = new HashMap<>();
    props.put("security.protocol", LISTENER);
    props.put("sasl.mechanism", mechanism);
    props.put("sasl.jaas.config", jaasConfig);
    return props;
  }

  /**
   * The settings under which a Connect worker logs in as {@code user}: for its own clients, and for
   * the producers, consumers and admin clients it makes for connectors.
   */
  public Map<String, String> workerProperties(String user) {
    Map<String, String> props = new LinkedHashMap<>();
    for (String prefix : List.of("", "producer.", "consumer.", "admin.")) {
      clientProperties(user).forEach((key, value) -> props.put(prefix + key, value.toString()));
    }
    return props;
  }

  /**
   * The overrides under which a connector's own Kafka clients log in as {@code user}: the sink
   * task's consumer ({@code consumer.override.*}), the dead-letter producer and admin ({@code
   * producer.override.*}, {@code admin.override.*}) and Floe's control clients ({@code
   * iceberg.kafka.*}). The worker's {@code connector.client.config.override.policy} must allow
   * them: {@code All}, {@code Principal}, or the README's {@code Allowlist}.
   */
  public Map<String, String> connectorProperties(String user) {
    return connectorProperties(clientProperties(user));
  }

  /** {@link #connectorProperties(String)} for any client login settings. */
  public static Map<String, String> connectorProperties(Map<String, Object> login) {
    Map<String, String> props = new LinkedHashMap<>();
    for (String prefix :
        List.of("consumer.override.", "producer.override.", "admin.override.", "iceberg.kafka.")) {
      login.forEach((key, value) -> props.put(prefix + key, value.toString()));
    }
    return props;
  }
}
