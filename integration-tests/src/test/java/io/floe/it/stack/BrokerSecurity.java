/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a {@link KafkaBroker} authenticates its clients, with ACLs on: SASL ({@link KafkaSecurity})
 * or TLS client certificates ({@link KafkaTls}).
 */
public interface BrokerSecurity {
  /** The broker's settings; they replace the plain listeners of the default configuration. */
  Map<String, String> serverProperties(int port, int controllerPort);

  /** Arguments of {@code kafka-storage format} beyond the defaults, e.g. SCRAM users. */
  List<String> formatArguments();

  /** The client settings of the broker's super user, for the tests' admin client. */
  Map<String, Object> adminLogin();

  /**
   * One client listener on 127.0.0.1 and the controller's, both of {@code protocol}, which the
   * broker also uses between its broker and controller parts; Kafka's standard authorizer, with
   * nothing allowed that no ACL allows but to the super users.
   */
  static Map<String, String> listenersWithAcls(
      String protocol, int port, int controllerPort, String superUsers) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(
        "listeners",
        protocol + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", protocol + "://127.0.0.1:" + port);
    props.put("inter.broker.listener.name", protocol);
    props.put(
        "listener.security.protocol.map",
        "CONTROLLER:" + protocol + "," + protocol + ":" + protocol);
    props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    props.put("allow.everyone.if.no.acl.found", "false");
    props.put("super.users", superUsers);
    return props;
  }
}
