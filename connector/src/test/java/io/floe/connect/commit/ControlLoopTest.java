/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ControlLoopTest {
  private final AtomicInteger releases = new AtomicInteger();

  @Test
  void aLoopThatNeverRanReleasesItsClientsOnceWhenStopped() {
    ControlLoop loop = new ControlLoop("test", () -> true, () -> true, releases::incrementAndGet);
    assertThat(loop.stop(() -> {})).isTrue();
    assertThat(loop.stop(() -> {})).isTrue();
    assertThat(releases).hasValue(1);
    assertThat(loop.running()).isFalse();
  }

  @Test
  void aRunningLoopStopsOnItsNextTurnAndItsThreadReleasesTheClients() throws Exception {
    CountDownLatch turning = new CountDownLatch(1);
    ControlLoop loop =
        new ControlLoop(
            "test",
            () -> true,
            () -> {
              turning.countDown();
              return true;
            },
            releases::incrementAndGet);
    loop.start();
    assertThat(turning.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(loop.stop(() -> {})).isTrue();
    assertThat(releases).hasValue(1);
  }

  @Test
  void aThreadStuckInACallIsLeftToEndOnItsOwnWithinTheStopTimeout() throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch unblock = new CountDownLatch(1);
    ControlLoop loop =
        new ControlLoop(
            "test",
            () -> true,
            () -> {
              stuck.countDown();
              try {
                unblock.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return true;
            },
            releases::incrementAndGet);
    loop.start();
    assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();

    long started = System.nanoTime();
    assertThat(loop.stop(() -> {})).as("still stuck").isFalse();
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(took).isLessThan(ControlLoop.STOP_TIMEOUT.plusSeconds(2));
    assertThat(releases).as("its clients are still in use").hasValue(0);
    unblock.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (releases.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(releases).as("released by the thread as it ended").hasValue(1);
  }
}
