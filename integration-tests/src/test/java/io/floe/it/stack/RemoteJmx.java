/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Remote JMX of a child JVM on 127.0.0.1, without authentication or TLS (tests only): the JVM
 * options that open it, and a client that reads attributes through it.
 */
public final class RemoteJmx implements AutoCloseable {
  private final JMXConnector connector;
  private final MBeanServerConnection server;

  private RemoteJmx(JMXConnector connector) throws IOException {
    this.connector = connector;
    this.server = connector.getMBeanServerConnection();
  }

  /** JVM options opening remote JMX on 127.0.0.1 at {@code port} (registry and RMI alike). */
  public static List<String> jvmOptions(int port) {
    return List.of(
        "-Dcom.sun.management.jmxremote.port=" + port,
        "-Dcom.sun.management.jmxremote.rmi.port=" + port,
        "-Dcom.sun.management.jmxremote.host=" + Ports.LOOPBACK,
        "-Djava.rmi.server.hostname=" + Ports.LOOPBACK,
        "-Dcom.sun.management.jmxremote.authenticate=false",
        "-Dcom.sun.management.jmxremote.ssl=false");
  }

  /** Connects to the JVM that opened remote JMX at {@code port}. */
  public static RemoteJmx connect(int port) {
    try {
      JMXServiceURL url =
          new JMXServiceURL(
              "service:jmx:rmi:///jndi/rmi://" + Ports.LOOPBACK + ":" + port + "/jmxrmi");
      return new RemoteJmx(JMXConnectorFactory.connect(url));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot connect to JMX on port " + port, e);
    }
  }

  public static ObjectName name(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  /** The MBeans matching a pattern such as {@code io.floe:*}. */
  public Set<ObjectName> names(String pattern) {
    try {
      return server.queryNames(name(pattern), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A numeric attribute (Floe's metrics are longs, Connect's own are doubles). */
  public Number attribute(ObjectName bean, String attribute) {
    try {
      return (Number) server.getAttribute(bean, attribute);
    } catch (JMException e) {
      throw new IllegalStateException("Cannot read " + bean + " " + attribute, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every MBean's name and every readable attribute's name and value as text, one line each; an
   * attribute that cannot be read shows why. For searching a JVM's whole management surface.
   */
  public String describeAll() {
    StringBuilder text = new StringBuilder();
    try {
      for (ObjectName bean : server.queryNames(null, null)) {
        text.append(bean).append('\n');
        MBeanAttributeInfo[] attributes;
        try {
          attributes = server.getMBeanInfo(bean).getAttributes();
        } catch (JMException e) {
          text.append("  (no info: ").append(e).append(")\n");
          continue;
        }
        for (MBeanAttributeInfo attribute : attributes) {
          if (!attribute.isReadable()) {
            continue;
          }
          text.append("  ").append(attribute.getName()).append(" = ");
          try {
            text.append(deepToString(server.getAttribute(bean, attribute.getName())));
          } catch (JMException | IOException | RuntimeException e) {
            text.append("(unreadable: ").append(e).append(')');
          }
          text.append('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  private static String deepToString(Object value) {
    if (value instanceof Object[] array) {
      return java.util.Arrays.deepToString(array);
    }
    if (value != null && value.getClass().isArray()) {
      return java.util.Arrays.deepToString(new Object[] {value});
    }
    return String.valueOf(value);
  }

  @Override
  public void close() throws IOException {
    connector.close();
  }
}
