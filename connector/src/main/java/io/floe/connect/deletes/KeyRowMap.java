/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * Keys, known by their 128-bit hash ({@link KeyHash}: a probe half and a check half), to the rows
 * that hold them, each row a data file's number and a position in it ({@link #row}): an
 * open-addressing table of primitive arrays (linear probing on the probe half, backward-shift
 * removal), so that a key costs 24 bytes of slot plus the table's spare room, with no object per
 * key. The table is at most three quarters full and grows by half, not double, so its spare room
 * stays between a quarter and a half of it: about 39 bytes a key on average, where doubling left
 * 48. A key in one row (the usual case) keeps the row in its slot; a key in several keeps them in a
 * small array of its own.
 *
 * <p>The table never grows past its byte limit: a growth that would pass it throws {@link Full}.
 */
final class KeyRowMap {
  /** Thrown when the table would need more bytes than its limit. */
  static final class Full extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Full(long bytes) {
      super("the key index would take " + bytes + " bytes");
    }
  }

  /** The largest row position a row can carry. */
  static final long MAX_POSITION = 0xFFFF_FFFFL;

  private static final int SLOT_BYTES = 3 * Long.BYTES;
  private static final int MIN_CAPACITY = 1 << 10;
  private static final int ARRAY_HEADER_BYTES = 16;

  private final long maxBytes;
  private long[] hashes;
  private long[] checks;
  private long[] rows;
  private int size;

  /** The rows of keys in several: {@code lists[i][0]} is the count, then the rows. */
  private long[][] lists = new long[16][];

  private int[] freeLists = new int[16];
  private int freeListCount;
  private int listCount;
  private long listBytes;

  KeyRowMap(long maxBytes) {
    this.maxBytes = maxBytes;
    allocate(MIN_CAPACITY);
  }

  /**
   * A row: the data file's number (from 0) and the position in it.
   *
   * @throws UnsupportedOperationException if the position is past {@link #MAX_POSITION}
   */
  static long row(int file, long position) {
    if (position < 0 || position > MAX_POSITION) {
      throw new UnsupportedOperationException("a row position past " + MAX_POSITION);
    }
    return (long) file << 32 | position;
  }

  /** The number of the data file holding {@code row}. */
  static int file(long row) {
    return (int) (row >>> 32);
  }

  /** The position of {@code row} in its data file. */
  static long position(long row) {
    return row & MAX_POSITION;
  }

  private void allocate(int capacity) {
    long bytes = (long) capacity * SLOT_BYTES + listBytes + (long) lists.length * Long.BYTES;
    if (bytes > maxBytes) {
      throw new Full(bytes);
    }
    hashes = new long[capacity];
    checks = new long[capacity];
    rows = new long[capacity];
  }

  /** The keys held. */
  int size() {
    return size;
  }

  /** An estimate of the bytes the table holds on the heap. */
  long bytes() {
    return (long) hashes.length * SLOT_BYTES
        + listBytes
        + (long) lists.length * Long.BYTES
        + (long) freeLists.length * Integer.BYTES;
  }

  /**
   * Adds {@code row} to the rows of the key.
   *
   * @param hash the key's probe half, never 0
   * @param check the key's check half
   * @return whether it was not among them yet
   */
  boolean add(long hash, long check, long row) {
    int slot = find(hash, check);
    if (hashes[slot] == 0) {
      if (overfull(size + 1, hashes.length)) {
        grow();
        slot = find(hash, check);
      }
      hashes[slot] = hash;
      checks[slot] = check;
      rows[slot] = row;
      size++;
      return true;
    }
    long held = rows[slot];
    if (held >= 0) {
      if (held == row) {
        return false;
      }
      rows[slot] = -1 - newList(held, row);
      return true;
    }
    return addToList((int) (-1 - held), row);
  }

  /** Calls {@code action} with each row of the key. */
  void forEach(long hash, long check, LongConsumer action) {
    int slot = find(hash, check);
    if (hashes[slot] == 0) {
      return;
    }
    long held = rows[slot];
    if (held >= 0) {
      action.accept(held);
      return;
    }
    long[] list = lists[(int) (-1 - held)];
    for (int i = 1; i <= list[0]; i++) {
      action.accept(list[i]);
    }
  }

  /**
   * Keeps of the rows of the key those {@code keep} accepts, and forgets the key when none is left;
   * calls {@code dropped} with each row dropped.
   */
  void retain(long hash, long check, LongPredicate keep, LongConsumer dropped) {
    int slot = find(hash, check);
    if (hashes[slot] == 0) {
      return;
    }
    long held = rows[slot];
    if (held >= 0) {
      if (!keep.test(held)) {
        dropped.accept(held);
        removeAt(slot);
      }
      return;
    }
    int index = (int) (-1 - held);
    long[] list = lists[index];
    int kept = 0;
    for (int i = 1; i <= list[0]; i++) {
      if (keep.test(list[i])) {
        list[++kept] = list[i];
      } else {
        dropped.accept(list[i]);
      }
    }
    list[0] = kept;
    if (kept == 0) {
      freeList(index);
      removeAt(slot);
    } else if (kept == 1) {
      rows[slot] = list[1];
      freeList(index);
    }
  }

  /**
   * Keeps, for every key, only the rows of the files {@code live} accepts, forgetting keys left
   * with none; the table shrinks to fit what is left.
   */
  void retainAll(IntPredicate live) {
    long[] oldHashes = hashes;
    long[] oldChecks = checks;
    long[] oldRows = rows;
    long[][] oldLists = lists;
    lists = new long[16][];
    freeLists = new int[16];
    freeListCount = 0;
    listCount = 0;
    listBytes = 0;
    size = 0;
    int capacity = MIN_CAPACITY;
    int left = 0;
    for (long hash : oldHashes) {
      if (hash != 0) {
        left++;
      }
    }
    while (overfull(left, capacity)) {
      capacity = grown(capacity);
    }
    hashes = new long[capacity];
    checks = new long[capacity];
    rows = new long[capacity];
    for (int slot = 0; slot < oldHashes.length; slot++) {
      long hash = oldHashes[slot];
      if (hash == 0) {
        continue;
      }
      long held = oldRows[slot];
      if (held >= 0) {
        if (live.test(file(held))) {
          add(hash, oldChecks[slot], held);
        }
      } else {
        long[] list = oldLists[(int) (-1 - held)];
        for (int i = 1; i <= list[0]; i++) {
          if (live.test(file(list[i]))) {
            add(hash, oldChecks[slot], list[i]);
          }
        }
      }
    }
  }

  private static boolean overfull(long keys, int capacity) {
    return keys * 4L > capacity * 3L;
  }

  private static int grown(int capacity) {
    long grown = capacity + (capacity >> 1);
    if (grown > Integer.MAX_VALUE - 8) {
      throw new Full(grown * SLOT_BYTES);
    }
    return (int) grown;
  }

  private int find(long hash, long check) {
    int capacity = hashes.length;
    int slot = home(hash, capacity);
    while (hashes[slot] != 0 && (hashes[slot] != hash || checks[slot] != check)) {
      slot = next(slot, capacity);
    }
    return slot;
  }

  /** The slot a hash starts its probe at: its folded 32 bits scaled to the capacity. */
  private static int home(long hash, int capacity) {
    return (int) (((hash ^ (hash >>> 32)) & 0xFFFF_FFFFL) * capacity >>> 32);
  }

  private static int next(int slot, int capacity) {
    return slot + 1 == capacity ? 0 : slot + 1;
  }

  /** Removes the slot's entry, moving later entries of its probe run back into the gap. */
  private void removeAt(int removed) {
    int capacity = hashes.length;
    int gap = removed;
    int slot = gap;
    while (true) {
      slot = next(slot, capacity);
      if (hashes[slot] == 0) {
        break;
      }
      int home = home(hashes[slot], capacity);
      boolean between = gap <= slot ? gap < home && home <= slot : gap < home || home <= slot;
      if (!between) {
        hashes[gap] = hashes[slot];
        checks[gap] = checks[slot];
        rows[gap] = rows[slot];
        gap = slot;
      }
    }
    hashes[gap] = 0;
    checks[gap] = 0;
    rows[gap] = 0;
    size--;
  }

  private void grow() {
    long[] oldHashes = hashes;
    long[] oldChecks = checks;
    long[] oldRows = rows;
    allocate(grown(oldHashes.length));
    int capacity = hashes.length;
    for (int slot = 0; slot < oldHashes.length; slot++) {
      long hash = oldHashes[slot];
      if (hash != 0) {
        int to = home(hash, capacity);
        while (hashes[to] != 0) {
          to = next(to, capacity);
        }
        hashes[to] = hash;
        checks[to] = oldChecks[slot];
        rows[to] = oldRows[slot];
      }
    }
  }

  private int newList(long first, long second) {
    int index;
    if (freeListCount > 0) {
      index = freeLists[--freeListCount];
    } else {
      if (listCount == lists.length) {
        lists = Arrays.copyOf(lists, lists.length * 2);
      }
      index = listCount++;
    }
    long[] list = new long[4];
    list[0] = 2;
    list[1] = first;
    list[2] = second;
    lists[index] = list;
    listBytes += arrayBytes(list);
    return index;
  }

  private boolean addToList(int index, long row) {
    long[] list = lists[index];
    for (int i = 1; i <= list[0]; i++) {
      if (list[i] == row) {
        return false;
      }
    }
    if (list[0] + 1 == list.length) {
      long[] longer = Arrays.copyOf(list, list.length * 2);
      listBytes += arrayBytes(longer) - arrayBytes(list);
      lists[index] = longer;
      list = longer;
    }
    list[(int) ++list[0]] = row;
    return true;
  }

  private void freeList(int index) {
    listBytes -= arrayBytes(lists[index]);
    lists[index] = null;
    if (freeListCount == freeLists.length) {
      freeLists = Arrays.copyOf(freeLists, freeLists.length * 2);
    }
    freeLists[freeListCount++] = index;
  }

  private static long arrayBytes(long[] array) {
    return ARRAY_HEADER_BYTES + (long) array.length * Long.BYTES;
  }
}
