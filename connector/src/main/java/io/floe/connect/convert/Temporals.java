/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.Optional;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Date, time and timestamp columns. Units come from the source's logical type (Connect {@code
 * Date}/{@code Time}/{@code Timestamp}, Debezium's {@code io.debezium.time.*}); without one, only
 * {@code java.time} values and ISO-8601 strings are accepted, never bare numbers. Iceberg's {@code
 * time}, {@code timestamp} and {@code timestamptz} hold microseconds: finer digits are truncated
 * (towards the past). {@code timestamp_ns} columns keep nanoseconds. A time of day going into a
 * {@code long} column becomes microseconds since midnight.
 */
final class Temporals {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long MICROS_PER_DAY = MILLIS_PER_DAY * 1000;
  private static final long NANOS_PER_DAY = MICROS_PER_DAY * 1000;
  private static final Instant MIN_MICROS = Instant.EPOCH.plus(Long.MIN_VALUE, ChronoUnit.MICROS);
  private static final Instant MAX_MICROS = Instant.EPOCH.plus(Long.MAX_VALUE, ChronoUnit.MICROS);
  private static final Instant MIN_NANOS = Instant.EPOCH.plusNanos(Long.MIN_VALUE);
  private static final Instant MAX_NANOS = Instant.EPOCH.plusNanos(Long.MAX_VALUE);

  private enum Unit {
    MILLIS,
    MICROS,
    NANOS
  }

  private Temporals() {}

  /** Schemaless values (no kind) take the path of sources without a logical type. */
  private static SourceKind orPlain(SourceKind kind) {
    return kind == null ? SourceKind.STRING : kind;
  }

  static ValueConverter toDate(SourceKind kind, Site site) {
    return switch (orPlain(kind)) {
      case DATE ->
          value -> {
            long millis = utilDateMillis(value, site);
            if (millis % MILLIS_PER_DAY != 0) {
              throw site.fail(value, "a Connect Date must be midnight UTC");
            }
            return LocalDate.ofEpochDay(millis / MILLIS_PER_DAY);
          };
      case EPOCH_DAYS ->
          value -> {
            if (!(value instanceof Integer days)) {
              throw site.fail(value, "not an int count of days");
            }
            return DateTimeUtil.dateFromDays(days);
          };
      default ->
          value -> {
            if (value instanceof LocalDate) {
              return value;
            }
            if (value instanceof String s) {
              try {
                return LocalDate.parse(s, DateTimeFormatter.ISO_LOCAL_DATE);
              } catch (DateTimeParseException e) {
                throw site.fail(value, "not an ISO-8601 date");
              }
            }
            throw site.fail(value, "not a date");
          };
    };
  }

  static ValueConverter toTime(SourceKind kind, Site site) {
    if (kind != null && kind.isTimeOfDay()) {
      ValueConverter micros = toMicrosOfDay(kind, site);
      return value -> DateTimeUtil.timeFromMicros((Long) micros.convert(value));
    }
    return value -> {
      if (value instanceof LocalTime time) {
        return time.truncatedTo(ChronoUnit.MICROS);
      }
      if (value instanceof String s) {
        try {
          return LocalTime.parse(s, DateTimeFormatter.ISO_LOCAL_TIME)
              .truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeParseException e) {
          throw site.fail(value, "not an ISO-8601 local time");
        }
      }
      throw site.fail(value, "not a time of day");
    };
  }

  /**
   * Microseconds since midnight, for a time of day going into a {@code long} column (or, through
   * {@link #toTime}, a {@code time} column).
   *
   * @param kind one of the time-of-day kinds ({@link SourceKind#isTimeOfDay()})
   */
  static ValueConverter toMicrosOfDay(SourceKind kind, Site site) {
    return switch (kind) {
      case TIME -> value -> microsOfDay(utilDateMillis(value, site), Unit.MILLIS, site, value);
      case TIME_MILLIS ->
          value -> {
            if (!(value instanceof Integer millis)) {
              throw site.fail(value, "not an int count of milliseconds");
            }
            return microsOfDay(millis, Unit.MILLIS, site, value);
          };
      case TIME_MICROS -> value -> microsOfDay(epochLong(value, site), Unit.MICROS, site, value);
      case TIME_NANOS -> value -> microsOfDay(epochLong(value, site), Unit.NANOS, site, value);
      default -> throw new IllegalArgumentException(kind + " is not a time of day");
    };
  }

  private static Long microsOfDay(long amount, Unit unit, Site site, Object value) {
    long perDay =
        switch (unit) {
          case MILLIS -> MILLIS_PER_DAY;
          case MICROS -> MICROS_PER_DAY;
          case NANOS -> NANOS_PER_DAY;
        };
    if (amount < 0 || amount >= perDay) {
      throw site.fail(value, "time of day outside [00:00, 24:00)");
    }
    return switch (unit) {
      case MILLIS -> amount * 1000;
      case MICROS -> amount;
      case NANOS -> amount / 1000;
    };
  }

