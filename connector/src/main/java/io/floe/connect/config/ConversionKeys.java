/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.TimeOfDayType;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The keys that shape how record values become Iceberg values ({@link ConvertOptions}) and what
 * happens to tombstones. Kept apart from {@link FloeSinkConfig} so each option sits next to the
 * parsing of its value.
 */
final class ConversionKeys {
  static final String GROUP = "Conversion";

  static final String TOMBSTONES = "iceberg.tables.tombstones";
  static final String TOMBSTONES_DOC =
      "What to do with a record whose value is null (a tombstone): 'skip' counts and skips it,"
          + " 'fail' treats it as a bad record (dead-lettered with errors.tolerance=all, otherwise"
          + " the task fails).";

  static final String TIMESTAMP_TYPE = "iceberg.tables.timestamp-type";
  static final String TIMESTAMP_TYPE_DOC =
      "Iceberg type of epoch-based timestamps (Connect Timestamp, Debezium Timestamp,"
          + " MicroTimestamp, NanoTimestamp) in auto-created tables and new columns: 'timestamptz'"
          + " (instants, UTC) or 'timestamp' (without zone).";

  static final String TIME_TYPE = "iceberg.tables.time-type";
  static final String TIME_TYPE_DOC =
      "Iceberg type of time-of-day fields (Connect Time, Debezium Time, MicroTime, NanoTime, Avro"
          + " time-millis, time-micros) in auto-created tables and new columns: 'long-micros' (a"
          + " long of microseconds since midnight, which every engine reads, Apache Spark"
          + " included) or 'time' (exact and typed, but Apache Spark refuses a table that has"
          + " one). A column's type cannot be changed later. An existing column keeps its type:"
          + " values follow it.";
  static final String TIME_TYPE_DEFAULT = "long-micros";

  static final String DECIMAL_ROUNDING = "iceberg.tables.decimal-rounding";
  static final String DECIMAL_ROUNDING_DOC =
      "'none' (the default) never rounds: a decimal whose scale differs from its column's is a bad"
          + " record. A java.math.RoundingMode name (HALF_UP, HALF_EVEN, DOWN, ...) rounds to the"
          + " column's scale instead.";

  static final String LOCAL_TIMESTAMP_ZONE = "iceberg.tables.local-timestamp-zone";
  static final String LOCAL_TIMESTAMP_ZONE_DOC =
      "Zone (e.g. UTC, Europe/Paris) in which zone-less date-time strings are read when they go"
          + " into a timestamptz column; empty (the default) makes such a value a bad record.";

  static final String PARSE_NUMERIC_STRINGS = "iceberg.tables.parse-numeric-strings";
  static final String PARSE_NUMERIC_STRINGS_DOC =
      "Whether strings are parsed into numeric columns; otherwise a string into a numeric column"
          + " is a bad record.";

  static final String UUID_SCHEMA_NAMES = "iceberg.tables.uuid-schema-names";
  static final String UUID_SCHEMA_NAMES_DOC =
      "Names of Connect STRING schemas whose values are UUIDs and become Iceberg uuid columns.";

  static final String VARIABLE_SCALE_DECIMAL_SCALE = "iceberg.tables.variable-scale-decimal-scale";
  static final String VARIABLE_SCALE_DECIMAL_SCALE_DOC =
      "Scale of the decimal(38, scale) column a Debezium VariableScaleDecimal becomes; -1 (the"
          + " default) makes such a field a bad record.";

  static final String SCHEMA_FORCE_OPTIONAL = "iceberg.tables.schema-force-optional";
  static final String SCHEMA_FORCE_OPTIONAL_DOC =
      "When true, every column Floe creates (in an auto-created table, or added by schema"
          + " evolution), and every list element, map value and struct field in it, is optional,"
          + " whatever the record schema says; existing columns are left as they are. Identifier"
          + " columns (id-columns) of a table Floe creates must still be required, so the two do"
          + " not go together for new tables. The Apache Iceberg sink's key of the same name.";

  static final String SCHEMA_CASE_INSENSITIVE = "iceberg.tables.schema-case-insensitive";
  static final String SCHEMA_CASE_INSENSITIVE_DOC =
      "When true, a record field goes into the column of the same name ignoring case when no"
          + " column has its exact name (a field CustomerId fills the column customerid), in"
          + " conversion and in schema evolution, which then adds no second column; an exact"
          + " match always wins. The Apache Iceberg sink's key of the same name.";

  /** What happens to tombstones. */
  enum Tombstones {
    SKIP,
    FAIL
  }

