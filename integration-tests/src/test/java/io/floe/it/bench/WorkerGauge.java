/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The memory and CPU of a worker JVM during a run: its heap in use, sampled every 250 ms through
 * the JVM's local management agent (attached by pid), its peak resident set ({@code VmHWM} of
 * {@code /proc/<pid>/status}), the CPU time of the whole process and of the connector's task
 * threads.
 */
final class WorkerGauge implements AutoCloseable {
  private final long pid;
  private final JMXConnector jmx;
  private final MemoryMXBean memory;
  private final com.sun.management.OperatingSystemMXBean system;
  private final ThreadMXBean threads;
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
  private volatile String connector;
  private volatile long windowFrom = Long.MAX_VALUE;
  private volatile Window window;

  /**
   * What the worker had used when Connect had handed {@code sent} records to the sink: the start of
   * the steady window, measured to the end of the run.
   */
  record Window(long sent, long processCpuNanos, long taskCpuNanos, Map<Long, ThreadCpu> threads) {}

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
      system =
          ManagementFactory.newPlatformMXBeanProxy(
              jmx.getMBeanServerConnection(),
              ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME,
              com.sun.management.OperatingSystemMXBean.class);
      threads =
          ManagementFactory.newPlatformMXBeanProxy(
              jmx.getMBeanServerConnection(),
              ManagementFactory.THREAD_MXBEAN_NAME,
              ThreadMXBean.class);
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
    watchDelivered(connector, expectedRecords, fromMillis, 1.0);
  }

  /**
   * As {@link #watchDelivered(String, long, long)}, and takes a {@link Window} at the first sample
   * that sees at least {@code windowFraction} of the records handed to the sink.
   */
  void watchDelivered(
      String connector, long expectedRecords, long fromMillis, double windowFraction) {
    this.connector = connector;
    windowFrom = windowFraction >= 1 ? Long.MAX_VALUE : (long) (expectedRecords * windowFraction);
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
        if (window == null && sent >= windowFrom && sent < expected) {
          window =
              new Window(
                  (long) sent, processCpuNanos(), taskThreadsCpuNanos(connector), threadCpu());
        }
        if (sent >= expected) {
          deliveredMillis = System.currentTimeMillis();
        }
      }
    } catch (Exception e) {
      // the worker is going away; the figures so far stand
    }
  }

  /** The start of the steady window, or null if no sample fell inside it. */
  Window window() {
    return window;
  }

  /**
   * Seconds from the start given to {@link #watchDelivered} until every record was handed to the
   * sink (within the 250 ms of a sample), or NaN if that was not seen.
   */
  double deliveredSeconds() {
    long delivered = deliveredMillis;
    return delivered < 0 ? Double.NaN : (delivered - startMillis) / 1000.0;
  }

  /**
   * The CPU time of the whole worker process so far (every thread, the JIT and GC), in ns; -1 once
   * it is gone.
   */
  long processCpuNanos() {
    try {
      return system.getProcessCpuTime();
    } catch (RuntimeException e) {
      return -1; // the worker is gone
    }
  }

  /**
   * The CPU time of {@code connector}'s task threads so far ({@code task-thread-<connector>-<n>}:
   * Connect's consumer, the converter and the sink's {@code put} run on them), in ns, or -1 once
   * the worker is gone; read it before the connector is deleted.
   */
  long taskThreadsCpuNanos(String connector) {
    String prefix = "task-thread-" + connector + "-";
    long total = 0;
    try {
      for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (info != null && info.getThreadName().startsWith(prefix)) {
          total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
        }
      }
    } catch (RuntimeException e) {
      return -1; // the worker is gone
    }
    return total;
  }

  /**
   * The CPU time of each of the worker's threads so far, in ns by thread id, with its name as the
   * kernel knows it ({@code /proc/<pid>/task/<tid>/stat}: the GC and JIT compiler threads too,
   * names cut at 15 characters); empty once the worker is gone.
   */
  Map<Long, ThreadCpu> threadCpu() {
    Map<Long, ThreadCpu> cpu = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended
        }
        // pid (comm) state ... utime stime are fields 14 and 15; comm may hold spaces
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).split(" ");
        long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
        cpu.put(
            Long.parseLong(task.getFileName().toString()),
            new ThreadCpu(stat.substring(open + 1, close), ticks * 1_000_000_000L / TICKS));
      }
    } catch (IOException | UncheckedIOException e) {
      return Map.of();
    }
    return cpu;
  }

  /** A thread's kernel name and CPU time in ns. */
  record ThreadCpu(String name, long nanos) {}

  /** Clock ticks a second of {@code /proc}'s CPU times (USER_HZ: 100 on Linux). */
  private static final long TICKS = 100;

  /**
   * The CPU used between two {@link #threadCpu} readings, in seconds by group of threads: their
   * names without digits (so {@code GC Thread#0} and {@code GC Thread#1} are one group), the
   * largest first.
   */
  static Map<String, Double> cpuByGroup(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after) {
    Map<String, Double> groups = new HashMap<>();
    after.forEach(
        (tid, thread) -> {
          ThreadCpu earlier = before.get(tid);
          long used =
              thread.nanos()
                  - (earlier != null && earlier.name().equals(thread.name()) ? earlier.nanos() : 0);
          if (used > 0) {
            groups.merge(thread.name().replaceAll("[0-9]+", "#"), used / 1e9, Double::sum);
          }
        });
    Map<String, Double> sorted = new LinkedHashMap<>();
    groups.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
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
