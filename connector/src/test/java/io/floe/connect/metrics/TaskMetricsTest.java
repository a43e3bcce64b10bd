/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class TaskMetricsTest {
  private final MBeanServer server = MBeanServerFactory.newMBeanServer();
  private final MetricsRegistry registry = MetricsRegistry.jmxOnly(server, "orders-sink");

  @Test
  void aTaskShowsItsCountsUnderItsNameUntilItCloses() throws Exception {
    AtomicLong skipped = new AtomicLong(2);
    AtomicLong deadLettered = new AtomicLong(3);
    TaskMetrics metrics = new TaskMetrics(registry, 1, 64L << 20, skipped::get, deadLettered::get);
    metrics.received(10);
    metrics.received(5);
    metrics.writers(new WriterCounts(9, 4096, 2, 1000, 1, 0, 4, 5, 2, 1, 6, 2, 1, 3));
    skipped.incrementAndGet();

    ObjectName name = new ObjectName("io.floe:type=task-metrics,connector=orders-sink,task=1");
    assertThat(server.getAttribute(name, "records-received")).isEqualTo(15L);
    assertThat(server.getAttribute(name, "records-written")).isEqualTo(9L);
    assertThat(server.getAttribute(name, "records-skipped")).isEqualTo(3L);
    assertThat(server.getAttribute(name, "records-dead-lettered")).isEqualTo(3L);
    assertThat(server.getAttribute(name, "conversion-errors")).isEqualTo(4L);
    assertThat(server.getAttribute(name, "contract-violations")).isEqualTo(5L);
    assertThat(server.getAttribute(name, "contract-rejects-quarantined")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "schema-changes")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "bytes-written")).isEqualTo(4096L);
    assertThat(server.getAttribute(name, "open-files")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "buffered-bytes")).isEqualTo(1000L);
    assertThat(server.getAttribute(name, "memory-budget-bytes")).isEqualTo(64L << 20);
    assertThat(server.getAttribute(name, "files-closed-for-memory")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "changes-upserted")).isEqualTo(6L);
    assertThat(server.getAttribute(name, "changes-deleted")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "changes-skipped")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "changes-truncated")).isEqualTo(3L);
    assertThat(server.getMBeanInfo(name).getAttributes()).hasSize(18);

    metrics.close();
    assertThat(server.isRegistered(name)).isFalse();
  }

  @Test
  void aRestartedTaskReplacesTheOldMBeanAndTheOldCloseLeavesTheNewOne() throws Exception {
    TaskMetrics old = new TaskMetrics(registry, 0, 1, () -> 0, () -> 0);
    TaskMetrics restarted = new TaskMetrics(registry, 0, 1, () -> 0, () -> 0);
    restarted.received(7);
    old.close();

    ObjectName name = new ObjectName("io.floe:type=task-metrics,connector=orders-sink,task=0");
    assertThat(server.getAttribute(name, "records-received")).isEqualTo(7L);
    restarted.close();
    assertThat(server.queryNames(new ObjectName("io.floe:*"), null)).isEmpty();
  }

  @Test
  void namesWithReservedCharactersAreQuoted() throws Exception {
    MetricsRegistry odd = MetricsRegistry.jmxOnly(server, "a,b=c");
    TaskMetrics metrics = new TaskMetrics(odd, 0, 1, () -> 0, () -> 0);
    ObjectName name = odd.objectName(TaskMetrics.TYPE, java.util.Map.of("task", "0"));
    assertThat(name.getKeyProperty("connector")).isEqualTo("\"a,b=c\"");
    assertThat(server.isRegistered(name)).isTrue();
    metrics.close();
  }
}
