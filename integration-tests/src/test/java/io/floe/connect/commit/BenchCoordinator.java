/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.DataWritten;
import io.floe.connect.deletes.KeyIndexSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The coordinator's commit of a cycle, for the benchmarks in {@code io.floe.it.bench}: the real
 * {@link TableCommitter} (an upsert table's {@code commitUpsert}, an append table's fast append)
 * given the workers' {@link DataWritten} events as the coordinator hands them over once every
 * source partition has answered, without the control topic around it. Each event gets the next
 * offset of control partition 0, so every cycle commits only its own events.
 */
public final class BenchCoordinator {
  private static final String GROUP = "connect-bench";

  private final TableCommitter committer;
  private long controlOffset;

  /**
   * A coordinator's commit, with a key index for every upsert table (in a budget of 2 GiB) when
   * {@code keyIndex}.
   */
  public BenchCoordinator(Catalog catalog, String connectorName, boolean keyIndex) {
    ControlTopic topic =
        new ControlTopic(
            "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));
    this.committer =
        new TableCommitter(
            catalog,
            GROUP,
            connectorName,
            topic,
            keyIndex
                ? new KeyIndexSettings(table -> true, 2L << 30, "bench")
                : KeyIndexSettings.off(),
            table -> CommitBranch.MAIN,
            table -> java.util.Optional.empty(),
            ThreadPools.getWorkerPool());
  }

  /**
   * Commits one cycle's events of one table.
   *
   * @param sourceOffsets the next offset of every source partition the events cover
   * @return the snapshot the cycle made, null if it had nothing to commit
   * @throws RuntimeException the table's failure, as the coordinator would see it
   */
  public Snapshot commit(
      UUID commitId, List<DataWritten> events, Map<TopicPartition, Long> sourceOffsets) {
    List<PendingEvent> pending = new ArrayList<>(events.size());
    for (DataWritten event : events) {
      pending.add(new PendingEvent(0, controlOffset++, event));
    }
    TableCommitter.Outcome outcome =
        committer.commit(
            new TableCommitter.Cycle(
                commitId,
                TableCommitter.byTable(pending),
                Map.of(0, controlOffset),
                sourceOffsets,
                OptionalLong.empty(),
                false));
    if (!outcome.failures().isEmpty()) {
      throw outcome.failures().values().iterator().next();
    }
    return outcome.committed().values().stream()
        .map(TableCommitter.TableResult::snapshot)
        .findFirst()
        .orElse(null);
  }
}
