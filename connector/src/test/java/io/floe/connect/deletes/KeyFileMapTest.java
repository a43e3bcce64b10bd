/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The index's table of hashes and file numbers, against a plain map doing the same. */
class KeyFileMapTest {

  @Test
  void holdsWhatAPlainMapHoldsThroughAddsRemovalsAndSweeps() {
    for (long seed = 1; seed <= 5; seed++) {
      Random random = new Random(seed);
      KeyFileMap map = new KeyFileMap(Long.MAX_VALUE);
      Map<Long, Set<Integer>> expected = new HashMap<>();
      // few distinct hashes and many colliding home slots: long probe runs, removals inside them
      long space = 4_000;
      for (int step = 0; step < 60_000; step++) {
        long hash = 1 + random.nextInt((int) space) * (random.nextBoolean() ? 1L : 1L << 32);
        int op = random.nextInt(10);
        if (op < 6) {
          int file = random.nextInt(8);
          boolean added = expected.computeIfAbsent(hash, h -> new HashSet<>()).add(file);
          assertThat(map.add(hash, file)).isEqualTo(added);
        } else if (op < 9) {
          int dropped = random.nextInt(8);
          Set<Integer> droppedSeen = new HashSet<>();
          map.retain(hash, file -> file != dropped, droppedSeen::add);
          Set<Integer> files = expected.get(hash);
          boolean had = files != null && files.remove(dropped);
          assertThat(droppedSeen).isEqualTo(had ? Set.of(dropped) : Set.of());
          if (files != null && files.isEmpty()) {
            expected.remove(hash);
          }
        } else if (step % 500 == 0) {
          int dead = random.nextInt(8);
          map.retainAll(file -> file != dead);
          expected.values().forEach(files -> files.remove(dead));
          expected.values().removeIf(Set::isEmpty);
        }
      }
      assertThat(map.size()).isEqualTo(expected.size());
      for (long hash = 1; hash <= space; hash++) {
        for (long h : new long[] {hash, hash << 32 | 1}) {
          Set<Integer> files = new TreeSet<>();
          map.forEach(h, files::add);
          assertThat(files).as("hash %s", h).isEqualTo(expected.getOrDefault(h, Set.of()));
        }
      }
    }
  }

  @Test
  void refusesToGrowPastItsLimit() {
    KeyFileMap map = new KeyFileMap(100_000);
    assertThatThrownBy(
            () -> {
              for (long hash = 1; hash < 100_000; hash++) {
                map.add(hash, 0);
              }
            })
        .isInstanceOf(KeyFileMap.Full.class);
    assertThat(map.bytes()).isLessThanOrEqualTo(100_000);
  }
}
