/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Everything a task processed since its previous hand-over: the finished files of every table and,
 * for every source partition it read from, how far it got. Every record below a position's {@code
 * nextOffset} is either in these files or was deliberately left out (a tombstone skipped, a bad
 * record reported), so committing the positions together with the files loses nothing.
 */
public record HandOver(List<TableFiles> tables, Map<TopicPartition, SourcePosition> positions) {
  public HandOver {
    tables = List.copyOf(tables);
    positions = Map.copyOf(positions);
  }

  public boolean isEmpty() {
    return tables.isEmpty() && positions.isEmpty();
  }
}
