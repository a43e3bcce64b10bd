/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.UUID;

/**
 * Coordinator to workers: the cycle {@code commitId} is committed to every table it touched.
 *
 * <p>Payload schema, version 1 (Avro): {@code record CommitComplete { fixed Uuid(16) commitId;
 * union {null, long} validThroughMs = null; }}
 *
 * @param commitId the committed cycle
 * @param validThroughMs the event-time watermark of the commit: every record with a timestamp at or
 *     below it is committed (the minimum over the cycle's partitions of the maximum record
 *     timestamp seen); {@code null} when unknown, e.g. after a partial commit
 */
public record CommitComplete(UUID commitId, Long validThroughMs) implements ControlEvent {

  public CommitComplete {
    Require.present(commitId, "commitId");
    Require.nonNegativeOrNull(validThroughMs, "validThroughMs");
  }

  @Override
  public EventType type() {
    return EventType.COMMIT_COMPLETE;
  }
}
