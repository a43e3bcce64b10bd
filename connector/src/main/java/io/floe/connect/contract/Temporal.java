/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;

/** A contract's timestamps: ISO-8601, with an offset or without one (read as UTC). */
final class Temporal {
  private Temporal() {}

  /**
   * The instant of an ISO-8601 timestamp, {@code 2026-01-31T00:00:00Z} or, read as UTC, {@code
   * 2026-01-31T00:00:00}.
   *
   * @throws java.time.format.DateTimeParseException if it is neither
   */
  static Instant timestamp(String text) {
    TemporalAccessor parsed =
        DateTimeFormatter.ISO_DATE_TIME.parseBest(
            text, java.time.OffsetDateTime::from, LocalDateTime::from);
    if (parsed instanceof java.time.OffsetDateTime offset) {
      return offset.toInstant();
    }
    return ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
  }
}
