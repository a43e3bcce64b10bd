/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Maps Connect schemas to Iceberg schemas: the type mapping of the README's "Type mapping" section.
 * Optional-ness follows {@link Schema#isOptional()} (every field, element and value is optional
 * with {@link ConvertOptions#forceOptional()}), column docs follow {@link Schema#doc()}, and field
 * ids are fresh, assigned the way Iceberg does (a struct's fields before their children).
 */
public final class ConnectSchemas {
  /** Deeper schemas are rejected, which bounds the recursion of every later conversion. */
  public static final int MAX_DEPTH = 500;

  private ConnectSchemas() {}

  /**
   * The Iceberg schema for a Connect STRUCT schema.
   *
   * @throws ConversionException if the schema is not a struct or holds a type Floe cannot map
   */
  public static org.apache.iceberg.Schema toIcebergSchema(Schema schema, ConvertOptions options) {
    if (schema == null || SourceKind.of(schema, "", options) != SourceKind.STRUCT) {
      throw new ConversionException(
          ConversionException.ROOT,
          "struct",
          schema == null ? "no schema" : Paths.describe(schema),
          "a table schema needs a Connect STRUCT record schema");
    }
    AtomicInteger ids = new AtomicInteger();
    Types.StructType struct = struct(schema, "", 0, ids, options);
    AtomicInteger fresh = new AtomicInteger();
    return TypeUtil.assignFreshIds(
        new org.apache.iceberg.Schema(struct.fields()), fresh::incrementAndGet);
  }

  /**
   * The Iceberg type for any Connect schema, with fresh ids counted from 1 (for example for a
   * column that schema evolution adds; {@code UpdateSchema} assigns its own ids).
   */
  public static Type toIcebergType(Schema schema, ConvertOptions options) {
    return toIcebergType(schema, "", options);
  }

  static Type toIcebergType(Schema schema, String path, ConvertOptions options) {
    AtomicInteger ids = new AtomicInteger();
    Type type = type(schema, path, 0, ids, options);
    AtomicInteger fresh = new AtomicInteger();
    return TypeUtil.assignFreshIds(type, fresh::incrementAndGet);
  }

  /**
   * Whether {@code schema} is a time of day (Connect {@code Time}, Debezium {@code Time}, {@code
   * MicroTime}, {@code NanoTime}). Its values go into a {@code time} column, or into a {@code long}
   * column as microseconds since midnight, whichever type the column has.
   */
  public static boolean isTimeOfDay(Schema schema, ConvertOptions options) {
    return SourceKind.of(schema, "", options).isTimeOfDay();
  }

  private static Type type(
      Schema schema, String path, int depth, AtomicInteger ids, ConvertOptions options) {
    if (depth > MAX_DEPTH) {
      throw new ConversionException(
          path, "at most " + MAX_DEPTH + " levels of nesting", Paths.describe(schema), "too deep");
    }
    SourceKind kind = SourceKind.of(schema, path, options);
    return switch (kind) {
      case INT8, INT16, INT32 -> Types.IntegerType.get();
      case INT64 -> Types.LongType.get();
      case FLOAT32 -> Types.FloatType.get();
      case FLOAT64 -> Types.DoubleType.get();
      case BOOLEAN -> Types.BooleanType.get();
      case STRING, ZONED_TIME -> Types.StringType.get();
      case BYTES -> Types.BinaryType.get();
      case UUID -> Types.UUIDType.get();
      case DECIMAL -> Decimals.typeOf(schema, path);
      case VARIABLE_SCALE_DECIMAL -> variableScaleDecimal(schema, path, options);
      case DATE, EPOCH_DAYS -> Types.DateType.get();
      case TIME, TIME_MILLIS, TIME_MICROS, TIME_NANOS ->
          options.timeOfDayType() == TimeOfDayType.TIME
              ? Types.TimeType.get()
              : Types.LongType.get();
      case TIMESTAMP, EPOCH_MILLIS, EPOCH_MICROS, EPOCH_NANOS ->
          options.timestampsWithZone()
              ? Types.TimestampType.withZone()
              : Types.TimestampType.withoutZone();
      case ZONED_TIMESTAMP -> Types.TimestampType.withZone();
      case STRUCT -> struct(schema, path, depth, ids, options);
      case ARRAY -> list(schema, path, depth, ids, options);
      case MAP -> map(schema, path, depth, ids, options);
    };
  }

  private static Types.StructType struct(
      Schema schema, String path, int depth, AtomicInteger ids, ConvertOptions options) {
    if (schema.fields().isEmpty()) {
      throw new ConversionException(
          path.isEmpty() ? ConversionException.ROOT : path,
          "struct with at least one field",
          Paths.describe(schema),
          "Iceberg data files cannot hold an empty struct");
    }
    List<Types.NestedField> fields = new ArrayList<>(schema.fields().size());
    for (Field field : schema.fields()) {
      Schema fieldSchema = field.schema();
      String fieldPath = Paths.field(path, field.name());
      Type fieldType = type(fieldSchema, fieldPath, depth + 1, ids, options);
      int id = ids.incrementAndGet();
      fields.add(
          options.forceOptional() || fieldSchema.isOptional()
              ? Types.NestedField.optional(id, field.name(), fieldType, fieldSchema.doc())
              : Types.NestedField.required(id, field.name(), fieldType, fieldSchema.doc()));
    }
    return Types.StructType.of(fields);
  }

  private static Types.ListType list(
      Schema schema, String path, int depth, AtomicInteger ids, ConvertOptions options) {
    Schema element = schema.valueSchema();
    Type elementType = type(element, Paths.element(path), depth + 1, ids, options);
    int id = ids.incrementAndGet();
    return options.forceOptional() || element.isOptional()
        ? Types.ListType.ofOptional(id, elementType)
        : Types.ListType.ofRequired(id, elementType);
  }

  private static Types.MapType map(
      Schema schema, String path, int depth, AtomicInteger ids, ConvertOptions options) {
    Type keyType = type(schema.keySchema(), Paths.mapKey(path), depth + 1, ids, options);
    Schema value = schema.valueSchema();
    Type valueType = type(value, Paths.mapValue(path), depth + 1, ids, options);
    int keyId = ids.incrementAndGet();
    int valueId = ids.incrementAndGet();
    return options.forceOptional() || value.isOptional()
        ? Types.MapType.ofOptional(keyId, valueId, keyType, valueType)
        : Types.MapType.ofRequired(keyId, valueId, keyType, valueType);
  }

  private static Type variableScaleDecimal(Schema schema, String path, ConvertOptions options) {
    if (options.variableScaleDecimalScale().isEmpty()) {
      throw new ConversionException(
          path,
          "a decimal with a fixed scale",
          Paths.describe(schema),
          "VariableScaleDecimal needs a configured target scale, or Debezium's"
              + " decimal.handling.mode=precise/string/double");
    }
    return Types.DecimalType.of(
        Decimals.MAX_PRECISION, options.variableScaleDecimalScale().getAsInt());
  }
}
