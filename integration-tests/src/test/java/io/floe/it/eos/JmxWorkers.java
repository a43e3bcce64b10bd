/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Ports;
import io.floe.it.stack.RemoteJmx;
import io.floe.it.stack.Services;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import javax.management.ObjectName;

/**
 * Connect workers a test starts, kills and starts again, each with remote JMX open, so the test can
 * read Floe's metrics on whichever worker runs a connector's coordinator: the group's workers fail
 * a member within 10 s and let connectors override their clients' settings.
 */
final class JmxWorkers {
  private final Services services;
  private final KafkaBroker broker;
  private final String groupId;
  private final Map<ConnectWorker, Integer> ports = new HashMap<>();

  JmxWorkers(Services services, KafkaBroker broker, String groupId) {
    this.services = services;
    this.broker = broker;
    this.groupId = groupId;
  }

  /** Starts a worker of the group. */
  ConnectWorker start() {
    int port = Ports.free();
    ConnectWorker worker =
        services.own(
            ConnectWorker.start(
                broker,
                PluginInstall.pluginPath(),
                new ConnectWorker.Options()
                    .groupId(groupId)
                    .workerProperty("connector.client.config.override.policy", "All")
                    .workerProperty("consumer.session.timeout.ms", "10000")
                    .workerProperty("consumer.heartbeat.interval.ms", "1000")
                    .jvmOptions(RemoteJmx.jvmOptions(port))));
    ports.put(worker, port);
    return worker;
  }

  /** Connects to the worker's remote JMX. */
  RemoteJmx jmx(ConnectWorker worker) {
    return RemoteJmx.connect(ports.get(worker));
  }

  /** A table metric of connector {@code connector} on {@code worker}, summed over its tables. */
  long tableMetric(ConnectWorker worker, String connector, String metric) throws IOException {
    try (RemoteJmx jmx = jmx(worker)) {
      long total = 0;
      for (ObjectName bean :
          jmx.names("io.floe:type=table-metrics,connector=" + connector + ",*")) {
        total += jmx.attribute(bean, metric).longValue();
      }
      return total;
    }
  }
}
