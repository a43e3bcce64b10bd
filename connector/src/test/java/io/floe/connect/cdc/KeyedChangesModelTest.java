/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The fold against a plain model of it (a map of keys to their outcome, in the order of their first
 * change), over random changes of keys of every kind of value a key holds: the same keys, in the
 * same order, with the same rows, retire flags and converted forms, and the same superseded rows.
 * Enough keys to grow, rehash and compact the fold's arrays.
 */
class KeyedChangesModelTest {
  private static final Schema NESTED =
      SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).field("b", Schema.STRING_SCHEMA);

  /** Keys' converted forms as text, for the tests. */
  static final KeyedChanges.Codec<String> TEXT =
      new KeyedChanges.Codec<>() {
        @Override
        public void write(String key, KeyBytes.Writer out) {
          out.putChars(key);
        }

        @Override
        public String read(KeyBytes.Reader in) {
          return in.getChars();
        }
      };

  /** The model: what a key's changes leave. */
  private static final class Outcome {
    final boolean retire;
    long row = KeyedChanges.NO_ROW;
    String converted;

    Outcome(boolean retire) {
      this.retire = retire;
    }
  }

  private final Map<RowKey, Outcome> model = new LinkedHashMap<>();
  private final List<Long> modelSuperseded = new ArrayList<>();
  private boolean modelTruncated;

  private void modelAdd(Change change, long row, String converted) {
    switch (change.kind()) {
      case UPSERT -> {
        Outcome outcome = model.computeIfAbsent(change.key(), k -> new Outcome(!modelTruncated));
        if (outcome.row != KeyedChanges.NO_ROW) {
          modelSuperseded.add(outcome.row);
        }
        outcome.row = row;
        outcome.converted = converted;
      }
      case DELETE -> {
        Outcome outcome = model.get(change.key());
        if (outcome == null) {
          if (!modelTruncated) {
            Outcome retired = new Outcome(true);
            retired.converted = converted;
            model.put(change.key(), retired);
          }
        } else {
          if (outcome.row != KeyedChanges.NO_ROW) {
            modelSuperseded.add(outcome.row);
          }
          if (outcome.retire) {
            outcome.row = KeyedChanges.NO_ROW;
            outcome.converted = converted;
          } else {
            model.remove(change.key());
          }
        }
      }
      case TRUNCATE -> {
        model.values().stream()
            .filter(o -> o.row != KeyedChanges.NO_ROW)
            .forEach(o -> modelSuperseded.add(o.row));
        model.clear();
        modelTruncated = true;
      }
      case SKIP -> {}
    }
  }

  private static SinkRecord at(long offset) {
    return new SinkRecord("t", 0, null, null, null, null, offset);
  }

  /** One of a small set of keys, so that keys repeat, in a random one of equal forms. */
  private static RowKey key(Random random, int keys) {
    int n = random.nextInt(keys);
    Object value =
        switch (n % 9) {
          case 0 -> random.nextBoolean() ? (Object) n : (Object) (long) n; // int and long alike
          case 1 -> "k\uD800" + n; // a lone surrogate
          case 2 -> new BigDecimal(n).setScale(random.nextInt(3)); // 7, 7.0, 7.00 alike
          case 3 -> (double) n * (random.nextBoolean() ? 1 : -1); // -0.0 is not 0.0
          case 4 ->
              random.nextBoolean()
                  ? new byte[] {(byte) n, 1}
                  : ByteBuffer.wrap(new byte[] {(byte) n, 1});
          case 5 -> new Date(n * 1000L);
          case 6 -> new Struct(NESTED).put("a", n).put("b", "s" + n);
          case 7 -> n % 2 == 0 ? List.of(n, "x") : Map.of("a", n, "b", "y", "c", n + 1);
          default -> n % 2 == 0 ? Boolean.TRUE : Double.NaN;
        };
    return RowKey.of(List.of(n % 18 < 9 ? "id" : "other"), List.of(value));
  }

  @RepeatedTest(20)
  void theFoldAgreesWithItsModel() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    foldAndCompare(seed, 1 + random.nextInt(5_000), random.nextInt(20_000), 40, 2);
  }

  /**
   * Enough keys and long enough converted forms, which change length as keys change, to fill many
   * pages of the fold's arena and leave it more than half waste, so that it is compacted.
   */
  @Test
  void aLargeFoldAgreesWithItsModelThroughPagesAndCompaction() {
    KeyedChanges<String> fold = foldAndCompare(new Random().nextLong(), 60_000, 250_000, 200, 0);
    assertThat(fold.compactions()).isPositive();
  }

  /**
   * Folds {@code changes} random changes of up to {@code keys} keys, their converted forms up to
   * {@code longest} characters, truncates {@code truncatePerMille} of a thousand, into the fold and
   * its model, and compares them.
   */
  private KeyedChanges<String> foldAndCompare(
      long seed, int keys, int changes, int longest, int truncatePerMille) {
    Random random = new Random(seed);
    KeyedChanges<String> fold = new KeyedChanges<>(TEXT);
    List<Long> superseded = new ArrayList<>();
    for (int offset = 0; offset < changes; offset++) {
      int roll = random.nextInt(1_000);
      RowKey key = key(random, keys);
      String converted = "c" + random.nextInt(3) + "-" + "x".repeat(random.nextInt(longest));
      Change change =
          roll < truncatePerMille
              ? Change.truncate(at(offset))
              : roll < 300 ? Change.delete(key, at(offset)) : Change.upsert(key, at(offset));
      long row = change.kind() == Change.Kind.UPSERT ? offset : KeyedChanges.NO_ROW;
      fold.add(
          change, row, change.kind() == Change.Kind.TRUNCATE ? null : converted, superseded::add);
      modelAdd(change, row, change.kind() == Change.Kind.TRUNCATE ? null : converted);
    }

    assertThat(superseded).as("seed %d", seed).isEqualTo(modelSuperseded);
    assertThat(fold.truncated()).isEqualTo(modelTruncated);
    assertThat(fold.size()).as("seed %d", seed).isEqualTo(model.size());
    List<FoldedKey<String>> folded = fold.keys();
    List<RowKey> modelKeys = List.copyOf(model.keySet());
    for (int i = 0; i < folded.size(); i++) {
      FoldedKey<String> key = folded.get(i);
      Outcome outcome = model.get(modelKeys.get(i));
      assertThat(key.key()).as("seed %d, key %d", seed, i).isEqualTo(modelKeys.get(i));
      assertThat(key.row()).as("seed %d", seed).isEqualTo(outcome.row);
      assertThat(key.retire()).as("seed %d", seed).isEqualTo(outcome.retire);
      assertThat(key.converted()).as("seed %d", seed).isEqualTo(outcome.converted);
    }
    List<String> each = new ArrayList<>();
    fold.eachKey().forEach(key -> each.add(key.toString()));
    assertThat(each).as("seed %d", seed).isEqualTo(folded.stream().map(Object::toString).toList());
    return fold;
  }

  @Test
  void aKeyReadBackFromTheFoldEqualsTheKeyFoldedIn() {
    Random random = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      RowKey key = key(random, 10_000);
      KeyedChanges<String> fold = new KeyedChanges<>(TEXT);
      fold.add(Change.upsert(key, at(0)), 0, "k", row -> {});
      RowKey back = fold.keys().get(0).key();
      assertThat(back).isEqualTo(key).hasSameHashCodeAs(key);
    }
  }

  @Test
  void theHeldBytesGrowWithTheKeysAndAreNoneWhenEmpty() {
    KeyedChanges<String> fold = new KeyedChanges<>(TEXT);
    assertThat(fold.heldBytes()).isZero();
    for (int i = 0; i < 100_000; i++) {
      fold.add(Change.upsert(RowKey.of(List.of("id"), List.of(i)), at(i)), i, "", row -> {});
    }
    assertThat(fold.heldBytes())
        .as("about 10 bytes of key, 29 of entry and up to 16 of table each")
        .isBetween(100_000L * 39, 100_000L * 80);
  }
}
