/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.junit.jupiter.api.Test;

class PluginMetricsAccessTest {
  private final MBeanServer server = MBeanServerFactory.newMBeanServer();

  /** The shape of Kafka 4.1's {@code PluginMetrics}, which the compile classpath lacks. */
  public interface FakePluginMetrics {
    MetricName metricName(String name, String description, LinkedHashMap<String, String> tags);

    void addMetric(MetricName metricName, MetricValueProvider<?> provider);

    void removeMetric(MetricName metricName);
  }

  /** A task context of a runtime with plugin metrics. */
  public interface ContextWithMetrics {
    FakePluginMetrics pluginMetrics();
  }

  /** A task context of an older runtime. */
  public interface ContextWithout {
    Map<String, String> configs();
  }

  private static final class Recording implements FakePluginMetrics {
    final Map<MetricName, MetricValueProvider<?>> metrics = new LinkedHashMap<>();

    @Override
    public MetricName metricName(
        String name, String description, LinkedHashMap<String, String> tags) {
      LinkedHashMap<String, String> all = new LinkedHashMap<>(tags);
      all.put("connector", "orders-sink");
      all.put("task", "0");
      return new MetricName(name, "plugins", description, all);
    }

    @Override
    public void addMetric(MetricName metricName, MetricValueProvider<?> provider) {
      metrics.put(metricName, provider);
    }

    @Override
    public void removeMetric(MetricName metricName) {
      metrics.remove(metricName);
    }
  }

  @Test
  void onARuntimeWithPluginMetricsEveryGaugeIsAddedThereTooAndRemovedOnClose() {
    Recording recording = new Recording();
    ContextWithMetrics context = () -> recording;
    MetricsRegistry registry =
        new MetricsRegistry(server, "orders-sink", PluginMetricsAccess.of(context));

    TaskMetrics metrics = new TaskMetrics(registry, 0, 100, () -> 4, () -> 0);
    metrics.received(12);

    assertThat(recording.metrics).hasSize(18);
    MetricName received =
        recording.metrics.keySet().stream()
            .filter(m -> m.name().equals("records-received"))
            .findFirst()
            .orElseThrow();
    assertThat(received.group()).isEqualTo("plugins");
    Gauge<?> gauge = (Gauge<?>) recording.metrics.get(received);
    assertThat(gauge.value(new MetricConfig(), 0)).isEqualTo(12L);

    metrics.close();
    assertThat(recording.metrics).isEmpty();
  }

  @Test
  void tableMetricsCarryTheTableAsATag() {
    Recording recording = new Recording();
    ContextWithMetrics context = () -> recording;
    MetricsRegistry registry =
        new MetricsRegistry(server, "orders-sink", PluginMetricsAccess.of(context));
    CoordinatorMetrics coordinator = new CoordinatorMetrics(registry, java.time.Clock.systemUTC());
    coordinator.table("db.orders");

    assertThat(recording.metrics.keySet())
        .filteredOn(m -> m.name().equals("freshness-lag-ms"))
        .singleElement()
        .satisfies(m -> assertThat(m.tags()).containsEntry("table", "db.orders"));
    coordinator.close();
    assertThat(recording.metrics).isEmpty();
  }

  @Test
  void anOlderRuntimeGetsMBeansOnly() {
    ContextWithout context = Map::of;
    assertThat(PluginMetricsAccess.of(context)).isEmpty();
    assertThat(PluginMetricsAccess.of(null)).isEmpty();
  }
}
