/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * Key hashes to the numbers of the data files that may hold them: an open-addressing table of
 * primitive arrays (linear probing, backward-shift removal), so that an entry costs 12 bytes of
 * slot plus the table's spare room, with no object per key. A hash in one file (the usual case)
 * keeps the file's number in its slot; a hash in several keeps them in a small array of its own.
 *
 * <p>The table never grows past its byte limit: a growth that would pass it throws {@link Full}.
 */
final class KeyFileMap {
  /** Thrown when the table would need more bytes than its limit. */
  static final class Full extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Full(long bytes) {
      super("the key index would take " + bytes + " bytes");
    }
  }

  private static final int SLOT_BYTES = Long.BYTES + Integer.BYTES;
  private static final int MIN_CAPACITY = 1 << 10;
  private static final int ARRAY_HEADER_BYTES = 16;

  private final long maxBytes;
  private long[] hashes;
  private int[] files;
  private int size;

  /** The files of hashes in several files: {@code lists[i][0]} is the count, then the numbers. */
  private int[][] lists = new int[16][];

  private int[] freeLists = new int[16];
  private int freeListCount;
  private int listCount;
  private long listBytes;

  KeyFileMap(long maxBytes) {
    this.maxBytes = maxBytes;
    allocate(MIN_CAPACITY);
  }

  private void allocate(int capacity) {
    long bytes = (long) capacity * SLOT_BYTES + listBytes + (long) lists.length * Long.BYTES;
    if (bytes > maxBytes) {
      throw new Full(bytes);
    }
    hashes = new long[capacity];
    files = new int[capacity];
  }

  /** The hashes held. */
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
   * Adds {@code file} to the files of {@code hash}.
   *
   * @return whether it was not among them yet
   */
  boolean add(long hash, int file) {
    int slot = find(hash);
    if (hashes[slot] == 0) {
      if ((size + 1) * 4L > hashes.length * 3L) {
        grow();
        slot = find(hash);
      }
      hashes[slot] = hash;
      files[slot] = file;
      size++;
      return true;
    }
    int held = files[slot];
    if (held >= 0) {
      if (held == file) {
        return false;
      }
      files[slot] = -1 - newList(held, file);
      return true;
    }
    return addToList(-1 - held, file);
  }

  /** Calls {@code action} with each file of {@code hash}. */
  void forEach(long hash, IntConsumer action) {
    int slot = find(hash);
    if (hashes[slot] == 0) {
      return;
    }
    int held = files[slot];
    if (held >= 0) {
      action.accept(held);
      return;
    }
    int[] list = lists[-1 - held];
    for (int i = 1; i <= list[0]; i++) {
      action.accept(list[i]);
    }
  }

  /**
   * Keeps of the files of {@code hash} those {@code keep} accepts, and forgets the hash when none
   * is left; calls {@code dropped} with each file dropped.
   */
  void retain(long hash, IntPredicate keep, IntConsumer dropped) {
    int slot = find(hash);
    if (hashes[slot] == 0) {
      return;
    }
    int held = files[slot];
    if (held >= 0) {
      if (!keep.test(held)) {
        dropped.accept(held);
        removeAt(slot);
      }
      return;
    }
    int index = -1 - held;
    int[] list = lists[index];
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
      files[slot] = list[1];
      freeList(index);
    }
  }

  /**
   * Keeps, for every hash, only the files {@code live} accepts, forgetting hashes left with none;
   * the table shrinks to fit what is left.
   */
  void retainAll(IntPredicate live) {
    long[] oldHashes = hashes;
    int[] oldFiles = files;
    int[][] oldLists = lists;
    lists = new int[16][];
    freeLists = new int[16];
    freeListCount = 0;
    listCount = 0;
    listBytes = 0;
    size = 0;
    int capacity = MIN_CAPACITY;
    int left = 0;
    for (int slot = 0; slot < oldHashes.length; slot++) {
      if (oldHashes[slot] != 0) {
        left++;
      }
    }
    while (left * 4L > capacity * 3L) {
      capacity <<= 1;
    }
    hashes = new long[capacity];
    files = new int[capacity];
    for (int slot = 0; slot < oldHashes.length; slot++) {
      long hash = oldHashes[slot];
      if (hash == 0) {
        continue;
      }
      int held = oldFiles[slot];
      if (held >= 0) {
        if (live.test(held)) {
          add(hash, held);
        }
      } else {
        int[] list = oldLists[-1 - held];
        for (int i = 1; i <= list[0]; i++) {
          if (live.test(list[i])) {
            add(hash, list[i]);
          }
        }
      }
    }
  }

  private int find(long hash) {
    int mask = hashes.length - 1;
    int slot = home(hash, mask);
    while (hashes[slot] != 0 && hashes[slot] != hash) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private static int home(long hash, int mask) {
    return (int) (hash ^ (hash >>> 32)) & mask;
  }

  /** Removes the slot's entry, moving later entries of its probe run back into the gap. */
  private void removeAt(int removed) {
    int mask = hashes.length - 1;
    int gap = removed;
    int slot = gap;
    while (true) {
      slot = (slot + 1) & mask;
      if (hashes[slot] == 0) {
        break;
      }
      int home = home(hashes[slot], mask);
      boolean between = gap <= slot ? gap < home && home <= slot : gap < home || home <= slot;
      if (!between) {
        hashes[gap] = hashes[slot];
        files[gap] = files[slot];
        gap = slot;
      }
    }
    hashes[gap] = 0;
    files[gap] = 0;
    size--;
  }

  private void grow() {
    long[] oldHashes = hashes;
    int[] oldFiles = files;
    allocate(oldHashes.length << 1);
    int mask = hashes.length - 1;
    for (int slot = 0; slot < oldHashes.length; slot++) {
      long hash = oldHashes[slot];
      if (hash != 0) {
        int to = home(hash, mask);
        while (hashes[to] != 0) {
          to = (to + 1) & mask;
        }
        hashes[to] = hash;
        files[to] = oldFiles[slot];
      }
    }
  }

  private int newList(int first, int second) {
    int index;
    if (freeListCount > 0) {
      index = freeLists[--freeListCount];
    } else {
      if (listCount == lists.length) {
        lists = Arrays.copyOf(lists, lists.length * 2);
      }
      index = listCount++;
    }
    int[] list = new int[4];
    list[0] = 2;
    list[1] = first;
    list[2] = second;
    lists[index] = list;
    listBytes += arrayBytes(list);
    return index;
  }

  private boolean addToList(int index, int file) {
    int[] list = lists[index];
    for (int i = 1; i <= list[0]; i++) {
      if (list[i] == file) {
        return false;
      }
    }
    if (list[0] + 1 == list.length) {
      int[] longer = Arrays.copyOf(list, list.length * 2);
      listBytes += arrayBytes(longer) - arrayBytes(list);
      lists[index] = longer;
      list = longer;
    }
    list[++list[0]] = file;
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

  private static long arrayBytes(int[] array) {
    return ARRAY_HEADER_BYTES + (long) array.length * Integer.BYTES;
  }
}
