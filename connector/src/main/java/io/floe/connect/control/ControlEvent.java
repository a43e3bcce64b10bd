/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/**
 * An event of the control-topic protocol between a connector's workers and its coordinator. On the
 * wire an event is preceded by an {@link EventHeader}; {@link EventCodec} describes the format.
 * Events are immutable and validate their fields when constructed, so a decoded event is as valid
 * as one built in code.
 */
public sealed interface ControlEvent
    permits StartCommit, DataWritten, DataComplete, CommitComplete, CommitRequest {

  /** The type of this event, which names its payload schema on the wire. */
  EventType type();
}
