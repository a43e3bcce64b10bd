/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedCacheTest {

  @Test
  void dropsTheLeastRecentlyUsedEntryBeyondItsCapacity() {
    BoundedCache<Integer, String> cache = new BoundedCache<>(2);
    AtomicInteger loads = new AtomicInteger();
    cache.get(1, k -> "v" + loads.incrementAndGet());
    cache.get(2, k -> "v" + loads.incrementAndGet());
    cache.get(1, k -> "v" + loads.incrementAndGet());
    cache.get(3, k -> "v" + loads.incrementAndGet());
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.get(1, k -> "reloaded")).isEqualTo("v1");
    assertThat(cache.get(2, k -> "reloaded")).isEqualTo("reloaded");
  }

  @Test
  void cachesNothingWhenTheLoadFails() {
    BoundedCache<Integer, String> cache = new BoundedCache<>(2);
    assertThatThrownBy(
            () ->
                cache.get(
                    1,
                    k -> {
                      throw new IllegalStateException("down");
                    }))
        .hasMessage("down");
    assertThat(cache.get(1, k -> "up")).isEqualTo("up");
  }
}
