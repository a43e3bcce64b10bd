/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.contract.Contract;
import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TableMetrics;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ContractObjectivesTest {
  private static final Contract CONTRACT =
      Contract.parse(
          """
          id: readings
          version: 2.0.0
          schema:
            - name: readings
              quality:
                - metric: rowCount
                  mustBeBetween: [10, 100]
              properties:
                - name: id
                  logicalType: integer
          slaProperties:
            - property: latency
              value: 5
              unit: s
            - property: retention
              value: 3
              unit: y
          """);

  private static final String MEETS_FRESHNESS_AGAIN_1000_MS =
      "INFO Table iot.readings meets the freshness objective of its contract 'readings' version"
          + " 2.0.0 (latency at most 5000 ms) again: its newest committed record is 1000 ms old";

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final CoordinatorMetrics metrics =
      new CoordinatorMetrics(
          MetricsRegistry.forTask("readings-sink", null), new MutableClock(1_000_000));

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void aVolumeBreachIsLoggedOnceWhenItBeginsAndOnceWhenItEnds() throws Exception {
    TableMetrics table = metrics.table("iot.readings");
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=readings-sink,table=iot.readings");
    try (LogCapture logs = LogCapture.ofEveryLevel(ContractObjectives.class)) {
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, null, null, 0);
      assertThat(logs.lines()).isEmpty();
      ContractObjectives.check("iot.readings", CONTRACT, table, 500, null, null, 0);
      ContractObjectives.check("iot.readings", CONTRACT, table, 3, null, null, 0);
      assertThat(server.getAttribute(name, "volume-objective-breached")).isEqualTo(1L);
      ContractObjectives.check("iot.readings", CONTRACT, table, 10, null, null, 0);
      ContractObjectives.check("iot.readings", CONTRACT, table, 100, null, null, 0);
      ContractObjectives.check("iot.readings", CONTRACT, table, 101, null, null, 0);

      assertThat(logs.at("WARN"))
          .containsExactly(
              "WARN Table iot.readings breaches the volume objective of its contract 'readings' version"
                  + " 2.0.0 (rows per commit between 10 and 100): its commit appended 500 rows",
              "WARN Table iot.readings breaches the volume objective of its contract 'readings' version"
                  + " 2.0.0 (rows per commit between 10 and 100): its commit appended 101 rows");
      assertThat(logs.at("INFO"))
          .containsExactly(
              "INFO Table iot.readings meets the volume objective of its contract 'readings' version"
                  + " 2.0.0 (rows per commit between 10 and 100) again: its commit appended 10"
                  + " rows");
    }
    assertThat(server.getAttribute(name, "volume-objective-breached")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "volume-objective-breaches")).isEqualTo(2L);
    assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(0L);
  }

  @Test
  void aFreshnessBreachIsTheWatermarkOlderThanTheLatencyAfterACommit() throws Exception {
    TableMetrics table = metrics.table("iot.readings");
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=readings-sink,table=iot.readings");
    try (LogCapture logs = LogCapture.ofEveryLevel(ContractObjectives.class)) {
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, 10_000L, null, 15_000);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, 10_000L, null, 15_001);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, 10_000L, null, 20_000);
      assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(1L);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, null, null, 90_000);
      assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(1L);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, 19_000L, null, 20_000);

      assertThat(logs.at("WARN"))
          .containsExactly(
              "WARN Table iot.readings breaches the freshness objective of its contract 'readings'"
                  + " version 2.0.0 (latency at most 5000 ms): its newest committed record is 5001"
                  + " ms old");
      assertThat(logs.at("INFO")).containsExactly(MEETS_FRESHNESS_AGAIN_1000_MS);
    }
    assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(0L);
    assertThat(server.getAttribute(name, "freshness-objective-breaches")).isEqualTo(1L);
    assertThat(server.getAttribute(name, "volume-objective-breaches")).isEqualTo(0L);
  }

  @Test
  void aTableWithoutAWatermarkBreachesFreshnessOnceItsAnsweringPartitionsAreOlderThanTheLatency()
      throws Exception {
    TableMetrics table = metrics.table("iot.readings");
    ObjectName name =
        new ObjectName("io.floe:type=table-metrics,connector=readings-sink,table=iot.readings");
    try (LogCapture logs = LogCapture.ofEveryLevel(ContractObjectives.class)) {
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, null, 10_000L, 15_000);
      assertThat(logs.lines()).as("at least 5000 ms old: it may still meet it").isEmpty();
      assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(0L);

      ContractObjectives.check("iot.readings", CONTRACT, table, 50, null, 10_000L, 15_001);
      assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(1L);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, null, 29_000L, 30_000);
      assertThat(server.getAttribute(name, "freshness-objective-breached"))
          .as("fresh answering partitions do not prove the others fresh")
          .isEqualTo(1L);
      ContractObjectives.check("iot.readings", CONTRACT, table, 50, 39_000L, 10_000L, 40_000);

      assertThat(logs.at("WARN"))
          .containsExactly(
              "WARN Table iot.readings breaches the freshness objective of its contract 'readings'"
                  + " version 2.0.0 (latency at most 5000 ms): its newest committed record is at"
                  + " least 5001 ms old (it has no watermark yet: every cycle so far timed out"
                  + " before all partitions answered, and those that answered are that old)");
      assertThat(logs.at("INFO"))
          .as("a watermark, from the first complete cycle, ends the breach")
          .containsExactly(MEETS_FRESHNESS_AGAIN_1000_MS);
    }
    assertThat(server.getAttribute(name, "freshness-objective-breached")).isEqualTo(0L);
    assertThat(server.getAttribute(name, "freshness-objective-breaches")).isEqualTo(1L);
  }
}
