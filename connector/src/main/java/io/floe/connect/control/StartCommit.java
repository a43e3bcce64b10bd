/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.UUID;

/**
 * Coordinator to workers: start the commit cycle {@code commitId}. Every worker answers, even when
 * idle, with its {@link DataWritten} events and one {@link DataComplete} for this commit id.
 *
 * <p>Payload schema, version 1 (Avro): {@code record StartCommit { fixed Uuid(16) commitId; }}
 */
public record StartCommit(UUID commitId) implements ControlEvent {

  public StartCommit {
    Require.present(commitId, "commitId");
  }

  @Override
  public EventType type() {
    return EventType.START_COMMIT;
  }
}
