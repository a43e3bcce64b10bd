/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.storage.Converter;

/**
 * Floe's JSON converter against Connect's on the benchmark's records (the 12-field orders of {@link
 * BenchEvents}, as {@link LoadGenerator} writes them), in one thread: reading ({@code
 * toConnectData}) and writing ({@code fromConnectData}), with and without the schema envelope.
 * Prints records/s, ns and bytes allocated per record for each; checks first that both converters
 * read every record to the same value. Arguments: records, measured rounds.
 */
public final class JsonConverterBench {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private JsonConverterBench() {}

  public static void main(String[] args) {
    int records = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    BenchRows.Generator rows = new BenchRows.Generator(records, 42);
    List<Struct> structs = new ArrayList<>(records);
    for (int i = 0; i < records; i++) {
      structs.add(BenchEvents.toStruct(rows.next()));
    }
    for (boolean schemas : new boolean[] {true, false}) {
      Converter connect = configure(new org.apache.kafka.connect.json.JsonConverter(), schemas);
      Converter floe = configure(new io.floe.connect.json.JsonConverter(), schemas);
      byte[][] messages = new byte[records][];
      long bytes = 0;
      for (int i = 0; i < records; i++) {
        messages[i] = connect.fromConnectData("t", BenchEvents.ORDER, structs.get(i));
        bytes += messages[i].length;
      }
      for (int i = 0; i < records; i++) {
        SchemaAndValue expected = connect.toConnectData("t", messages[i]);
        SchemaAndValue actual = floe.toConnectData("t", messages[i]);
        if (!expected.equals(actual)) {
          throw new IllegalStateException("The converters read record " + i + " differently");
        }
      }
      System.out.printf(
          "JsonConverterBench: %d records, schemas.enable=%s, %.0f bytes per message%n",
          records, schemas, (double) bytes / records);
      Map<String, List<Result>> results = new HashMap<>();
      for (int round = -2; round < rounds; round++) {
        boolean floeFirst = (round & 1) == 0;
        for (int turn = 0; turn < 2; turn++) {
          boolean isFloe = floeFirst == (turn == 0);
          Converter converter = isFloe ? floe : connect;
          String name = isFloe ? "floe   " : "connect";
          Result read = time(() -> read(converter, messages), records);
          Result write = time(() -> write(converter, structs), records);
          if (round >= 0) {
            results.computeIfAbsent(name + " read ", k -> new ArrayList<>()).add(read);
            results.computeIfAbsent(name + " write", k -> new ArrayList<>()).add(write);
          }
        }
      }
      results.keySet().stream()
          .sorted()
          .forEach(
              name -> {
                Result best =
                    results.get(name).stream()
                        .min((a, b) -> Long.compare(a.nanos, b.nanos))
                        .orElseThrow();
                System.out.printf(
                    "JsonConverterBench: schemas.enable=%-5s %s %,10.0f records/s %7.0f ns/record"
                        + " %7.0f B/record allocated (best of %d)%n",
                    schemas,
                    name,
                    records * 1e9 / best.nanos,
                    (double) best.nanos / records,
                    (double) best.allocated / records,
                    rounds);
              });
      double connectRead = best(results, "connect read ");
      double floeRead = best(results, "floe    read ");
      System.out.printf(
          "JsonConverterBench: schemas.enable=%s read: Floe %.2fx Connect's records/s; write:"
              + " %.2fx%n",
          schemas,
          connectRead / floeRead,
          best(results, "connect write") / best(results, "floe    write"));
    }
  }

  private record Result(long nanos, long allocated) {}

  private static double best(Map<String, List<Result>> results, String name) {
    return results.get(name).stream().mapToLong(Result::nanos).min().orElseThrow();
  }

  private static Result time(Runnable work, int records) {
    long thread = Thread.currentThread().getId();
    long allocatedBefore = THREADS.getThreadAllocatedBytes(thread);
    long start = System.nanoTime();
    work.run();
    long nanos = System.nanoTime() - start;
    return new Result(nanos, THREADS.getThreadAllocatedBytes(thread) - allocatedBefore);
  }

  private static int sink;

  private static void read(Converter converter, byte[][] messages) {
    int n = 0;
    for (byte[] message : messages) {
      n += converter.toConnectData("t", message).value().hashCode() & 1;
    }
    sink += n;
  }

  private static void write(Converter converter, List<Struct> structs) {
    int n = 0;
    for (Struct struct : structs) {
      n += converter.fromConnectData("t", BenchEvents.ORDER, struct).length;
    }
    sink += n;
  }

  private static Converter configure(Converter converter, boolean schemas) {
    converter.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    return converter;
  }
}
