/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Worker to coordinator: the worker has sent every {@link DataWritten} of cycle {@code commitId}
 * (in the same Kafka transaction), and these are the positions of all partitions assigned to it.
 * The coordinator knows a cycle is complete when every source partition has been reported.
 *
 * <p>Payload schema, version 1 (Avro): {@code record DataComplete { fixed Uuid(16) commitId;
 * array<PartitionOffset> assignments; }}, see {@link PartitionOffset} for the item schema.
 *
 * @param commitId the cycle this answers
 * @param assignments one entry for every partition assigned to the worker, at most one per topic
 *     partition; empty when the worker has no partitions
 */
public record DataComplete(UUID commitId, List<PartitionOffset> assignments)
    implements ControlEvent {

  public DataComplete {
    Require.present(commitId, "commitId");
    Require.present(assignments, "assignments");
    Set<String> seen = new HashSet<>();
    for (PartitionOffset assignment : assignments) {
      Require.present(assignment, "an item of assignments");
      String key = assignment.partition() + "/" + assignment.topic();
      if (!seen.add(key)) {
        throw new IllegalArgumentException(
            "assignments list topic "
                + assignment.topic()
                + " partition "
                + assignment.partition()
                + " more than once");
      }
    }
    assignments = List.copyOf(assignments);
  }

  @Override
  public EventType type() {
    return EventType.DATA_COMPLETE;
  }
}