  private ConversionKeys() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        TOMBSTONES,
        Type.STRING,
        "skip",
        ConfigDef.CaseInsensitiveValidString.in("skip", "fail"),
        Importance.MEDIUM,
        TOMBSTONES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Tombstones");
    def.define(
        TIMESTAMP_TYPE,
        Type.STRING,
        "timestamptz",
        ConfigDef.CaseInsensitiveValidString.in("timestamptz", "timestamp"),
        Importance.LOW,
        TIMESTAMP_TYPE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Timestamp type");
    def.define(
        TIME_TYPE,
        Type.STRING,
        TIME_TYPE_DEFAULT,
        ConfigDef.CaseInsensitiveValidString.in("time", "long-micros"),
        Importance.LOW,
        TIME_TYPE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Time-of-day type");
    def.define(
        DECIMAL_ROUNDING,
        Type.STRING,
        "none",
        described("none, or a RoundingMode name", (name, value) -> rounding(name, value)),
        Importance.LOW,
        DECIMAL_ROUNDING_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Decimal rounding");
    def.define(
        LOCAL_TIMESTAMP_ZONE,
        Type.STRING,
        "",
        described("empty, or a zone id", (name, value) -> zone(name, value)),
        Importance.LOW,
        LOCAL_TIMESTAMP_ZONE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Zone of zone-less timestamps");
    def.define(
        PARSE_NUMERIC_STRINGS,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        PARSE_NUMERIC_STRINGS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Parse numeric strings");
    def.define(
        UUID_SCHEMA_NAMES,
        Type.LIST,
        ConvertOptions.DEBEZIUM_UUID,
        Importance.LOW,
        UUID_SCHEMA_NAMES_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "UUID schema names");
    def.define(
        VARIABLE_SCALE_DECIMAL_SCALE,
        Type.INT,
        -1,
        ConfigDef.Range.between(-1, 38),
        Importance.LOW,
        VARIABLE_SCALE_DECIMAL_SCALE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "VariableScaleDecimal scale");
    def.define(
        SCHEMA_FORCE_OPTIONAL,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        SCHEMA_FORCE_OPTIONAL_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Force optional columns");
    def.define(
        SCHEMA_CASE_INSENSITIVE,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        SCHEMA_CASE_INSENSITIVE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Match columns ignoring case");
  }

  /** A validator that shows as {@code description} in the configuration reference. */
  private static ConfigDef.Validator described(
      String description, BiConsumer<String, String> check) {
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        check.accept(name, (String) value);
      }

      @Override
      public String toString() {
        return description;
      }
    };
  }

  static ConvertOptions options(AbstractConfig config) {
    int scale = config.getInt(VARIABLE_SCALE_DECIMAL_SCALE);
    List<String> uuidNames = config.getList(UUID_SCHEMA_NAMES);
    return new ConvertOptions(
        config.getString(TIMESTAMP_TYPE).equalsIgnoreCase("timestamptz"),
        new HashSet<>(uuidNames),
        rounding(DECIMAL_ROUNDING, config.getString(DECIMAL_ROUNDING)),
        zone(LOCAL_TIMESTAMP_ZONE, config.getString(LOCAL_TIMESTAMP_ZONE)),
        config.getBoolean(PARSE_NUMERIC_STRINGS),
        scale < 0 ? OptionalInt.empty() : OptionalInt.of(scale),
        timeOfDayType(config),
        config.getBoolean(SCHEMA_FORCE_OPTIONAL),
        config.getBoolean(SCHEMA_CASE_INSENSITIVE));
  }

  private static TimeOfDayType timeOfDayType(AbstractConfig config) {
    return TimeOfDayType.valueOf(
        config.getString(TIME_TYPE).toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  static Tombstones tombstones(AbstractConfig config) {
    return Tombstones.valueOf(config.getString(TOMBSTONES).toUpperCase(Locale.ROOT));
  }

  private static RoundingMode rounding(String name, String value) {
    String mode = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
    if (mode.equals("NONE") || mode.equals("UNNECESSARY")) {
      return RoundingMode.UNNECESSARY;
    }
    try {
      return RoundingMode.valueOf(mode);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          name,
          value,
          "use 'none' or a rounding mode: UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN,"
              + " HALF_EVEN");
    }
  }

  private static Optional<ZoneId> zone(String name, String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(ZoneId.of(value.trim()));
    } catch (DateTimeException e) {
      throw new ConfigException(name, value, "not a zone id (e.g. UTC, Europe/Paris)");
    }
  }
}
