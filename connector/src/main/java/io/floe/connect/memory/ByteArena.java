/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.memory;

import java.util.Arrays;

/**
 * Bytes appended one run after another into pages, each run addressed by an {@code int}: the page's
 * number times {@link #PAGE} plus the run's offset in it. A run never spans pages; one longer than
 * a page gets a page of its own.
 *
 * <p>Pages, not one growing array: an arena of a million keys grows by another page instead of
 * copying everything it holds into an array twice as large, and no page is large enough for the
 * collector to need a contiguous run of free regions for it (an array of hundreds of MiB can fail
 * to be placed in a small heap that has the room in pieces). Pages start small and double up to
 * {@link #PAGE}, so an arena holding a few keys stays small. Not thread-safe.
 */
public final class ByteArena {
  public static final int PAGE_BITS = 18;

  /** The size of a full page, 256 KiB. */
  public static final int PAGE = 1 << PAGE_BITS;

  private static final int OFFSET_MASK = PAGE - 1;
  private static final int MAX_PAGES = 1 << (31 - PAGE_BITS);
  private static final int FIRST_PAGE = 4096;

  private byte[][] pages = new byte[4][];
  private int pageCount;
  private int fill; // bytes used in the last page
  private long capacity;
  private long used;

  /**
   * Appends {@code length} bytes of {@code source} from {@code from}.
   *
   * @return the run's address
   * @throws IllegalStateException if the arena would pass 2 GiB
   */
  public int append(byte[] source, int from, int length) {
    if (pageCount == 0 || fill + length > pages[pageCount - 1].length) {
      addPage(length);
    }
    int address = ((pageCount - 1) << PAGE_BITS) | fill;
    System.arraycopy(source, from, pages[pageCount - 1], fill, length);
    fill += length;
    used += length;
    return address;
  }

  private void addPage(int atLeast) {
    if (pageCount == MAX_PAGES) {
      throw new IllegalStateException(
          "The changed keys of one cycle take more than 2 GiB; lower"
              + " iceberg.control.commit.buffer-bytes so that tasks hand over sooner");
    }
    int size = pageCount == 0 ? FIRST_PAGE : Math.min(PAGE, pages[pageCount - 1].length * 2);
    byte[] page = new byte[Math.max(size, atLeast)];
    if (pageCount == pages.length) {
      pages = Arrays.copyOf(pages, pageCount * 2);
    }
    pages[pageCount++] = page;
    fill = 0;
    capacity += page.length;
  }

  /** The page run {@code address} is in. */
  public byte[] page(int address) {
    return pages[address >>> PAGE_BITS];
  }

  /** Where in its {@link #page} run {@code address} starts. */
  public static int offset(int address) {
    return address & OFFSET_MASK;
  }

  /** Whether the run at {@code address} of {@code length} bytes equals {@code other}'s first. */
  public boolean equals(int address, int length, byte[] other, int otherLength) {
    int at = offset(address);
    return Arrays.equals(page(address), at, at + length, other, 0, otherLength);
  }

  /** Writes {@code length} bytes of {@code source} over the run at {@code address}. */
  public void overwrite(int address, byte[] source, int length) {
    System.arraycopy(source, 0, page(address), offset(address), length);
  }

  /** The bytes the runs appended take. */
  public long used() {
    return used;
  }

  /** The bytes the pages take, full or not. */
  public long capacity() {
    return capacity;
  }
}
