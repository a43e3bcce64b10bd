/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * The benchmark's row shape (12 fields, a nested 3-field struct, optional nulls) and heap readings.
 */
final class BenchRows {
  static final long T0 = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
  static final long DAYS = 4;

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "quantity", Types.IntegerType.get()),
          Types.NestedField.required(3, "amount", Types.DoubleType.get()),
          Types.NestedField.required(4, "paid", Types.BooleanType.get()),
          Types.NestedField.required(5, "customer", Types.StringType.get()),
          Types.NestedField.required(6, "country", Types.StringType.get()),
          Types.NestedField.required(7, "order_uuid", Types.StringType.get()),
          Types.NestedField.optional(8, "note", Types.StringType.get()),
          Types.NestedField.required(9, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(
              10,
              "address",
              Types.StructType.of(
                  Types.NestedField.required(13, "city", Types.StringType.get()),
                  Types.NestedField.optional(14, "zip", Types.IntegerType.get()),
                  Types.NestedField.required(15, "lat", Types.DoubleType.get()))),
          Types.NestedField.optional(11, "discount", Types.DoubleType.get()),
          Types.NestedField.optional(12, "coupon", Types.StringType.get()));

  private BenchRows() {}

  /** Rows in time order over four days, one in twenty up to 30 h late; strings from pools. */
  static List<Record> rows(int count, long seed) {
    Generator generator = new Generator(count, seed);
    List<Record> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(generator.next());
    }
    return rows;
  }

  /**
   * The rows of {@link #rows} one at a time, for loads too large to hold: ids 0 to count - 1 in
   * order.
   */
  static final class Generator {
    private static final String[] COUNTRIES = {
      "DE", "FR", "NL", "US", "GB", "PL", "SE", "ES", "IT", "JP"
    };
    private static final Types.StructType ADDRESS =
        SCHEMA.findField("address").type().asStructType();

    private final Random random;
    private final long count;
    private final String[] customers = new String[20_000];
    private final String[] cities = new String[500];
    private long next;

    Generator(long count, long seed) {
      this.random = new Random(seed);
      this.count = count;
      Arrays.setAll(customers, i -> "customer-" + i);
      Arrays.setAll(cities, i -> "city-" + i);
    }

    /** The countries the rows spread over, evenly: ten. */
    static List<String> countries() {
      return List.of(COUNTRIES);
    }

    Record next() {
      long i = next++;
      long span = DAYS * 86_400_000L;
      long late = random.nextInt(20) == 0 ? 3_600_000L * random.nextInt(30) : 0;
      long millis = Math.max(T0, T0 + span * i / count - late);
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.set(0, i);
      row.set(1, 1 + random.nextInt(20));
      row.set(2, Math.round(random.nextDouble() * 100_000) / 100.0);
      row.set(3, random.nextBoolean());
      row.set(4, customers[random.nextInt(customers.length)]);
      row.set(5, COUNTRIES[random.nextInt(COUNTRIES.length)]);
      row.set(6, new UUID(random.nextLong(), random.nextLong()).toString());
      row.set(7, random.nextInt(10) < 3 ? null : "note " + random.nextInt(1_000));
      row.set(8, OffsetDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC));
      if (random.nextInt(10) > 0) {
        GenericRecord address = GenericRecord.create(ADDRESS);
        address.set(0, cities[random.nextInt(cities.length)]);
        address.set(1, random.nextInt(5) == 0 ? null : 10_000 + random.nextInt(89_999));
        address.set(2, Math.round(random.nextDouble() * 18_000_000) / 100_000.0 - 90);
        row.set(9, address);
      }
      row.set(10, random.nextInt(4) == 0 ? random.nextDouble() : null);
      row.set(11, random.nextInt(8) == 0 ? "SAVE" + random.nextInt(50) : null);
      return row;
    }
  }

  static List<MemoryPoolMXBean> heapPools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .toList();
  }

  static long usedHeap(List<MemoryPoolMXBean> pools) {
    return pools.stream().mapToLong(p -> p.getUsage().getUsed()).sum();
  }

  static long peakHeap(List<MemoryPoolMXBean> pools) {
    return pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }

  /**
   * Heap in use after full collections: what is live. Finalization runs in between, so that what
   * only finalizable objects (compression streams) still hold is not counted.
   */
  static long liveHeap(List<MemoryPoolMXBean> pools) {
    System.gc();
    System.runFinalization();
    System.gc();
    return usedHeap(pools);
  }
}
