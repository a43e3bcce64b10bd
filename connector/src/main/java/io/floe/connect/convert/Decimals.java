/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Decimal columns. A Connect {@code Decimal} declares its scale, so a different column scale is an
 * error unless rounding is configured. Values without a declared scale (schemaless numbers,
 * Debezium {@code VariableScaleDecimal}, integers) are rescaled when that loses nothing, and
 * otherwise need rounding too. A value needing more digits than the column's precision, NaN and
 * infinities are always errors.
 */
final class Decimals {
  /** Iceberg's largest decimal precision, also the default when Connect gives none. */
  static final int MAX_PRECISION = 38;

  /** The schema parameter in which Confluent's Avro converter keeps the precision. */
  static final String PRECISION_PARAMETER = "connect.decimal.precision";

  private Decimals() {}

  /** The column type for a Connect Decimal schema: precision from the parameter, else 38. */
  static Types.DecimalType typeOf(Schema schema, String path) {
    int scale = scaleOf(schema, path);
    Map<String, String> parameters = schema.parameters();
    String precisionText = parameters == null ? null : parameters.get(PRECISION_PARAMETER);
    int precision = MAX_PRECISION;
    if (precisionText != null) {
      precision = parse(precisionText, schema, path, PRECISION_PARAMETER);
    }
    if (precision < 1 || precision > MAX_PRECISION || scale > precision) {
      throw new ConversionException(
          path,
          "decimal with precision 1 to 38 and scale 0 to precision",
          Paths.describe(schema),
          "declared precision " + precision + " and scale " + scale + " do not fit Iceberg");
    }
    return Types.DecimalType.of(precision, scale);
  }

  static int scaleOf(Schema schema, String path) {
    Map<String, String> parameters = schema.parameters();
    String scaleText = parameters == null ? null : parameters.get(Decimal.SCALE_FIELD);
    if (scaleText == null) {
      throw new ConversionException(
          path, "decimal", Paths.describe(schema), "the schema has no 'scale' parameter");
    }
    int scale = parse(scaleText, schema, path, Decimal.SCALE_FIELD);
    if (scale < 0) {
      throw new ConversionException(
          path, "decimal with scale >= 0", Paths.describe(schema), "negative scale");
    }
    return scale;
  }

  private static int parse(String text, Schema schema, String path, String parameter) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new ConversionException(
          path, "decimal", Paths.describe(schema), "parameter '" + parameter + "' is not a number");
    }
  }

  /** A Connect Decimal field: its scale must equal the column's unless rounding is configured. */
  static ValueConverter fromDeclaredScale(
      Types.DecimalType target, Site site, ConvertOptions options) {
    int scale = target.scale();
    RoundingMode rounding = options.decimalRounding();
    boolean rounds = options.roundsDecimals();
    return value -> {
      if (!(value instanceof BigDecimal decimal)) {
        throw site.fail(value, "not a BigDecimal");
      }
      checkIntegerDigits(decimal, target, site, value);
      BigDecimal scaled = decimal;
      if (decimal.scale() != scale) {
        if (!rounds) {
          throw site.fail(
              value,
              "scale "
                  + decimal.scale()
                  + " differs from the column's scale and decimal rounding is not enabled");
        }
        scaled = decimal.setScale(scale, rounding);
      }
      return checkPrecision(scaled, target, site, value);
    };
  }

  /** A Debezium VariableScaleDecimal struct, with its {@code scale} and {@code value} fields. */
  static ValueConverter fromVariableScale(
      Schema schema, Types.DecimalType target, Site site, ConvertOptions options) {
    Field scaleField = schema.field("scale");
    Field valueField = schema.field("value");
    if (scaleField == null || valueField == null) {
      return site.rejecting("VariableScaleDecimal without 'scale' and 'value' fields");
    }
    return value -> {
      if (!(value instanceof Struct struct)) {
        throw site.fail(value, "not a Struct");
      }
      Object scale = struct.get(scaleField);
      Object unscaled = struct.get(valueField);
      if (!(scale instanceof Integer scaleValue) || unscaled == null) {
        throw site.fail(value, "VariableScaleDecimal without scale or value");
      }
      byte[] raw = bytesOf(unscaled, site);
      if (raw.length == 0) {
        throw site.fail(value, "VariableScaleDecimal with an empty value");
      }
      BigInteger digits = new BigInteger(raw);
      return rescale(new BigDecimal(digits, scaleValue), target, site, options, value);
    };
  }

  /** Any number without a declared scale. */
  static ValueConverter fromAny(Types.DecimalType target, Site site, ConvertOptions options) {
    boolean parse = options.parseNumericStrings();
    return value -> {
      BigDecimal decimal;
      if (value instanceof BigDecimal d) {
        decimal = d;
      } else if (value instanceof Long
          || value instanceof Integer
          || value instanceof Short
          || value instanceof Byte) {
        decimal = BigDecimal.valueOf(((Number) value).longValue());
      } else if (value instanceof BigInteger b) {
        decimal = new BigDecimal(b);
      } else if (value instanceof Double || value instanceof Float) {
        double d = ((Number) value).doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw site.fail(value, "a decimal column holds only finite numbers");
        }
        // The shortest decimal that reads back as this number: what the producer wrote
        decimal = new BigDecimal(value.toString());
      } else if (parse && value instanceof String s) {
        decimal = Numbers.parseDecimal(s, site, value);
      } else {
        throw site.fail(value, "not a number");
      }
      return rescale(decimal, target, site, options, value);
    };
  }

  private static BigDecimal rescale(
      BigDecimal decimal, Types.DecimalType target, Site site, ConvertOptions o, Object original) {
    checkIntegerDigits(decimal, target, site, original);
    BigDecimal scaled = decimal;
    if (decimal.scale() != target.scale()) {
      try {
        scaled = decimal.setScale(target.scale(), o.decimalRounding());
      } catch (ArithmeticException e) {
        throw site.fail(
            original, "needs rounding to the column's scale and decimal rounding is not enabled");
      }
    }
    return checkPrecision(scaled, target, site, original);
  }

  /** Checked before rescaling, so that a value like 1E+999999999 is not expanded first. */
  private static void checkIntegerDigits(
      BigDecimal decimal, Types.DecimalType target, Site site, Object original) {
    long integerDigits = (long) decimal.precision() - decimal.scale();
    if (decimal.signum() != 0 && integerDigits > target.precision() - target.scale()) {
      throw site.fail(original, "needs more digits than the column's precision");
    }
  }

  private static BigDecimal checkPrecision(
      BigDecimal scaled, Types.DecimalType target, Site site, Object original) {
    if (scaled.precision() > target.precision()) {
      throw site.fail(original, "needs more digits than the column's precision");
    }
    return scaled;
  }

  /** Bytes of a Connect BYTES value, which may be a byte[] or a ByteBuffer. */
  static byte[] bytesOf(Object value, Site site) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] copy = new byte[buffer.remaining()];
      buffer.duplicate().get(copy);
      return copy;
    }
    throw site.fail(value, "not bytes");
  }
}
