/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The values of a table's {@code unique} fields one task wrote since its last hand-over, as 128-bit
 * hashes (MurmurHash3 x64 128 of the value's bytes: 16 bytes a value, in open-addressing tables at
 * most half full). A value whose hash is held already breaks the rule {@code unique}; two distinct
 * values share a hash with a chance of about n²/2¹²⁹, nil in practice.
 *
 * <p>A row is checked first ({@link #check}) and its values held once it is written ({@link
 * #admit}), so a record that another table refuses takes no value. At most {@link #MAX_KEYS} values
 * of a field are held a cycle: past it the field is not checked until the next hand-over, which the
 * task logs once. Not thread-safe: the task's writer calls it.
 */
public final class UniqueKeys {
  private static final Logger LOG = LoggerFactory.getLogger(UniqueKeys.class);

  /** The most values of one field held between two hand-overs. */
  public static final int MAX_KEYS = 1 << 20;

  private static final int FIRST_SLOTS = 1 << 10;

  private final String table;
  private final Contract contract;
  private final List<String> fields;
  private final HashSet128[] held;
  private final long[] staged;
  private final boolean[] isStaged;
  private final long[] hash = new long[2];

  public UniqueKeys(String table, Contract contract) {
    this.table = table;
    this.contract = contract;
    this.fields =
        contract.fields().stream().filter(FieldRule::unique).map(FieldRule::path).toList();
    this.held = new HashSet128[fields.size()];
    this.staged = new long[2 * fields.size()];
    this.isStaged = new boolean[fields.size()];
  }

  /** Whether the contract has a field to keep unique. */
  public boolean any() {
    return !fields.isEmpty();
  }

  /**
   * Checks the value of unique field {@code path}, null values aside, and stages it for {@link
   * #admit}.
   *
   * @throws ContractViolation naming the rule unique and the field, when a row written since the
   *     last hand-over had the same value
   */
  void check(String path, Object value) {
    int field = fields.indexOf(path);
    if (field < 0 || value == null) {
      return;
    }
    HashSet128 set = held[field];
    if (set != null && set.full) {
      return;
    }
    byte[] bytes = bytes(value);
    Murmur3.hash(bytes, 0x9747b28cL, hash);
    long h1 = hash[0];
    long h2 = hash[1];
    if (set != null && set.contains(h1, h2)) {
      throw new ContractViolation(table, contract, FieldRule.UNIQUE, path);
    }
    staged[2 * field] = h1;
    staged[2 * field + 1] = h2;
    isStaged[field] = true;
  }

  /** Holds the values of the row last checked: it was written. */
  public void admit() {
    for (int field = 0; field < isStaged.length; field++) {
      if (!isStaged[field]) {
        continue;
      }
      isStaged[field] = false;
      HashSet128 set = held[field];
      if (set == null) {
        set = held[field] = new HashSet128(FIRST_SLOTS);
      }
      if (set.size >= MAX_KEYS) {
        set.full = true;
        LOG.warn(
            "Table {}: {} values of unique field {} were written since the last hand-over, the"
                + " most Floe holds; the field's uniqueness is not checked until the next one",
            table,
            MAX_KEYS,
            fields.get(field));
        continue;
      }
      set.add(staged[2 * field], staged[2 * field + 1]);
    }
  }

  /** Forgets every value: a hand-over, or the writes since the last one were dropped. */
  public void clear() {
    java.util.Arrays.fill(held, null);
    java.util.Arrays.fill(isStaged, false);
  }

  /** The heap the held values take. */
  public long heldBytes() {
    long bytes = 0;
    for (HashSet128 set : held) {
      if (set != null) {
        bytes += 8L * set.slots.length;
      }
    }
    return bytes;
  }

  private static byte[] bytes(Object value) {
    if (value instanceof Long || value instanceof Integer) {
      return ByteBuffer.allocate(8).putLong(((Number) value).longValue()).array();
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof java.math.BigDecimal decimal) {
      return decimal.stripTrailingZeros().toPlainString().getBytes(StandardCharsets.UTF_8);
    }
    return value.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A set of 128-bit values by open addressing, at most half full; (0, 0) marks a free slot. */
  private static final class HashSet128 {
    private long[] slots;
    private int size;
    private boolean full;

    HashSet128(int capacity) {
      slots = new long[2 * capacity];
    }

    boolean contains(long h1, long h2) {
      if (h1 == 0 && h2 == 0) {
        h2 = 1;
      }
      int mask = slots.length / 2 - 1;
      for (int i = (int) h1 & mask; ; i = (i + 1) & mask) {
        long a = slots[2 * i];
        long b = slots[2 * i + 1];
        if (a == 0 && b == 0) {
          return false;
        }
        if (a == h1 && b == h2) {
          return true;
        }
      }
    }

    void add(long h1, long h2) {
      if (h1 == 0 && h2 == 0) {
        h2 = 1;
      }
      if (2 * (size + 1) > slots.length / 2) {
        long[] old = slots;
        slots = new long[2 * old.length];
        size = 0;
        for (int i = 0; i < old.length; i += 2) {
          if (old[i] != 0 || old[i + 1] != 0) {
            put(old[i], old[i + 1]);
          }
        }
      }
      put(h1, h2);
    }

    private void put(long h1, long h2) {
      int mask = slots.length / 2 - 1;
      for (int i = (int) h1 & mask; ; i = (i + 1) & mask) {
        long a = slots[2 * i];
        long b = slots[2 * i + 1];
        if (a == h1 && b == h2) {
          return;
        }
        if (a == 0 && b == 0) {
          slots[2 * i] = h1;
          slots[2 * i + 1] = h2;
          size++;
          return;
        }
      }
    }
  }

  /** MurmurHash3 x64 128, into {@code out}. */
  private static final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    static void hash(byte[] data, long seed, long[] out) {
      long h1 = seed;
      long h2 = seed;
      ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
      int blocks = data.length / 16;
      for (int i = 0; i < blocks; i++) {
        long k1 = in.getLong(16 * i);
        long k2 = in.getLong(16 * i + 8);
        h1 ^= Long.rotateLeft(k1 * C1, 31) * C2;
        h1 = Long.rotateLeft(h1, 27) + h2;
        h1 = h1 * 5 + 0x52dce729;
        h2 ^= Long.rotateLeft(k2 * C2, 33) * C1;
        h2 = Long.rotateLeft(h2, 31) + h1;
        h2 = h2 * 5 + 0x38495ab5;
      }
      long k1 = 0;
      long k2 = 0;
      int tail = 16 * blocks;
      for (int i = data.length - 1; i >= tail; i--) {
        int at = i - tail;
        long b = data[i] & 0xffL;
        if (at >= 8) {
          k2 |= b << (8 * (at - 8));
        } else {
          k1 |= b << (8 * at);
        }
      }
      if (data.length - tail > 8) {
        h2 ^= Long.rotateLeft(k2 * C2, 33) * C1;
      }
      if (data.length > tail) {
        h1 ^= Long.rotateLeft(k1 * C1, 31) * C2;
      }
      h1 ^= data.length;
      h2 ^= data.length;
      h1 += h2;
      h2 += h1;
      h1 = mix(h1);
      h2 = mix(h2);
      h1 += h2;
      h2 += h1;
      out[0] = h1;
      out[1] = h2;
    }

    private static long mix(long k) {
      k ^= k >>> 33;
      k *= 0xff51afd7ed558ccdL;
      k ^= k >>> 33;
      k *= 0xc4ceb9fe1a85ec53L;
      k ^= k >>> 33;
      return k;
    }
  }
}
