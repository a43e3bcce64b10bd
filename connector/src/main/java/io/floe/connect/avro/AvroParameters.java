/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

/**
 * The names {@link AvroConverter} gives Connect schemas, and the parameters it keeps on them, so
 * that the sink (and the converter's own Connect-to-Avro direction) knows what the Avro schema
 * said.
 *
 * <p>Where each piece of Avro metadata goes:
 *
 * <ul>
 *   <li>A record becomes a STRUCT named with the record's full name. Enums and fixed types keep
 *       their full name in {@link #TYPE_NAME} (their Connect schema stays unnamed, so that the
 *       sink's type mapping sees a plain STRING or BYTES).
 *   <li>A named type's own doc is {@link #TYPE_DOC}; its aliases are {@link #TYPE_ALIASES}. The
 *       Connect {@code doc} of a field's schema is the field's doc; on the top-level schema it is
 *       the top-level type's doc.
 *   <li>A field's aliases ({@link #FIELD_ALIASES}) and default ({@link #FIELD_DEFAULT}, as JSON)
 *       sit on the field's schema, because Connect fields have no parameters of their own. The
 *       default is also the Connect {@code defaultValue} when the field is required and of a
 *       primitive or logical type; it is never set on optional fields, since Connect's {@code
 *       Struct.get} would then turn a written null into the default.
 *   <li>Lists are comma-separated, e.g. {@code A,B,C}.
 * </ul>
 */
public final class AvroParameters {
  /** The prefix of every parameter Floe adds. */
  public static final String PREFIX = "floe.avro.";

  /** On the top-level schema: the registry id of the writer schema. */
  public static final String SCHEMA_ID = PREFIX + "schema-id";

  /** Full name of an Avro enum or fixed type. */
  public static final String TYPE_NAME = PREFIX + "type-name";

  /** Doc of an Avro record, enum or fixed type. */
  public static final String TYPE_DOC = PREFIX + "type-doc";

  /** Aliases (full names) of an Avro record, enum or fixed type, comma-separated. */
  public static final String TYPE_ALIASES = PREFIX + "type-aliases";

  /** Aliases of a record field, comma-separated; a renamed field lists its old names here. */
  public static final String FIELD_ALIASES = PREFIX + "field-aliases";

  /** The default of a record field, as Avro JSON (e.g. {@code 0}, {@code "x"}, {@code null}). */
  public static final String FIELD_DEFAULT = PREFIX + "field-default";

  /** Symbols of an Avro enum (a Connect STRING), comma-separated, in order. */
  public static final String ENUM_SYMBOLS = PREFIX + "enum-symbols";

  /** The default symbol of an Avro enum, used by readers for unknown symbols. */
  public static final String ENUM_DEFAULT = PREFIX + "enum-default";

  /** Size in bytes of an Avro fixed type (a Connect BYTES, or a Decimal stored as fixed). */
  public static final String FIXED_SIZE = PREFIX + "fixed-size";

  /**
   * The Avro logical type, when the Connect schema alone does not tell it: the zone-less {@code
   * local-timestamp-millis}, {@code local-timestamp-micros} and {@code local-timestamp-nanos}, and
   * logical types Connect has no counterpart for ({@code duration}, {@code big-decimal}, {@code
   * uuid} on fixed, unknown ones), which keep their underlying type.
   */
  public static final String LOGICAL_TYPE = PREFIX + "logical-type";

  /** Connect's parameter for a decimal's precision, as Confluent's converter sets it. */
  public static final String DECIMAL_PRECISION = "connect.decimal.precision";

  /**
   * Name of the STRUCT an Avro union with more than one non-null branch becomes: one optional field
   * per branch, in the union's order, exactly one of them set. A branch's field is named after its
   * type: {@code int}, {@code string}, {@code array}, {@code map} and so on for unnamed types, the
   * simple name for records, enums and fixed types (their full name with {@code .} as {@code _}
   * when two branches share a simple name). Nulls in the union make the STRUCT optional.
   */
  public static final String UNION = "io.floe.connect.avro.Union";

  /** The union STRUCT of Confluent's converter, accepted when converting Connect data to Avro. */
  public static final String CONFLUENT_UNION = "io.confluent.connect.avro.Union";

  /** Avro {@code time-micros}: INT64 microseconds since midnight. */
  public static final String MICRO_TIME = "io.debezium.time.MicroTime";

  /** Avro {@code timestamp-micros} (and {@code local-timestamp-micros}): INT64 microseconds. */
  public static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";

  /** Avro {@code timestamp-nanos} (and {@code local-timestamp-nanos}): INT64 nanoseconds. */
  public static final String NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";

  /** Avro {@code uuid} on a string: a STRING. */
  public static final String UUID = "io.debezium.data.Uuid";

  /** Avro property marking an {@code int} that was a Connect INT8 or INT16, as Confluent does. */
  public static final String CONNECT_TYPE_PROP = "connect.type";

  private AvroParameters() {}
}
