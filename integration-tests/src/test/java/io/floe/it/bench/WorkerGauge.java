/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The memory of a worker JVM during a run: its heap in use, sampled every 250 ms through the JVM's
 * local management agent (attached by pid), and its peak resident set ({@code VmHWM} of {@code
 * /proc/<pid>/status}).
 */
final class WorkerGauge implements AutoCloseable {
  private final long pid;
  private final JMXConnector jmx;
  private final MemoryMXBean memory;
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "worker-gauge");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicLong peakHeap = new AtomicLong();
  private volatile ObjectName sinkTasks;
  private volatile long expected;
  private volatile long startMillis;
  private volatile long deliveredMillis = -1;

  WorkerGauge(long pid) {
    this.pid = pid;
    try {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      String address;
      try {
        address = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
      jmx = JMXConnectorFactory.connect(new JMXServiceURL(address));
      memory =
          ManagementFactory.newPlatformMXBeanProxy(
              jmx.getMBeanServerConnection(),
              ManagementFactory.MEMORY_MXBEAN_NAME,
              MemoryMXBean.class);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot attach to worker pid " + pid, e);
    }
    sampler.scheduleAtFixedRate(this::sample, 0, 250, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts watching Connect's own {@code sink-record-send-total} of the connector's tasks: the
   * records the framework has handed to the sink's {@code put}, whichever sink it is.
   */
  void watchDelivered(String connector, long expectedRecords, long fromMillis) {
    try {
      sinkTasks =
          new ObjectName("kafka.connect:type=sink-task-metrics,connector=" + connector + ",task=*");
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(e);
    }
    expected = expectedRecords;
    startMillis = fromMillis;
  }

  private void sample() {
    try {
      peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
      ObjectName tasks = sinkTasks;
      if (tasks != null && deliveredMillis < 0) {
        MBeanServerConnection server = jmx.getMBeanServerConnection();
        double sent = 0;
        for (ObjectName task : server.queryNames(tasks, null)) {
          Object value = server.getAttribute(task, "sink-record-send-total");
          if (value instanceof Number number) {
            sent += number.doubleValue();
          }
        }
        if (sent >= expected) {
          deliveredMillis = System.currentTimeMillis();
        }
      }
    } catch (Exception e) {
      // the worker is going away; the figures so far stand
    }
  }

  /**
   * Seconds from the start given to {@link #watchDelivered} until every record was handed to the
   * sink (within the 250 ms of a sample), or NaN if that was not seen.
   */
  double deliveredSeconds() {
    long delivered = deliveredMillis;
    return delivered < 0 ? Double.NaN : (delivered - startMillis) / 1000.0;
  }

  /** The largest heap in use seen so far, in bytes. */
  long peakHeapBytes() {
    return peakHeap.get();
  }

  /** The peak resident set of the worker so far, in bytes; -1 once it has exited. */
  long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return -1;
    } catch (IOException e) {
      return -1; // the worker is gone
    }
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    try {
      jmx.close();
    } catch (IOException e) {
      // the worker may already be gone
    }
  }
}
