/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.Objects;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What one record does to a table: upsert a row, delete a key, empty the table, or nothing.
 *
 * @param kind what the change does
 * @param key the row's key; null for {@link Kind#TRUNCATE} and {@link Kind#SKIP}
 * @param record for an {@link Kind#UPSERT}, the record whose value is the row image to write (with
 *     its value schema; the source record's topic, partition, offset, timestamp and headers are
 *     kept, and so is its origin: {@code originalTopic()} and the like); otherwise the source
 *     record
 * @param skipReason why a {@link Kind#SKIP} changes nothing; null for the other kinds
 * @param keySource for a {@link Kind#DELETE}, what its key was read from, with its schema if it has
 *     one: the row before the change, the flattened row, or the record key (a struct, a map or a
 *     single value); null for the other kinds or if unknown
 */
public record Change(
    Kind kind, RowKey key, SinkRecord record, SkipReason skipReason, Object keySource) {

  /** The kinds of change. */
  public enum Kind {
    /** Replace the key's row, if any, with the image. */
    UPSERT,
    /** Remove the key's row, if any. */
    DELETE,
    /** Remove every row (a Debezium truncate, when enabled). */
    TRUNCATE,
    /** Nothing: the record is no row change. */
    SKIP
  }

  /** Checks that the fields fit the kind. */
  public Change {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(record, "record");
    boolean keyed = kind == Kind.UPSERT || kind == Kind.DELETE;
    if (keyed != (key != null) || (kind == Kind.SKIP) != (skipReason != null)) {
      throw new IllegalArgumentException(
          "a " + kind + " change has a key only when keyed, and a reason only when skipped");
    }
  }

  /** A change of the given kind without a key source. */
  public Change(Kind kind, RowKey key, SinkRecord record, SkipReason skipReason) {
    this(kind, key, record, skipReason, null);
  }

  public static Change upsert(RowKey key, SinkRecord image) {
    return new Change(Kind.UPSERT, key, image, null);
  }

  public static Change delete(RowKey key, SinkRecord record) {
    return new Change(Kind.DELETE, key, record, null);
  }

  /** A delete whose key was read from {@code keySource}. */
  public static Change delete(RowKey key, SinkRecord record, Object keySource) {
    return new Change(Kind.DELETE, key, record, null, keySource);
  }

  public static Change truncate(SinkRecord record) {
    return new Change(Kind.TRUNCATE, null, record, null);
  }

  public static Change skip(SkipReason reason, SinkRecord record) {
    return new Change(Kind.SKIP, null, record, reason);
  }
}
