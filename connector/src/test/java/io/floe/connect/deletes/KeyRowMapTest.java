/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The index's table of keys and rows, against a plain map doing the same. */
class KeyRowMapTest {

  @Test
  void holdsWhatAPlainMapHoldsThroughAddsRemovalsAndSweeps() {
    for (long seed = 1; seed <= 5; seed++) {
      Random random = new Random(seed);
      KeyRowMap map = new KeyRowMap(Long.MAX_VALUE);
      Map<List<Long>, Set<Long>> expected = new HashMap<>();
      // few distinct probe halves and many colliding home slots: long probe runs, removals inside
      // them, and keys told apart by their check half alone
      long space = 2_000;
      for (int step = 0; step < 60_000; step++) {
        long hash = 1 + random.nextInt((int) space) * (random.nextBoolean() ? 1L : 1L << 32);
        long check = random.nextInt(3);
        List<Long> key = List.of(hash, check);
        int op = random.nextInt(10);
        if (op < 6) {
          long row =
              KeyRowMap.row(
                  random.nextInt(8), random.nextInt(2) * 0x8000_0000L + random.nextInt(2));
          boolean added = expected.computeIfAbsent(key, k -> new HashSet<>()).add(row);
          assertThat(map.add(hash, check, row)).isEqualTo(added);
        } else if (op < 9) {
          int dropped = random.nextInt(8);
          Set<Long> droppedSeen = new HashSet<>();
          map.retain(hash, check, row -> KeyRowMap.file(row) != dropped, droppedSeen::add);
          Set<Long> rows = expected.get(key);
          Set<Long> gone = new HashSet<>();
          if (rows != null) {
            rows.removeIf(row -> KeyRowMap.file(row) == dropped && gone.add(row));
            if (rows.isEmpty()) {
              expected.remove(key);
            }
          }
          assertThat(droppedSeen).isEqualTo(gone);
        } else if (step % 500 == 0) {
          int dead = random.nextInt(8);
          map.retainAll(file -> file != dead);
          expected.values().forEach(rows -> rows.removeIf(row -> KeyRowMap.file(row) == dead));
          expected.values().removeIf(Set::isEmpty);
        }
      }
      assertThat(map.size()).isEqualTo(expected.size());
      for (long hash = 1; hash <= space; hash++) {
        for (long h : new long[] {hash, hash << 32 | 1}) {
          for (long check = 0; check < 3; check++) {
            Set<Long> rows = new TreeSet<>();
            map.forEach(h, check, rows::add);
            assertThat(rows)
                .as("key %s/%s", h, check)
                .isEqualTo(expected.getOrDefault(List.of(h, check), Set.of()));
          }
        }
      }
    }
  }

  @Test
  void aRowIsItsFileAndPositionUpToFourBillionRows() {
    long row = KeyRowMap.row(12345, KeyRowMap.MAX_POSITION);
    assertThat(KeyRowMap.file(row)).isEqualTo(12345);
    assertThat(KeyRowMap.position(row)).isEqualTo(KeyRowMap.MAX_POSITION);
    assertThat(row).isPositive();
    assertThatThrownBy(() -> KeyRowMap.row(0, KeyRowMap.MAX_POSITION + 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void refusesToGrowPastItsLimit() {
    KeyRowMap map = new KeyRowMap(100_000);
    assertThatThrownBy(
            () -> {
              for (long hash = 1; hash < 100_000; hash++) {
                map.add(hash, 0, 0);
              }
            })
        .isInstanceOf(KeyRowMap.Full.class);
    assertThat(map.bytes()).isLessThanOrEqualTo(100_000);
  }
}
