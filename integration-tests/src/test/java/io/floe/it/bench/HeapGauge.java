/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap around a piece of work: what is live before it (after full collections), the most the
 * heap held after any collection during it (the work's live data plus old garbage not yet
 * collected: an upper bound of what it needs), the sum of the pools' peaks (an upper bound that
 * counts garbage too), what all threads allocated, and what is still live after it. With a probe
 * interval, a thread also forces a full collection at that interval during the work, and the most
 * it found live is the work's peak live data, as closely as the interval samples it.
 */
final class HeapGauge {
  private static final List<MemoryPoolMXBean> HEAP = BenchRows.heapPools();
  private static final Set<String> HEAP_NAMES =
      HEAP.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /**
   * One reading, in bytes.
   *
   * @param before live before the work
   * @param maxAfterGc the most the heap held after a collection during the work, -1 if none ran
   * @param collections the collections during the work
   * @param poolPeaks the sum of the heap pools' peaks during the work
   * @param allocated what the threads allocated during it
   * @param after live after it
   * @param maxLive the most live at a forced full collection during the work, -1 if none was
   */
  record Reading(
      long before,
      long maxAfterGc,
      int collections,
      long poolPeaks,
      long allocated,
      long after,
      long maxLive) {}

  private long before;
  private long allocatedBefore;
  private volatile boolean recording;
  private long maxAfterGc = -1;
  private long maxLive = -1;
  private int collections;
  private final long probeMillis;
  private Thread probe;

  private final NotificationListener listener =
      (notification, handback) -> {
        if (!recording
            || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                notification.getType())) {
          return;
        }
        GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool :
            info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
          if (HEAP_NAMES.contains(pool.getKey())) {
            used += pool.getValue().getUsed();
          }
        }
        synchronized (this) {
          maxAfterGc = Math.max(maxAfterGc, used);
          if (probe != null && info.getGcCause().equals("System.gc()")) {
            maxLive = Math.max(maxLive, used);
          }
          collections++;
        }
      };

  /**
   * @param probeMillis how often to force a full collection during the work, 0 for never
   */
  HeapGauge(long probeMillis) {
    this.probeMillis = probeMillis;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
  }

  /** Collects, then starts measuring. */
  void start() {
    before = BenchRows.liveHeap(HEAP);
    sleep(50); // the notifications of those collections, not counted
    synchronized (this) {
      maxAfterGc = -1;
      maxLive = -1;
      collections = 0;
    }
    HEAP.forEach(MemoryPoolMXBean::resetPeakUsage);
    allocatedBefore = allocated();
    recording = true;
    if (probeMillis > 0) {
      Thread thread =
          new Thread(
              () -> {
                while (recording) {
                  sleep(probeMillis);
                  if (recording) {
                    System.gc();
                  }
                }
              },
              "heap-probe");
      thread.setDaemon(true);
      synchronized (this) {
        probe = thread;
      }
      thread.start();
    }
  }

  /** Stops measuring, then collects. */
  Reading stop() {
    long allocated = allocated() - allocatedBefore;
    long peaks = BenchRows.peakHeap(HEAP);
    Thread thread;
    synchronized (this) {
      thread = probe;
    }
    if (thread != null) {
      recording = false;
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    // notifications arrive on a service thread, shortly after their collection
    sleep(50);
    recording = false;
    long max;
    long live;
    int count;
    synchronized (this) {
      max = maxAfterGc;
      live = maxLive;
      count = collections;
      probe = null;
    }
    return new Reading(before, max, count, peaks, allocated, BenchRows.liveHeap(HEAP), live);
  }

  private static long allocated() {
    long total = 0;
    for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
      total += Math.max(0, bytes);
    }
    return total;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
