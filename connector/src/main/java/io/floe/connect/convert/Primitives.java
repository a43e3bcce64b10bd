/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;

/** Picks the converter for a primitive column, once, at plan-compile time. */
final class Primitives {
  private Primitives() {}

  /**
   * The converter into {@code target}.
   *
   * @param source the Connect schema of the values, or null for schemaless values
   * @param kind what {@code source} means, or null for schemaless values
   */
  static ValueConverter compile(
      Schema source, SourceKind kind, Type.PrimitiveType target, Site site, ConvertOptions o) {
    return switch (target.typeId()) {
      case BOOLEAN -> Numbers.toBoolean(site);
      case INTEGER -> Numbers.toInt(site, o);
      case LONG ->
          kind != null && kind.isTimeOfDay()
              ? Temporals.toMicrosOfDay(kind, site)
              : Numbers.toLong(site, o);
      case FLOAT -> Numbers.toFloat(site, o);
      case DOUBLE -> Numbers.toDouble(site, o);
      case DECIMAL -> decimal(source, kind, (Types.DecimalType) target, site, o);
      case DATE -> Temporals.toDate(kind, site);
      case TIME -> Temporals.toTime(kind, site);
      case TIMESTAMP ->
          Temporals.toTimestamp(
              kind, ((Types.TimestampType) target).shouldAdjustToUTC(), false, site, o);
      case TIMESTAMP_NANO ->
          Temporals.toTimestamp(
              kind, ((Types.TimestampNanoType) target).shouldAdjustToUTC(), true, site, o);
      case STRING -> TextAndBytes.toStringValue(site);
      case UUID -> TextAndBytes.toUuid(site);
      case BINARY -> TextAndBytes.toBinary(site);
      case FIXED -> TextAndBytes.toFixed(((Types.FixedType) target).length(), site);
      case UNKNOWN -> site.rejecting("a column of type unknown holds only nulls");
      default -> site.rejecting("Floe does not write columns of this type");
    };
  }

  private static ValueConverter decimal(
      Schema source, SourceKind kind, Types.DecimalType target, Site site, ConvertOptions o) {
    if (kind == SourceKind.DECIMAL) {
      return Decimals.fromDeclaredScale(target, site, o);
    }
    if (kind == SourceKind.VARIABLE_SCALE_DECIMAL) {
      return Decimals.fromVariableScale(source, target, site, o);
    }
    return Decimals.fromAny(target, site, o);
  }
}
