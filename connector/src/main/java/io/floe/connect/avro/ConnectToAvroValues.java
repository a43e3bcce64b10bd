/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Converts Connect values into Avro's generic representation for an Avro schema, which is either
 * {@link ConnectToAvro}'s mapping of the value's Connect schema or, with {@code
 * use.latest.version}, a registered schema: record fields are matched by name, and a record field
 * the Connect struct lacks takes its Avro default. Decimals keep their scale exactly (a value that
 * would need rounding is refused) and must fit the precision.
 */
final class ConnectToAvroValues {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ConnectToAvroValues() {}

  static Object convert(Schema avro, org.apache.kafka.connect.data.Schema connect, Object value) {
    if (value == null) {
      if (avro.getType() == Schema.Type.NULL
          || (avro.getType() == Schema.Type.UNION && UnionBranches.hasNull(avro))) {
        return null;
      }
      throw new DataException("A null value where Avro " + describe(avro) + " allows none");
    }
    return switch (avro.getType()) {
      case UNION -> union(avro, connect, value);
      case RECORD -> record(avro, cast(value, Struct.class, avro));
      case ARRAY -> array(avro, connect, cast(value, Collection.class, avro));
      case MAP -> map(avro, connect, cast(value, Map.class, avro));
      case ENUM -> symbol(avro, value.toString());
      case FIXED -> new GenericData.Fixed(avro, fixed(avro, value));
      case BYTES -> ByteBuffer.wrap(bytes(avro, value));
      case STRING -> cast(value, CharSequence.class, avro).toString();
      case INT -> integer(avro, value);
      case LONG ->
          value instanceof java.util.Date date
              ? date.getTime()
              : cast(value, Number.class, avro).longValue();
      case FLOAT -> cast(value, Number.class, avro).floatValue();
      case DOUBLE -> cast(value, Number.class, avro).doubleValue();
      case BOOLEAN -> cast(value, Boolean.class, avro);
      case NULL -> throw new DataException("A value where Avro allows only null");
    };
  }

  private static Object union(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Object value) {
    List<Schema> branches = UnionBranches.nonNull(avro);
    if (connect != null && UnionBranches.isUnionStruct(connect)) {
      Struct struct = cast(value, Struct.class, avro);
      List<String> names = UnionBranches.names(branches);
      List<Field> fields = connect.fields();
      for (int i = 0; i < fields.size(); i++) {
        Field field = fields.get(i);
        Object branchValue = struct.getWithoutDefault(field.name());
        if (branchValue != null) {
          int branch = names.indexOf(field.name());
          if (branch < 0 && fields.size() == branches.size()) {
            branch = i;
          }
          if (branch < 0) {
            throw new DataException(
                "Union branch " + field.name() + " is not in Avro " + describe(avro));
          }
          return convert(branches.get(branch), field.schema(), branchValue);
        }
      }
      return convert(avro, connect, null);
    }
    if (branches.size() == 1) {
      return convert(branches.get(0), connect, value);
    }
    for (Schema branch : branches) {
      if (matches(branch, connect)) {
        return convert(branch, connect, value);
      }
    }
    throw new DataException("No branch of Avro " + describe(avro) + " takes a " + connect.type());
  }

  private static GenericData.Record record(Schema avro, Struct struct) {
    GenericData.Record record = new GenericData.Record(avro);
    for (Schema.Field field : avro.getFields()) {
      Field source = struct.schema().field(field.name());
      if (source == null) {
        if (!field.hasDefaultValue()) {
          throw new DataException(
              "Struct "
                  + struct.schema().name()
                  + " has no field "
                  + field.name()
                  + ", which Avro record "
                  + avro.getFullName()
                  + " requires");
        }
        record.put(field.pos(), GenericData.get().getDefaultValue(field));
        continue;
      }
      Object value =
          source.schema().isOptional()
              ? struct.getWithoutDefault(source.name())
              : struct.get(source);
      try {
        record.put(field.pos(), convert(field.schema(), source.schema(), value));
      } catch (DataException e) {
        throw new DataException("Field " + field.name() + ": " + e.getMessage(), e);
      }
    }
    return record;
  }

  private static List<Object> array(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Collection<?> values) {
    List<Object> list = new ArrayList<>(values.size());
    for (Object element : values) {
      list.add(
          convert(avro.getElementType(), connect == null ? null : connect.valueSchema(), element));
    }
    return list;
  }

