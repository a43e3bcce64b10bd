/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.math.RoundingMode;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * How Connect schemas and values are mapped to Iceberg. Immutable; start from {@link #defaults()}
 * and change one option at a time with the {@code with...} methods.
 *
 * @param timestampsWithZone whether epoch-based timestamps (Connect {@code Timestamp}, Debezium
 *     {@code Timestamp}/{@code MicroTimestamp}/{@code NanoTimestamp}) map to {@code timestamptz}
 *     (true, the default) or to {@code timestamp} without zone (false)
 * @param uuidSchemaNames names of Connect STRING schemas whose values are UUIDs and map to {@code
 *     uuid}; by default only {@code io.debezium.data.Uuid}. An empty set keeps them as strings
 * @param decimalRounding {@link RoundingMode#UNNECESSARY} (the default) never rounds: a Connect
 *     {@code Decimal} whose scale differs from the column's is an error, and a number without a
 *     declared scale must fit the column's scale without losing digits. Any other mode rounds to
 *     the column's scale
 * @param zoneForLocalTimestamps the zone in which zone-less date-times are read when they go into a
 *     {@code timestamptz} column; empty (the default) makes that an error
 * @param parseNumericStrings whether strings are parsed into numeric columns; off by default, a
 *     string into a numeric column is then an error
 * @param variableScaleDecimalScale the scale of the {@code decimal(38, scale)} column that Debezium
 *     {@code VariableScaleDecimal} maps to; empty (the default) makes such fields an error
 * @param timeOfDayType the type of the columns created for time-of-day fields; {@link
 *     TimeOfDayType#LONG_MICROS} by default
 * @param forceOptional whether every column created for a record (of a new table, or added by
 *     schema evolution), and every list element and map value in it, is optional whatever the
 *     record schema says; off by default, optional-ness then follows the record schema
 * @param caseInsensitive whether record fields are matched to existing columns ignoring case when
 *     no column has the field's exact name (in conversion and in schema evolution); off by default
 */
public record ConvertOptions(
    boolean timestampsWithZone,
    Set<String> uuidSchemaNames,
    RoundingMode decimalRounding,
    Optional<ZoneId> zoneForLocalTimestamps,
    boolean parseNumericStrings,
    OptionalInt variableScaleDecimalScale,
    TimeOfDayType timeOfDayType,
    boolean forceOptional,
    boolean caseInsensitive) {

  /** Debezium's logical name for UUID strings. */
  public static final String DEBEZIUM_UUID = "io.debezium.data.Uuid";

  private static final ConvertOptions DEFAULTS =
      new ConvertOptions(
          true,
          Set.of(DEBEZIUM_UUID),
          RoundingMode.UNNECESSARY,
          Optional.empty(),
          false,
          OptionalInt.empty(),
          TimeOfDayType.LONG_MICROS,
          false,
          false);

  /** Validates and copies. */
  public ConvertOptions {
    uuidSchemaNames = Set.copyOf(Objects.requireNonNull(uuidSchemaNames, "uuidSchemaNames"));
    Objects.requireNonNull(decimalRounding, "decimalRounding");
    Objects.requireNonNull(zoneForLocalTimestamps, "zoneForLocalTimestamps");
    Objects.requireNonNull(variableScaleDecimalScale, "variableScaleDecimalScale");
    Objects.requireNonNull(timeOfDayType, "timeOfDayType");
    if (variableScaleDecimalScale.isPresent()) {
      int scale = variableScaleDecimalScale.getAsInt();
      if (scale < 0 || scale > Decimals.MAX_PRECISION) {
        throw new IllegalArgumentException(
            "variableScaleDecimalScale must be between 0 and 38, was " + scale);
      }
    }
  }

  /** The defaults described on each component. */
  public static ConvertOptions defaults() {
    return DEFAULTS;
  }

  /** Whether decimals may be rounded to the column's scale. */
  public boolean roundsDecimals() {
    return decimalRounding != RoundingMode.UNNECESSARY;
  }

  /** With epoch-based timestamps mapped to {@code timestamptz} (true) or {@code timestamp}. */
  public ConvertOptions withTimestampsWithZone(boolean value) {
    return new ConvertOptions(
        value,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With these STRING schema names mapped to {@code uuid}. */
  public ConvertOptions withUuidSchemaNames(Set<String> value) {
    return new ConvertOptions(
        timestampsWithZone,
        value,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With decimals rounded by {@code value}; {@link RoundingMode#UNNECESSARY} never rounds. */
  public ConvertOptions withDecimalRounding(RoundingMode value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        value,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With zone-less date-times read in {@code value} when they go into {@code timestamptz}. */
  public ConvertOptions withZoneForLocalTimestamps(ZoneId value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        Optional.of(value),
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With strings parsed into numeric columns (true) or rejected (false). */
  public ConvertOptions withParseNumericStrings(boolean value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        value,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With Debezium {@code VariableScaleDecimal} mapped to {@code decimal(38, scale)}. */
  public ConvertOptions withVariableScaleDecimalScale(int scale) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        OptionalInt.of(scale),
        timeOfDayType,
        forceOptional,
        caseInsensitive);
  }

  /** With time-of-day fields getting columns of type {@code value}. */
  public ConvertOptions withTimeOfDayType(TimeOfDayType value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        value,
        forceOptional,
        caseInsensitive);
  }

  /** With every created column, list element and map value optional (true), or as the record. */
  public ConvertOptions withForceOptional(boolean value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        value,
        caseInsensitive);
  }

  /** With record fields matched to columns ignoring case (true), or by exact name only. */
  public ConvertOptions withCaseInsensitive(boolean value) {
    return new ConvertOptions(
        timestampsWithZone,
        uuidSchemaNames,
        decimalRounding,
        zoneForLocalTimestamps,
        parseNumericStrings,
        variableScaleDecimalScale,
        timeOfDayType,
        forceOptional,
        value);
  }
}
