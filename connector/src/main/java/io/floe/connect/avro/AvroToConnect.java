/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Maps an Avro schema to a Connect schema, keeping what schema evolution needs as parameters (see
 * {@link AvroParameters}).
 *
 * <p>Types: record → STRUCT named with the full name; int, long, float, double, boolean, string →
 * INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING ({@code int} marked {@code connect.type} int8 or
 * int16 → INT8, INT16); bytes and fixed → BYTES; enum → STRING; array → ARRAY; map → MAP with
 * STRING keys; unions as {@link UnionBranches} says. Logical types: decimal → Connect {@code
 * Decimal} (scale, and precision as {@code connect.decimal.precision}); date → {@code Date};
 * time-millis → {@code Time}; timestamp-millis → {@code Timestamp}; time-micros → INT64 {@code
 * io.debezium.time.MicroTime}; timestamp-micros → INT64 {@code io.debezium.time.MicroTimestamp};
 * timestamp-nanos → INT64 {@code io.debezium.time.NanoTimestamp}; the local-timestamp types → the
 * same as their zoned counterpart plus {@link AvroParameters#LOGICAL_TYPE}, which marks them
 * zone-less; uuid on a string → STRING {@code io.debezium.data.Uuid}. Other logical types keep
 * their underlying type and are named in {@link AvroParameters#LOGICAL_TYPE}. Recursive records
 * have no Connect form and are refused.
 */
final class AvroToConnect {
  private AvroToConnect() {}

  /** The Connect schema of a writer schema, carrying its registry id. */
  static org.apache.kafka.connect.data.Schema toConnect(Schema avro, int schemaId) {
    return topLevel(avro).parameter(AvroParameters.SCHEMA_ID, String.valueOf(schemaId)).build();
  }

  /** The Connect schema of an Avro schema, without a registry id. */
  static org.apache.kafka.connect.data.Schema toConnect(Schema avro) {
    return topLevel(avro).build();
  }

  private static SchemaBuilder topLevel(Schema avro) {
    SchemaBuilder builder = builder(avro, new ArrayDeque<>());
    String doc =
        builder.parameters() == null ? null : builder.parameters().get(AvroParameters.TYPE_DOC);
    if (doc != null) {
      builder.doc(doc);
    }
    return builder;
  }

  private static SchemaBuilder builder(Schema avro, Deque<String> records) {
    LogicalType logical = avro.getLogicalType();
    if (logical != null) {
      SchemaBuilder builder = logical(avro, logical);
      if (builder != null) {
        return builder;
      }
    }
    SchemaBuilder builder =
        switch (avro.getType()) {
          case RECORD -> record(avro, records);
          case ENUM -> enumeration(avro);
          case FIXED ->
              named(SchemaBuilder.bytes(), avro).parameter(AvroParameters.FIXED_SIZE, size(avro));
          case ARRAY -> SchemaBuilder.array(build(avro.getElementType(), records));
          case MAP ->
              SchemaBuilder.map(
                  org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
                  build(avro.getValueType(), records));
          case UNION -> union(avro, records);
          case STRING -> SchemaBuilder.string();
          case BYTES -> SchemaBuilder.bytes();
          case INT -> integer(avro);
          case LONG -> SchemaBuilder.int64();
          case FLOAT -> SchemaBuilder.float32();
          case DOUBLE -> SchemaBuilder.float64();
          case BOOLEAN -> SchemaBuilder.bool();
          case NULL ->
              throw new DataException(
                  "A bare Avro null type has no Connect counterpart; use a union with null");
        };
    String logicalName = logical != null ? logical.getName() : avro.getProp("logicalType");
    if (logicalName != null) {
      builder.parameter(AvroParameters.LOGICAL_TYPE, logicalName);
    }
    return builder;
  }

  private static org.apache.kafka.connect.data.Schema build(Schema avro, Deque<String> records) {
    return builder(avro, records).build();
  }

  /** The Connect schema of a logical type that has one; null for the others. */
  private static SchemaBuilder logical(Schema avro, LogicalType logical) {
    String name = logical.getName();
    return switch (name) {
      case "decimal" -> decimal(avro, (LogicalTypes.Decimal) logical);
      case "date" -> Date.builder();
      case "time-millis" -> Time.builder();
      case "timestamp-millis" -> Timestamp.builder();
      case "local-timestamp-millis" ->
          Timestamp.builder().parameter(AvroParameters.LOGICAL_TYPE, name);
      case "time-micros" -> SchemaBuilder.int64().name(AvroParameters.MICRO_TIME);
      case "timestamp-micros" -> SchemaBuilder.int64().name(AvroParameters.MICRO_TIMESTAMP);
      case "local-timestamp-micros" ->
          SchemaBuilder.int64()
              .name(AvroParameters.MICRO_TIMESTAMP)
              .parameter(AvroParameters.LOGICAL_TYPE, name);
      case "timestamp-nanos" -> SchemaBuilder.int64().name(AvroParameters.NANO_TIMESTAMP);
      case "local-timestamp-nanos" ->
          SchemaBuilder.int64()
              .name(AvroParameters.NANO_TIMESTAMP)
              .parameter(AvroParameters.LOGICAL_TYPE, name);
      case "uuid" ->
          avro.getType() == Schema.Type.STRING
              ? SchemaBuilder.string().name(AvroParameters.UUID)
              : null;
      default -> null;
    };
  }

  private static SchemaBuilder decimal(Schema avro, LogicalTypes.Decimal decimal) {
    SchemaBuilder builder =
        Decimal.builder(decimal.getScale())
            .parameter(AvroParameters.DECIMAL_PRECISION, String.valueOf(decimal.getPrecision()));
    if (avro.getType() == Schema.Type.FIXED) {
      named(builder, avro).parameter(AvroParameters.FIXED_SIZE, size(avro));
    }
    return builder;
  }

  private static SchemaBuilder record(Schema avro, Deque<String> records) {
    String name = avro.getFullName();
    if (records.contains(name)) {
      throw new DataException(
          "Avro record " + name + " contains itself; recursive schemas have no Connect form");
    }
    records.push(name);
    SchemaBuilder struct = SchemaBuilder.struct().name(name);
    typeDocAndAliases(struct, avro);
    JsonNode[] defaults = AvroDefaults.fieldDefaults(avro);
    for (Schema.Field field : avro.getFields()) {
      struct.field(field.name(), field(field, defaults[field.pos()], records));
    }
    records.pop();
    return struct;
  }

  private static org.apache.kafka.connect.data.Schema field(
      Schema.Field field, JsonNode defaultJson, Deque<String> records) {
    SchemaBuilder builder = builder(field.schema(), records);
    if (field.doc() != null) {
      builder.doc(field.doc());
    }
    if (!field.aliases().isEmpty()) {
      builder.parameter(AvroParameters.FIELD_ALIASES, join(field.aliases()));
    }
    if (defaultJson != null) {
      builder.parameter(AvroParameters.FIELD_DEFAULT, defaultJson.toString());
      if (!builder.isOptional()
          && isScalar(builder)
          && field.schema().isValidDefault(defaultJson)) {
        Object avroDefault = GenericData.get().getDefaultValue(field);
        builder.defaultValue(AvroToConnectValues.convert(field.schema(), builder, avroDefault));
      }
    }
    return builder.build();
  }

  private static SchemaBuilder enumeration(Schema avro) {
    SchemaBuilder builder =
        named(SchemaBuilder.string(), avro)
            .parameter(AvroParameters.ENUM_SYMBOLS, join(avro.getEnumSymbols()));
    if (avro.getEnumDefault() != null) {
      builder.parameter(AvroParameters.ENUM_DEFAULT, avro.getEnumDefault());
    }
    return builder;
  }

  private static SchemaBuilder union(Schema avro, Deque<String> records) {
    List<Schema> branches = UnionBranches.nonNull(avro);
    boolean nullable = UnionBranches.hasNull(avro);
    if (branches.isEmpty()) {
      throw new DataException("An Avro union of only null has no Connect counterpart");
    }
    if (branches.size() == 1) {
      SchemaBuilder builder = builder(branches.get(0), records);
      return nullable ? builder.optional() : builder;
    }
    SchemaBuilder struct = SchemaBuilder.struct().name(AvroParameters.UNION);
    List<String> names = UnionBranches.names(branches);
    for (int i = 0; i < branches.size(); i++) {
      struct.field(names.get(i), builder(branches.get(i), records).optional().build());
    }
    return nullable ? struct.optional() : struct;
  }

  private static SchemaBuilder integer(Schema avro) {
    String connectType = avro.getProp(AvroParameters.CONNECT_TYPE_PROP);
    if ("int8".equals(connectType)) {
      return SchemaBuilder.int8();
    }
    if ("int16".equals(connectType)) {
      return SchemaBuilder.int16();
    }
    return SchemaBuilder.int32();
  }

  /** The full name, doc and aliases of an enum or fixed type. */
  private static SchemaBuilder named(SchemaBuilder builder, Schema avro) {
    builder.parameter(AvroParameters.TYPE_NAME, avro.getFullName());
    return typeDocAndAliases(builder, avro);
  }

  private static SchemaBuilder typeDocAndAliases(SchemaBuilder builder, Schema avro) {
    if (avro.getDoc() != null) {
      builder.parameter(AvroParameters.TYPE_DOC, avro.getDoc());
    }
    if (!avro.getAliases().isEmpty()) {
      builder.parameter(AvroParameters.TYPE_ALIASES, join(avro.getAliases()));
    }
    return builder;
  }

  private static boolean isScalar(org.apache.kafka.connect.data.Schema schema) {
    return switch (schema.type()) {
      case STRUCT, ARRAY, MAP -> false;
      default -> true;
    };
  }

  private static String size(Schema fixed) {
    return String.valueOf(fixed.getFixedSize());
  }

  private static String join(Collection<String> names) {
    return String.join(",", names);
  }
}
