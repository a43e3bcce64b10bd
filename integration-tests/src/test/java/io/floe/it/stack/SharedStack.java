/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services the test classes of a run share instead of starting their own: one Kafka broker of
 * the default runtime, one REST catalog on a local warehouse, and one Connect worker of the default
 * runtime on them, with the plugin installed, remote JMX open ({@link #jmxPort()}) and Kafka's
 * {@code FileConfigProvider} as {@code file}. Each is started when a class first asks for it and
 * stopped at the end of the run; a start costs a class 5 to 15 s on two cores, a broker's and a
 * worker's together more than many a test.
 *
 * <p>A class takes the stack as a parameter of its {@code @BeforeAll} method, with
 * {@code @ExtendWith(SharedStack.Extension.class)}. What keeps classes apart on it:
 *
 * <ul>
 *   <li>each names its topics, connectors and tables after what it tests, unlike any other class's
 *       (creating a topic that exists fails, so a clash is loud);
 *   <li>each starts workers of its own in a Connect group of its own, never the shared one's;
 *   <li>what a class reads of the shared worker's log, it reads from a {@link LogFile#mark()} taken
 *       in its test, not from the log's start;
 *   <li>after each class, the connectors it left on the shared worker (a failed test's) are
 *       deleted, so none of them runs on into the next class.
 * </ul>
 *
 * A class that changes a service (stops it, injects faults, kills or freezes a worker) or needs one
 * configured otherwise starts that service itself.
 *
 * <p>The stack lives in the store of JUnit's root context, which closes it (an {@link
 * AutoCloseable}) when the run ends.
 */
public final class SharedStack implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedStack.class);
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedStack.class);

  private final Services services = Services.closedAfterAll();
  private KafkaBroker broker;
  private RestCatalogServer rest;
  private ConnectWorker worker;
  private int jmxPort;

  private SharedStack() {}

  /** The shared broker, started on first use. */
  public synchronized KafkaBroker broker() {
    if (broker == null) {
      broker = services.own(KafkaBroker.start());
    }
    return broker;
  }

  /** The shared REST catalog on a local warehouse, started on first use. */
  public synchronized RestCatalogServer rest() {
    if (rest == null) {
      rest = services.own(RestCatalogServer.withLocalWarehouse());
    }
    return rest;
  }

  /**
   * The shared Connect worker on the shared broker, started on first use: group {@code shared},
   * remote JMX at {@link #jmxPort()}, Kafka's {@code FileConfigProvider} as {@code file}.
   */
  public synchronized ConnectWorker worker() {
    if (worker == null) {
      KafkaBroker kafka = broker();
      int port = Ports.free();
      worker =
          services.own(
              ConnectWorker.start(
                  kafka,
                  PluginInstall.pluginPath(),
                  new ConnectWorker.Options()
                      .groupId("shared")
                      .fileConfigProvider()
                      .jvmOptions(RemoteJmx.jvmOptions(port))));
      jmxPort = port;
    }
    return worker;
  }

  /** The port of the shared worker's remote JMX. */
  public synchronized int jmxPort() {
    worker();
    return jmxPort;
  }

  /** Deletes every connector on the shared worker, if it was started. */
  private synchronized void deleteConnectors() {
    if (worker == null) {
      return;
    }
    ConnectRest.Response connectors = worker.rest().send("GET", "/connectors", null);
    if (connectors.ok() && connectors.body() != null) {
      for (JsonNode name : connectors.body()) {
        LOG.warn("Deleting connector {}, left on the shared worker", name.asText());
        worker.rest().deleteConnector(name.asText());
      }
    }
  }

  @Override
  public void close() {
    services.close();
  }

  /**
   * Gives a class's lifecycle methods the run's {@link SharedStack}, and deletes the connectors the
   * class left on the shared worker after it.
   */
  public static final class Extension implements ParameterResolver, AfterAllCallback {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == SharedStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return stack(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
      stack(context).deleteConnectors();
    }

    private static SharedStack stack(ExtensionContext context) {
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(SharedStack.class, key -> new SharedStack(), SharedStack.class);
    }
  }
}
