/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteArenaTest {
  private final ByteArena arena = new ByteArena();

  private static byte[] run(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private byte[] read(int address, int length) {
    int at = ByteArena.offset(address);
    return Arrays.copyOfRange(arena.page(address), at, at + length);
  }

  @Test
  void everyRunReadsBackAsAppendedAcrossManyPages() {
    Random random = new Random(7);
    List<byte[]> runs = new ArrayList<>();
    List<Integer> addresses = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < 40_000; i++) {
      byte[] bytes = run(random, 1 + random.nextInt(100));
      runs.add(bytes);
      addresses.add(arena.append(bytes, 0, bytes.length));
      total += bytes.length;
    }
    assertThat(arena.used()).isEqualTo(total);
    assertThat(arena.capacity()).isGreaterThan(3L * ByteArena.PAGE).isLessThan(total * 2);
    for (int i = 0; i < runs.size(); i++) {
      byte[] bytes = runs.get(i);
      assertThat(read(addresses.get(i), bytes.length)).isEqualTo(bytes);
      assertThat(arena.equals(addresses.get(i), bytes.length, bytes, bytes.length)).isTrue();
    }
  }

  @Test
  void noPageIsLargerThanAPageButThePageOfALongerRun() {
    Random random = new Random(11);
    int small = arena.append(run(random, 10), 0, 10);
    byte[] huge = run(random, 3 * ByteArena.PAGE + 5);
    int hugeAt = arena.append(huge, 0, huge.length);
    int after = arena.append(run(random, 10), 0, 10);
    assertThat(arena.page(small).length).isLessThanOrEqualTo(ByteArena.PAGE);
    assertThat(ByteArena.offset(hugeAt)).isZero();
    assertThat(arena.page(hugeAt)).isEqualTo(huge);
    assertThat(arena.page(after)).isNotSameAs(arena.page(hugeAt));
    for (int i = 0; i < 20_000; i++) {
      arena.append(run(random, 50), 0, 50);
    }
    assertThat(arena.page(arena.append(new byte[1], 0, 1)).length).isEqualTo(ByteArena.PAGE);
  }

  @Test
  void aRunOverwrittenInPlaceReadsBackNewAndLeavesItsNeighbours() {
    int first = arena.append(new byte[] {1, 2, 3}, 0, 3);
    int second = arena.append(new byte[] {4, 5, 6}, 0, 3);
    arena.overwrite(first, new byte[] {9, 8}, 2);
    assertThat(read(first, 3)).containsExactly(9, 8, 3);
    assertThat(read(second, 3)).containsExactly(4, 5, 6);
    assertThat(arena.equals(first, 2, new byte[] {9, 8, 7}, 2)).isTrue();
    assertThat(arena.equals(first, 2, new byte[] {9, 7}, 2)).isFalse();
  }
}
