/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

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
}
