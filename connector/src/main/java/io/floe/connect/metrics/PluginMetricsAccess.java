/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seam to Connect's plugin metrics (KIP-877, Kafka 4.1 and later): {@code
 * SinkTaskContext.pluginMetrics()}, whose metrics Connect reports with its own (JMX {@code
 * kafka.connect:type=plugins,...} and any configured metrics reporter) and removes when the task
 * stops.
 *
 * <p>Floe is compiled against Kafka 3.9, which has neither the method nor the {@code PluginMetrics}
 * type, so both are reached by reflection here and nowhere else; a runtime without them gets an
 * empty {@link Optional} and Floe's own MBeans only.
 */
final class PluginMetricsAccess {
  private static final Logger LOG = LoggerFactory.getLogger(PluginMetricsAccess.class);
  static final String METHOD = "pluginMetrics";

  private final Object pluginMetrics;
  private final Method metricName;
  private final Method addMetric;
  private final Method removeMetric;

  private PluginMetricsAccess(
      Object pluginMetrics, Method metricName, Method addMetric, Method removeMetric) {
    this.pluginMetrics = pluginMetrics;
    this.metricName = metricName;
    this.addMetric = addMetric;
    this.removeMetric = removeMetric;
  }

  /**
   * The plugin metrics of a task (or connector) context, if its runtime offers them.
   *
   * @param context a {@code SinkTaskContext} or {@code ConnectorContext}; null gives none
   */
  static Optional<PluginMetricsAccess> of(Object context) {
    if (context == null) {
      return Optional.empty();
    }
    Method accessor = publicMethod(context.getClass(), METHOD);
    if (accessor == null) {
      LOG.info("This Connect runtime has no plugin metrics (Kafka 4.1+); Floe's MBeans only");
      return Optional.empty();
    }
    try {
      Object metrics = accessor.invoke(context);
      if (metrics == null) {
        return Optional.empty();
      }
      Class<?> type = accessor.getReturnType();
      return Optional.of(
          new PluginMetricsAccess(
              metrics,
              type.getMethod("metricName", String.class, String.class, LinkedHashMap.class),
              type.getMethod("addMetric", MetricName.class, MetricValueProvider.class),
              type.getMethod("removeMetric", MetricName.class)));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.warn(
          "Connect's plugin metrics are unusable ({}); Floe's metrics are in its own MBeans only",
          e instanceof InvocationTargetException ite ? ite.getCause() : e);
      return Optional.empty();
    }
  }

  /** The method of that name and no parameters, declared by a public interface of the type. */
  private static Method publicMethod(Class<?> type, String name) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Class<?> api : c.getInterfaces()) {
        try {
          return api.getMethod(name);
        } catch (NoSuchMethodException e) {
          // not this interface
        }
      }
    }
    return null;
  }

  /** Adds a gauge; the runtime adds the connector and task tags to {@code tags}. */
  MetricName add(String name, String description, Map<String, String> tags, Gauge<Long> gauge) {
    try {
      MetricName metric =
          (MetricName)
              metricName.invoke(pluginMetrics, name, description, new LinkedHashMap<>(tags));
      addMetric.invoke(pluginMetrics, metric, gauge);
      return metric;
    } catch (InvocationTargetException e) {
      throw rethrown(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  void remove(MetricName metric) {
    try {
      removeMetric.invoke(pluginMetrics, metric);
    } catch (InvocationTargetException e) {
      throw rethrown(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RuntimeException rethrown(Throwable cause) {
    return cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
  }
}
