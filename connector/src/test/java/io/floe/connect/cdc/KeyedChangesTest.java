/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static io.floe.connect.cdc.CdcRecords.envelope;
import static io.floe.connect.cdc.CdcRecords.key;
import static io.floe.connect.cdc.CdcRecords.record;
import static io.floe.connect.cdc.CdcRecords.row;
import static io.floe.connect.cdc.CdcRecords.tombstone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class KeyedChangesTest {
  private final ChangeNormalizer normalizer =
      new ChangeNormalizer(CdcOptions.defaults().withTruncateEnabled(true), List.of());
  private final KeyedChanges<String> changes = new KeyedChanges<>(KeyedChangesModelTest.TEXT);
  private final List<Long> superseded = new ArrayList<>();

  /** Folds the records in, each upsert's image "written" at row number = its offset. */
  private void add(SinkRecord... records) {
    for (SinkRecord record : records) {
      Change change = normalizer.normalize(record);
      long row = change.kind() == Change.Kind.UPSERT ? record.kafkaOffset() : KeyedChanges.NO_ROW;
      changes.add(change, row, "key at " + record.kafkaOffset(), superseded::add);
    }
  }

  private static RowKey id(int id) {
    return RowKey.of(List.of("id"), List.of(id));
  }

  private FoldedKey<String> only() {
    assertThat(changes.keys()).hasSize(1);
    return changes.keys().iterator().next();
  }

  @Test
  void theLastUpsertOfAKeyWins() {
    add(
        record(1, key(1), envelope("c", null, row(1, "A"))),
        record(2, key(1), envelope("u", null, row(1, "B"))),
        record(3, key(1), envelope("u", null, row(1, "C"))));
    FoldedKey<String> folded = only();
    assertThat(folded.key()).isEqualTo(id(1));
    assertThat(folded.retire()).isTrue();
    assertThat(folded.row()).isEqualTo(3);
    assertThat(folded.converted()).isEqualTo("key at 3");
    assertThat(superseded).containsExactly(1L, 2L);
  }

  @Test
  void anUpsertThenADeleteRetiresTheKeyAndWritesNothing() {
    add(
        record(1, key(1), envelope("c", null, row(1, "A"))),
        record(2, key(1), envelope("d", row(1, "A"), null)));
    FoldedKey<String> folded = only();
    assertThat(folded.retire()).isTrue();
    assertThat(folded.row()).isEqualTo(KeyedChanges.NO_ROW);
    assertThat(superseded).containsExactly(1L);
  }

  @Test
  void aDeleteThenAnUpsertRetiresTheKeyAndWritesTheNewRow() {
    add(
        record(1, key(1), envelope("d", row(1, "A"), null)),
        tombstone(2, 1),
        record(3, key(1), envelope("c", null, row(1, "B"))));
    FoldedKey<String> folded = only();
    assertThat(folded.retire()).isTrue();
    assertThat(folded.row()).isEqualTo(3);
    assertThat(superseded).isEmpty();
  }

  @Test
  void aTombstoneAfterADeleteChangesNothing() {
    add(record(1, key(1), envelope("d", row(1, "A"), null)));
    String before = changes.keys().toString();
    add(tombstone(2, 1));
    assertThat(changes.keys()).hasToString(before);
    assertThat(only().row()).isEqualTo(KeyedChanges.NO_ROW);
  }

  @Test
  void equalKeysFromDifferentStructsFoldTogether() {
    Struct first = key(7);
    Struct second = key(7);
    assertThat(first).isNotSameAs(second);
    add(
        record(1, first, envelope("c", null, row(7, "A"))),
        record(2, second, envelope("u", null, row(7, "B"))));
    assertThat(only().row()).isEqualTo(2);
    assertThat(superseded).containsExactly(1L);
  }

  @Test
  void aPrimaryKeyChangeLeavesTheRowUnderTheNewKeyOnly() {
    ConnectHeaders deleteHeaders = new ConnectHeaders();
    deleteHeaders.add("__debezium.newkey", key(2), CdcRecords.KEY);
    ConnectHeaders createHeaders = new ConnectHeaders();
    createHeaders.add("__debezium.oldkey", key(1), CdcRecords.KEY);
    add(
        record(1, key(1), envelope("c", null, row(1, "Ada"))),
        record(2, key(1), envelope("d", row(1, "Ada"), null), deleteHeaders),
        tombstone(3, 1),
        record(4, key(2), envelope("c", null, row(2, "Ada")), createHeaders));

    List<FoldedKey<String>> keys = List.copyOf(changes.keys());
    assertThat(keys).extracting(FoldedKey::key).containsExactly(id(1), id(2));
    assertThat(keys.get(0).retire()).isTrue();
    assertThat(keys.get(0).row()).isEqualTo(KeyedChanges.NO_ROW);
    assertThat(keys.get(1).retire()).isTrue();
    assertThat(keys.get(1).row()).isEqualTo(4);
    assertThat(superseded).containsExactly(1L);
  }

  @Test
  void keysComeOutInTheOrderOfTheirFirstChange() {
    add(
        record(1, key(3), envelope("c", null, row(3, "A"))),
        record(2, key(1), envelope("c", null, row(1, "A"))),
        record(3, key(3), envelope("u", null, row(3, "B"))),
        record(4, key(2), envelope("d", row(2, "A"), null)));
    assertThat(List.copyOf(changes.keys()))
        .extracting(FoldedKey::key)
        .containsExactly(id(3), id(1), id(2));
    assertThat(changes.size()).isEqualTo(3);
  }

  @Test
  void aTruncateDropsWhatCameBeforeAndKeysAfterItNeedNoRetiring() {
    add(
        record(1, key(1), envelope("c", null, row(1, "A"))),
        record(2, null, envelope("t", null, null)),
        record(3, key(2), envelope("c", null, row(2, "B"))),
        record(4, key(3), envelope("c", null, row(3, "C"))),
        record(5, key(3), envelope("d", row(3, "C"), null)),
        record(6, key(4), envelope("d", row(4, "D"), null)));
    assertThat(changes.truncated()).isTrue();
    FoldedKey<String> folded = only();
    assertThat(folded.key()).isEqualTo(id(2));
    assertThat(folded.retire()).isFalse();
    assertThat(folded.row()).isEqualTo(3);
    assertThat(superseded)
        .as("the image written before the truncate, and key 3's, deleted after it")
        .containsExactly(1L, 4L);
  }

  @Test
  void skipsChangeNothing() {
    add(record(1, null, envelope("m", null, null)));
    assertThat(changes.isEmpty()).isTrue();
    add(record(2, null, envelope("t", null, null)));
    assertThat(changes.isEmpty()).isFalse();
  }

  @Test
  void anOffsetThatGoesBackIsRefused() {
    add(record(5, key(1), envelope("c", null, row(1, "A"))));
    assertThatThrownBy(() -> add(record(5, key(2), envelope("c", null, row(2, "A")))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Changes of pg.inventory.customers-2 must come in offset order: offset 5 after 5");
    add(record(6, key(2), envelope("c", null, row(2, "A"))));
    assertThat(changes.size()).isEqualTo(2);
  }

  @Test
  void theKeysAreAReadOnlyView() {
    add(record(1, Map.of("id", 1), Map.of("id", 1, "name", "A")));
    assertThatThrownBy(() -> changes.keys().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