  static ValueConverter toTimestamp(
      SourceKind kind, boolean withZone, boolean nanos, Site site, ConvertOptions options) {
    return switch (orPlain(kind)) {
      case TIMESTAMP ->
          value ->
              fromEpoch(utilDateMillis(value, site), Unit.MILLIS, withZone, nanos, site, value);
      case EPOCH_MILLIS ->
          value -> fromEpoch(epochLong(value, site), Unit.MILLIS, withZone, nanos, site, value);
      case EPOCH_MICROS ->
          value -> fromEpoch(epochLong(value, site), Unit.MICROS, withZone, nanos, site, value);
      case EPOCH_NANOS ->
          value -> fromEpoch(epochLong(value, site), Unit.NANOS, withZone, nanos, site, value);
      default -> new JavaTimestamps(withZone, nanos, site, options.zoneForLocalTimestamps());
    };
  }

  /**
   * The date-time of an epoch second and nano in UTC, by integer arithmetic: the value Iceberg's
   * {@code DateTimeUtil} gives by adding the amount to the epoch, with fewer objects on the way.
   */
  static LocalDateTime localFromEpoch(long epochSecond, long nano) {
    return LocalDateTime.ofEpochSecond(epochSecond, (int) nano, ZoneOffset.UTC);
  }

  private static Object fromEpoch(
      long amount, Unit unit, boolean withZone, boolean nanos, Site site, Object value) {
    try {
      if (nanos) {
        long n =
            switch (unit) {
              case MILLIS -> Math.multiplyExact(amount, 1_000_000L);
              case MICROS -> Math.multiplyExact(amount, 1000L);
              case NANOS -> amount;
            };
        LocalDateTime local =
            localFromEpoch(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
        return withZone ? OffsetDateTime.of(local, ZoneOffset.UTC) : local;
      }
      long micros =
          switch (unit) {
            case MILLIS -> Math.multiplyExact(amount, 1000L);
            case MICROS -> amount;
            case NANOS -> Math.floorDiv(amount, 1000L);
          };
      LocalDateTime local =
          localFromEpoch(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
      return withZone ? OffsetDateTime.of(local, ZoneOffset.UTC) : local;
    } catch (ArithmeticException | DateTimeException e) {
      throw site.fail(value, "outside the column's range");
    }
  }

  private static long utilDateMillis(Object value, Site site) {
    if (value instanceof java.util.Date date) {
      return date.getTime();
    }
    throw site.fail(value, "not a java.util.Date");
  }

  private static long epochLong(Object value, Site site) {
    if (value instanceof Long l) {
      return l;
    }
    throw site.fail(value, "not a long");
  }

  /** {@code java.time} values and ISO-8601 strings, for sources without a logical type. */
  private static final class JavaTimestamps implements ValueConverter {
    private final boolean withZone;
    private final boolean nanos;
    private final Site site;
    private final ZoneId localZone;

    JavaTimestamps(boolean withZone, boolean nanos, Site site, Optional<ZoneId> localZone) {
      this.withZone = withZone;
      this.nanos = nanos;
      this.site = site;
      this.localZone = localZone.orElse(null);
    }

    @Override
    public Object convert(Object value) {
      Object parsed = value instanceof String s ? parse(s, value) : value;
      if (parsed instanceof LocalDateTime local) {
        if (!withZone) {
          checkRange(local.toInstant(ZoneOffset.UTC), value);
          return nanos ? local : local.truncatedTo(ChronoUnit.MICROS);
        }
        if (localZone == null) {
          throw site.fail(value, "has no zone offset and no zone for local timestamps is set");
        }
        return instant(local.atZone(localZone).toInstant(), value);
      }
      Instant instant;
      if (parsed instanceof OffsetDateTime offset) {
        instant = offset.toInstant();
      } else if (parsed instanceof ZonedDateTime zoned) {
        instant = zoned.toInstant();
      } else if (parsed instanceof Instant i) {
        instant = i;
      } else {
        throw site.fail(value, "not a timestamp");
      }
      if (!withZone) {
        throw site.fail(value, "has a zone offset, which a timestamp without zone would lose");
      }
      return instant(instant, value);
    }

    private Object instant(Instant instant, Object value) {
      checkRange(instant, value);
      Instant kept = nanos ? instant : instant.truncatedTo(ChronoUnit.MICROS);
      return kept.atOffset(ZoneOffset.UTC);
    }

    private void checkRange(Instant instant, Object value) {
      Instant min = nanos ? MIN_NANOS : MIN_MICROS;
      Instant max = nanos ? MAX_NANOS : MAX_MICROS;
      if (instant.isBefore(min) || instant.isAfter(max)) {
        throw site.fail(value, "outside the column's range");
      }
    }

    private Object parse(String text, Object value) {
      try {
        TemporalAccessor parsed =
            DateTimeFormatter.ISO_DATE_TIME.parseBest(
                text, ZonedDateTime::from, LocalDateTime::from);
        return parsed;
      } catch (DateTimeParseException e) {
        throw site.fail(value, "not an ISO-8601 date-time");
      }
    }
  }
}
