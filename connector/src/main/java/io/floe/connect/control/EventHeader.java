/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.Optional;

/**
 * The header of a control event, which {@link EventCodec#peekHeader} reads without decoding the
 * payload. A connector reads only events of its own {@code connectorGroupId} (see {@link #isFor}):
 * several connectors may share one control topic.
 *
 * @param typeCode the event type's code; {@link #type()} is empty when this Floe does not know it
 * @param schemaVersion the version of the type's payload schema the sender wrote
 * @param minReaderVersion the lowest schema version a reader may have and still read the payload:
 *     equal to {@code schemaVersion} unless the newer versions only appended fields
 * @param connectorGroupId the sending connector's name
 * @param senderTaskId the sending task, e.g. {@code my-connector-3}
 * @param createdAtMs when the sender created the event, in milliseconds since the epoch
 */
public record EventHeader(
    int typeCode,
    int schemaVersion,
    int minReaderVersion,
    String connectorGroupId,
    String senderTaskId,
    long createdAtMs) {

  public EventHeader {
    checkByte(typeCode, "typeCode");
    checkByte(schemaVersion, "schemaVersion");
    checkByte(minReaderVersion, "minReaderVersion");
    if (minReaderVersion > schemaVersion) {
      throw new IllegalArgumentException(
          "minReaderVersion "
              + minReaderVersion
              + " must not be above schemaVersion "
              + schemaVersion);
    }
    Require.nonEmpty(connectorGroupId, "connectorGroupId");
    Require.nonEmpty(senderTaskId, "senderTaskId");
    Require.nonNegative(createdAtMs, "createdAtMs");
  }

  private static void checkByte(int value, String field) {
    if (value < 1 || value > 255) {
      throw new IllegalArgumentException(field + " must be from 1 to 255, was " + value);
    }
  }

  /** The event's type, or empty when the sender runs a newer Floe with a type this one lacks. */
  public Optional<EventType> type() {
    return EventType.fromCode(typeCode);
  }

  /** Whether the event has type {@code type}. */
  public boolean is(EventType type) {
    return typeCode == type.code();
  }

  /** Whether the event was sent by (a task of) the connector {@code connectorGroupId}. */
  public boolean isFor(String connectorGroupId) {
    return this.connectorGroupId.equals(connectorGroupId);
  }

  /** A short description for messages and logs: type, sender and connector. */
  String describe() {
    return type().map(Enum::name).orElse("event type " + typeCode)
        + " v"
        + schemaVersion
        + " from task "
        + senderTaskId
        + " of connector "
        + connectorGroupId;
  }
}
