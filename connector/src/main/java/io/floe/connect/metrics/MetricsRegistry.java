/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task's metrics go: an MBean each on the platform MBean server, under {@value #DOMAIN},
 * and, where the runtime has them, Connect's plugin metrics. Every {@link Registration} is closed
 * when what it measures stops, so a stopped or restarted task leaves no MBean behind.
 *
 * <p>If an MBean of the same name is still registered (a task restarted in the same worker before
 * its old instance finished stopping), the new one replaces it, and the old instance's close leaves
 * the new one in place.
 */
public final class MetricsRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsRegistry.class);
  static final String DOMAIN = "io.floe";
  private static final Map<ObjectName, Registration> OWNERS = new ConcurrentHashMap<>();

  private final MBeanServer server;
  private final String connector;
  private final Optional<PluginMetricsAccess> pluginMetrics;

  MetricsRegistry(
      MBeanServer server, String connector, Optional<PluginMetricsAccess> pluginMetrics) {
    this.server = server;
    this.connector = connector;
    this.pluginMetrics = pluginMetrics;
  }

  /**
   * The registry of a task of {@code connector}.
   *
   * @param context the task's {@code SinkTaskContext}, for Connect's plugin metrics where the
   *     runtime has them; null for MBeans only
   */
  public static MetricsRegistry forTask(String connector, Object context) {
    return new MetricsRegistry(
        ManagementFactory.getPlatformMBeanServer(), connector, PluginMetricsAccess.of(context));
  }

  /** A registry of MBeans only, on the given server. */
  static MetricsRegistry jmxOnly(MBeanServer server, String connector) {
    return new MetricsRegistry(server, connector, Optional.empty());
  }

  String connector() {
    return connector;
  }

  /**
   * The MBean name {@code io.floe:type=<type>,connector=<connector>,<keys>}, values quoted where
   * they hold characters that ObjectName reserves.
   */
  ObjectName objectName(String type, Map<String, String> keys) {
    StringBuilder name = new StringBuilder(DOMAIN).append(":type=").append(type);
    name.append(",connector=").append(value(connector));
    keys.forEach((key, value) -> name.append(',').append(key).append('=').append(value(value)));
    try {
      return new ObjectName(name.toString());
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException("Bad MBean name " + name, e);
    }
  }

  static String value(String value) {
    for (char c : value.toCharArray()) {
      if (",=:\"*?\n".indexOf(c) >= 0) {
        return ObjectName.quote(value);
      }
    }
    return value;
  }

  /**
   * Registers gauges as an MBean of this type and keys, and as plugin metrics tagged with {@code
   * pluginTags}.
   */
  Registration register(
      String type,
      Map<String, String> keys,
      Map<String, String> pluginTags,
      String description,
      GaugeSet gauges) {
    ObjectName name = objectName(type, keys);
    Registration registration = new Registration(name);
    GaugeMBean bean = new GaugeMBean(description, gauges);
    try {
      try {
        server.registerMBean(bean, name);
      } catch (InstanceAlreadyExistsException e) {
        LOG.info("Replacing the MBean {} of an earlier instance", name);
        unregisterQuietly(name);
        server.registerMBean(bean, name);
      }
      OWNERS.put(name, registration);
    } catch (JMException e) {
      LOG.warn("Cannot register the MBean {}: {}", name, e.toString());
    }
    pluginMetrics.ifPresent(
        metrics -> {
          for (GaugeSet.Gauge gauge : gauges.gauges()) {
            try {
              registration.pluginMetrics.add(
                  metrics.add(
                      gauge.name(),
                      gauge.description(),
                      new LinkedHashMap<>(pluginTags),
                      (Gauge<Long>) (config, now) -> gauge.value().getAsLong()));
            } catch (RuntimeException e) {
              LOG.warn("Cannot add plugin metric {}: {}", gauge.name(), e.toString());
            }
          }
        });
    return registration;
  }

  private void unregisterQuietly(ObjectName name) {
    try {
      server.unregisterMBean(name);
    } catch (InstanceNotFoundException e) {
      // gone already
    } catch (JMException e) {
      LOG.warn("Cannot unregister the MBean {}: {}", name, e.toString());
    }
  }

  /** One registered set of gauges; closing removes the MBean and the plugin metrics. */
  final class Registration implements AutoCloseable {
    private final ObjectName name;
    private final List<MetricName> pluginMetrics = new ArrayList<>();
    private boolean closed;

    private Registration(ObjectName name) {
      this.name = name;
    }

    ObjectName name() {
      return name;
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      if (OWNERS.remove(name, this)) {
        unregisterQuietly(name);
      }
      MetricsRegistry.this.pluginMetrics.ifPresent(
          metrics -> {
            for (MetricName metric : pluginMetrics) {
              try {
                metrics.remove(metric);
              } catch (RuntimeException e) {
                LOG.debug("Cannot remove plugin metric {}: {}", metric, e.toString());
              }
            }
          });
    }
  }
}
