/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import io.floe.connect.memory.ByteArena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.LongConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One table's changes of one cycle, folded per key: the last change of a key wins, so a cycle
 * leaves at most one live row image and retires at most one committed row per key, whatever the
 * number of changes.
 *
 * <p>The caller writes each upsert's image as it comes and folds in where it wrote it (a number of
 * its own, the row); the fold hands back the rows a change supersedes, written earlier in the
 * cycle, for the caller to delete with the cycle's commit.
 *
 * <p>Changes must come in offset order per source partition (the order {@code put} delivers them);
 * since a keyed topic keeps each key in one partition, that is each key's order. Keys come out in
 * the order they entered the fold: at their first change, or their first after a truncate.
 *
 * <ul>
 *   <li>An upsert sets the key's row; a delete clears it. Either way a row of the key committed in
 *       an earlier cycle must go, so the key is retired, and the key's row written earlier in the
 *       cycle is superseded.
 *   <li>A truncate drops everything folded so far (every row written in the cycle is superseded)
 *       and marks the cycle {@link #truncated()}: every row committed before the cycle goes, so
 *       keys changed after it need no retiring, and a key whose only changes after it end in a
 *       delete leaves nothing at all.
 *   <li>A skip changes nothing.
 * </ul>
 *
 * <p>Holds a key as bytes in a few arrays (its {@link RowKey}'s values, which tell keys apart, and
 * its converted form, through the caller's {@link Codec}), with no object per key: a fold that has
 * grown old in the heap takes in new keys without giving the collector references from old to young
 * objects to rescan at every young collection. Not thread-safe.
 *
 * @param <K> the form the caller keeps each key in besides its {@link RowKey}
 */
public final class KeyedChanges<K> {
  /** No row: a key whose last change deleted it. */
  public static final long NO_ROW = -1;

  /** How the caller's form of a key is kept as bytes, and read back. */
  public interface Codec<K> {
    void write(K key, KeyBytes.Writer out);

    K read(KeyBytes.Reader in);
  }

  private static final int FREE = 0;
  private static final int REMOVED = -1;
  private static final byte RETIRE = 1;
  private static final byte GONE = 2;

  private final Codec<K> codec;
  private final Map<TopicPartition, long[]> lastOffsets = new HashMap<>();
  private final List<List<String>> columnLists = new ArrayList<>();
  private final KeyBytes.Writer scratch = new KeyBytes.Writer();
  private boolean truncated;

  // every key entered since the last truncate, in order: its bytes in the arena (the number of
  // its column list, its values, then its converted form), its row, its flags
  private ByteArena arena = new ByteArena();
  private long arenaWaste;
  private int compactions;
  private int entries;
  private int live;
  private int[] keyAt = new int[64];
  private int[] keyLength = new int[64];
  private int[] convertedAt = new int[64];
  private int[] convertedLength = new int[64];
  private int[] hashes = new int[64];
  private long[] rows = new long[64];
  private byte[] flags = new byte[64];
  // open addressing over the entries: entry + 1, FREE or REMOVED
  private int[] table = new int[128];
  private int removedSlots;

  public KeyedChanges(Codec<K> codec) {
    this.codec = codec;
  }

  /**
   * Folds in the next change.
   *
   * @param row for an upsert, where its image was written (not {@link #NO_ROW}); ignored otherwise
   * @param converted the key in the caller's form, for an upsert or a delete
   * @param superseded is given every row written earlier in the cycle that the change supersedes
   * @throws IllegalStateException if the change's source offset is not past the last one of its
   *     source partition
   */
  public void add(Change change, long row, K converted, LongConsumer superseded) {
    checkOrder(change.record());
    switch (change.kind()) {
      case UPSERT -> {
        int entry = find(change.key());
        if (entry < 0) {
          entry = enter(!truncated);
        }
        supersede(rows[entry], superseded);
        set(entry, row, converted);
      }
      case DELETE -> delete(change.key(), converted, superseded);
      case TRUNCATE -> {
        for (int entry = 0; entry < entries; entry++) {
          if ((flags[entry] & GONE) == 0) {
            supersede(rows[entry], superseded);
          }
        }
        clear();
        truncated = true;
      }
      case SKIP -> {}
    }
  }

  private static void supersede(long row, LongConsumer superseded) {
    if (row != NO_ROW) {
      superseded.accept(row);
    }
  }

  private void delete(RowKey key, K converted, LongConsumer superseded) {
    int entry = find(key);
    if (entry < 0) {
      if (!truncated) {
        set(enter(true), NO_ROW, converted);
      }
    } else if ((flags[entry] & RETIRE) != 0) {
      supersede(rows[entry], superseded);
      set(entry, NO_ROW, converted);
    } else {
      supersede(rows[entry], superseded);
      remove(entry);
    }
  }

  private void checkOrder(SinkRecord record) {
    TopicPartition origin =
        new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    long offset = record.originalKafkaOffset();
    long[] last = lastOffsets.get(origin);
    if (last == null) {
      lastOffsets.put(origin, new long[] {offset});
    } else if (offset <= last[0]) {
      throw new IllegalStateException(
          String.format(
              "Changes of %s must come in offset order: offset %d after %d",
              origin, offset, last[0]));
    } else {
      last[0] = offset;
    }
  }

  // --- the entries

  /** The entry of the key just written to {@link #scratch} by {@link #find}, or -1. */
  private int find(RowKey key) {
    scratch.clear();
    scratch.putVarint(columnList(key.columns()));
    key.writeValues(scratch);
    int hash = hash(scratch.array(), scratch.size());
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int held = table[slot];
      if (held == FREE) {
        return -1;
      }
      if (held != REMOVED) {
        int entry = held - 1;
        if (hashes[entry] == hash
            && arena.equals(keyAt[entry], keyLength[entry], scratch.array(), scratch.size())) {
          return entry;
        }
      }
    }
  }

  private int columnList(List<String> columns) {
    for (int i = 0; i < columnLists.size(); i++) {
      List<String> known = columnLists.get(i);
      if (known == columns || known.equals(columns)) {
        return i;
      }
    }
    columnLists.add(columns);
    return columnLists.size() - 1;
  }

  /** A new entry for the key in {@link #scratch}, with no row yet. */
  private int enter(boolean retire) {
    if (entries == rows.length) {
      int capacity = entries * 2;
      keyAt = Arrays.copyOf(keyAt, capacity);
      keyLength = Arrays.copyOf(keyLength, capacity);
      convertedAt = Arrays.copyOf(convertedAt, capacity);
      convertedLength = Arrays.copyOf(convertedLength, capacity);
      hashes = Arrays.copyOf(hashes, capacity);
      rows = Arrays.copyOf(rows, capacity);
      flags = Arrays.copyOf(flags, capacity);
    }
    if ((live + removedSlots + 1) * 2 > table.length) {
      rehash(live + 1 > table.length / 4 ? table.length * 2 : table.length);
    }
    int entry = entries++;
    live++;
    int hash = hash(scratch.array(), scratch.size());
    keyAt[entry] = append(scratch.array(), scratch.size());
    keyLength[entry] = scratch.size();
    convertedLength[entry] = 0;
    hashes[entry] = hash;
    rows[entry] = NO_ROW;
    flags[entry] = retire ? RETIRE : 0;
    place(entry);
    return entry;
  }

  private void set(int entry, long row, K converted) {
    rows[entry] = row;
    scratch.clear();
    if (converted != null) {
      codec.write(converted, scratch);
    }
    int length = scratch.size();
    if (length == convertedLength[entry]
        && arena.equals(convertedAt[entry], length, scratch.array(), length)) {
      return; // the same as before: most updates of a key
    }
    if (length <= convertedLength[entry]) {
      arena.overwrite(convertedAt[entry], scratch.array(), length);
      arenaWaste += convertedLength[entry] - length;
    } else {
      arenaWaste += convertedLength[entry];
      convertedAt[entry] = append(scratch.array(), length);
    }
    convertedLength[entry] = length;
  }

  private void remove(int entry) {
    flags[entry] |= GONE;
    live--;
    arenaWaste += keyLength[entry] + convertedLength[entry];
    int mask = table.length - 1;
    for (int slot = hashes[entry] & mask; ; slot = (slot + 1) & mask) {
      if (table[slot] == entry + 1) {
        table[slot] = REMOVED;
        removedSlots++;
        return;
      }
    }
  }

  private void place(int entry) {
    int mask = table.length - 1;
    int slot = hashes[entry] & mask;
    while (table[slot] != FREE) {
      slot = (slot + 1) & mask;
    }
    table[slot] = entry + 1;
  }

  private void rehash(int capacity) {
    table = new int[capacity];
    removedSlots = 0;
    for (int entry = 0; entry < entries; entry++) {
      if ((flags[entry] & GONE) == 0) {
        place(entry);
      }
    }
  }

  /** Appends to the arena, first compacting it when half of it is waste; returns where. */
  private int append(byte[] bytes, int length) {
    if (arenaWaste > ByteArena.PAGE && arenaWaste > arena.used() / 2) {
      compact();
    }
    return arena.append(bytes, 0, length);
  }

  private void compact() {
    ByteArena packed = new ByteArena();
    for (int entry = 0; entry < entries; entry++) {
      if ((flags[entry] & GONE) == 0) {
        keyAt[entry] = moveTo(packed, keyAt[entry], keyLength[entry]);
        if (convertedLength[entry] > 0) {
          convertedAt[entry] = moveTo(packed, convertedAt[entry], convertedLength[entry]);
        }
      }
    }
    arena = packed;
    arenaWaste = 0;
    compactions++;
  }

  /** How many times the arena was compacted. */
  int compactions() {
    return compactions;
  }

  private int moveTo(ByteArena packed, int address, int length) {
    return packed.append(arena.page(address), ByteArena.offset(address), length);
  }

  private void clear() {
    entries = 0;
    live = 0;
    arena = new ByteArena();
    arenaWaste = 0;
    removedSlots = 0;
    Arrays.fill(table, FREE);
  }

  private static int hash(byte[] bytes, int length) {
    int h = 1;
    for (int i = 0; i < length; i++) {
      h = 31 * h + bytes[i];
    }
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    return h;
  }

  // --- reading the fold

  /**
   * Whether the cycle truncated the table: every row committed before the cycle must go, before the
   * {@link #keys()} are applied.
   */
  public boolean truncated() {
    return truncated;
  }

  /**
   * Each changed key's outcome, in the order of the keys' first changes; a read-only list of views
   * that read the key and its converted form from the fold when asked, valid until the next change.
   */
  public List<FoldedKey<K>> keys() {
    List<FoldedKey<K>> keys = new ArrayList<>(live);
    eachKey().forEach(keys::add);
    return Collections.unmodifiableList(keys);
  }

  /**
   * The changed keys of {@link #keys()}, one view at a time, with no list of them: what a fold of a
   * million keys is read with. Valid until the next change.
   */
  public Iterable<FoldedKey<K>> eachKey() {
    return () ->
        new Iterator<>() {
          private int next = nextLive(0);

          @Override
          public boolean hasNext() {
            return next < entries;
          }

          @Override
          public FoldedKey<K> next() {
            if (next >= entries) {
              throw new NoSuchElementException();
            }
            FoldedKey<K> key = new FoldedKey<>(KeyedChanges.this, next);
            next = nextLive(next + 1);
            return key;
          }
        };
  }

  private int nextLive(int from) {
    int entry = from;
    while (entry < entries && (flags[entry] & GONE) != 0) {
      entry++;
    }
    return entry;
  }

  RowKey key(int entry) {
    KeyBytes.Reader in = reader(keyAt[entry], keyLength[entry]);
    List<String> columns = columnLists.get((int) in.getVarint());
    return RowKey.readValues(columns, in);
  }

  K converted(int entry) {
    return convertedLength[entry] == 0
        ? null
        : codec.read(reader(convertedAt[entry], convertedLength[entry]));
  }

  private KeyBytes.Reader reader(int address, int length) {
    return new KeyBytes.Reader(arena.page(address), ByteArena.offset(address), length);
  }

  boolean retire(int entry) {
    return (flags[entry] & RETIRE) != 0;
  }

  long row(int entry) {
    return rows[entry];
  }

  /** How many keys the cycle changed. */
  public int size() {
    return live;
  }

  /** Whether the cycle changed nothing. */
  public boolean isEmpty() {
    return live == 0 && !truncated;
  }

  /** The bytes the fold's keys take on the heap, an estimate; 0 when it holds none. */
  public long heldBytes() {
    return entries == 0 ? 0 : arena.capacity() + 29L * entries + 4L * table.length;
  }
}
