/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Named long-valued gauges, read when asked: the attributes of one MBean, and the metrics of one
 * tag set in Connect's plugin metrics. The suppliers must be safe to call from any thread.
 */
final class GaugeSet {
  /** One gauge: its name (kebab-case, as Kafka names metrics), what it measures, its value. */
  record Gauge(String name, String description, LongSupplier value) {}

  private final Map<String, Gauge> gauges = new LinkedHashMap<>();

  GaugeSet add(String name, String description, LongSupplier value) {
    if (gauges.putIfAbsent(name, new Gauge(name, description, value)) != null) {
      throw new IllegalArgumentException("duplicate gauge " + name);
    }
    return this;
  }

  Collection<Gauge> gauges() {
    return Collections.unmodifiableCollection(gauges.values());
  }

  /** The gauge of that name, or null. */
  Gauge get(String name) {
    return gauges.get(name);
  }
}
