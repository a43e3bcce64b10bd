/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * Worker to coordinator: the worker buffers {@code bufferedBytes} of uncommitted data and asks for
 * a cycle before the commit interval is over. The coordinator decides; the request carries no
 * commit id because it belongs to no cycle yet.
 *
 * <p>Payload schema, version 1 (Avro): {@code record CommitRequest { long bufferedBytes; }}
 */
public record CommitRequest(long bufferedBytes) implements ControlEvent {

  public CommitRequest {
    Require.nonNegative(bufferedBytes, "bufferedBytes");
  }

  @Override
  public EventType type() {
    return EventType.COMMIT_REQUEST;
  }
}