  private static Map<String, Object> map(
      Schema avro, org.apache.kafka.connect.data.Schema connect, Map<?, ?> values) {
    Map<String, Object> map = new HashMap<>(values.size() * 2);
    for (Map.Entry<?, ?> entry : values.entrySet()) {
      if (entry.getKey() == null) {
        throw new DataException("A map with a null key; Avro map keys are strings");
      }
      map.put(
          entry.getKey().toString(),
          convert(
              avro.getValueType(),
              connect == null ? null : connect.valueSchema(),
              entry.getValue()));
    }
    return map;
  }

  private static GenericData.EnumSymbol symbol(Schema avro, String symbol) {
    if (!avro.hasEnumSymbol(symbol)) {
      throw new DataException(
          "A string that is not a symbol of Avro enum "
              + avro.getFullName()
              + " "
              + avro.getEnumSymbols());
    }
    return new GenericData.EnumSymbol(avro, symbol);
  }

  private static byte[] fixed(Schema avro, Object value) {
    byte[] bytes;
    if (value instanceof BigDecimal decimal) {
      byte[] unscaled = unscaled(avro, decimal);
      if (unscaled.length > avro.getFixedSize()) {
        throw new DataException("A decimal too large for Avro " + describe(avro));
      }
      bytes = new byte[avro.getFixedSize()];
      Arrays.fill(bytes, 0, bytes.length - unscaled.length, (byte) (decimal.signum() < 0 ? -1 : 0));
      System.arraycopy(unscaled, 0, bytes, bytes.length - unscaled.length, unscaled.length);
      return bytes;
    }
    bytes = bytes(avro, value);
    if (bytes.length != avro.getFixedSize()) {
      throw new DataException(bytes.length + " bytes for Avro " + describe(avro));
    }
    return bytes;
  }

  private static byte[] bytes(Schema avro, Object value) {
    if (value instanceof BigDecimal decimal) {
      return unscaled(avro, decimal);
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    return cast(value, byte[].class, avro);
  }

  private static byte[] unscaled(Schema avro, BigDecimal value) {
    LogicalType logical = avro.getLogicalType();
    if (!(logical instanceof LogicalTypes.Decimal decimal)) {
      throw new DataException("A decimal value for Avro " + describe(avro) + ", not a decimal");
    }
    BigDecimal scaled;
    try {
      scaled = value.setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new DataException(
          "A decimal with more fraction digits than scale " + decimal.getScale() + " allows", e);
    }
    if (scaled.precision() > decimal.getPrecision()) {
      throw new DataException("A decimal that exceeds precision " + decimal.getPrecision());
    }
    return scaled.unscaledValue().toByteArray();
  }

  private static int integer(Schema avro, Object value) {
    if (value instanceof java.util.Date date) {
      LogicalType logical = avro.getLogicalType();
      if (logical instanceof LogicalTypes.Date) {
        return Math.toIntExact(Math.floorDiv(date.getTime(), MILLIS_PER_DAY));
      }
      if (logical instanceof LogicalTypes.TimeMillis) {
        return Math.toIntExact(date.getTime());
      }
      throw new DataException("A date value for Avro " + describe(avro));
    }
    Number number = cast(value, Number.class, avro);
    if (number instanceof Long || number instanceof Double || number instanceof Float) {
      throw new DataException("A " + number.getClass().getSimpleName() + " for Avro int");
    }
    return number.intValue();
  }

  private static boolean matches(Schema branch, org.apache.kafka.connect.data.Schema connect) {
    Schema.Type type = branch.getType();
    return switch (connect.type()) {
      case INT8, INT16, INT32 -> type == Schema.Type.INT;
      case INT64 -> type == Schema.Type.LONG;
      case FLOAT32 -> type == Schema.Type.FLOAT;
      case FLOAT64 -> type == Schema.Type.DOUBLE;
      case BOOLEAN -> type == Schema.Type.BOOLEAN;
      case STRING -> type == Schema.Type.STRING || type == Schema.Type.ENUM;
      case BYTES -> type == Schema.Type.BYTES || type == Schema.Type.FIXED;
      case ARRAY -> type == Schema.Type.ARRAY;
      case MAP -> type == Schema.Type.MAP;
      case STRUCT -> type == Schema.Type.RECORD;
    };
  }

  private static <T> T cast(Object value, Class<T> type, Schema avro) {
    if (!type.isInstance(value)) {
      throw new DataException(
          "A "
              + value.getClass().getName()
              + " where Avro "
              + describe(avro)
              + " needs a "
              + type.getSimpleName());
    }
    return type.cast(value);
  }

  private static String describe(Schema avro) {
    return switch (avro.getType()) {
      case RECORD, ENUM, FIXED -> avro.getType().getName() + " " + avro.getFullName();
      case UNION -> "union " + avro.getTypes().stream().map(ConnectToAvroValues::describe).toList();
      default -> avro.getType().getName();
    };
  }
}
