/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.math.BigDecimal;

/**
 * Boolean, int, long, float and double columns. Narrowing is checked, never truncated: a long into
 * an int column must fit, an integer into a float or double column must be exactly representable, a
 * double into a float column must survive the round trip. Floating-point values never go into
 * integer columns. Strings are parsed only when the options say so.
 */
final class Numbers {
  private static final double TWO_TO_63 = 0x1p63;

  private Numbers() {}

  static ValueConverter toBoolean(Site site) {
    return value -> {
      if (value instanceof Boolean) {
        return value;
      }
      throw site.fail(value, "not a boolean");
    };
  }

  static ValueConverter toInt(Site site, ConvertOptions options) {
    boolean parse = options.parseNumericStrings();
    return value -> {
      if (value instanceof Integer) {
        return value;
      }
      if (value instanceof Long l) {
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
          throw site.fail(value, "out of range for int");
        }
        return (int) (long) l;
      }
      if (value instanceof Short || value instanceof Byte) {
        return ((Number) value).intValue();
      }
      if (parse && value instanceof String s) {
        try {
          return Integer.parseInt(s);
        } catch (NumberFormatException e) {
          throw site.fail(value, "not an int in decimal notation, or out of range");
        }
      }
      throw site.fail(value, "not an integer");
    };
  }

  static ValueConverter toLong(Site site, ConvertOptions options) {
    boolean parse = options.parseNumericStrings();
    return value -> {
      if (value instanceof Long) {
        return value;
      }
      if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
        return ((Number) value).longValue();
      }
      if (parse && value instanceof String s) {
        try {
          return Long.parseLong(s);
        } catch (NumberFormatException e) {
          throw site.fail(value, "not a long in decimal notation, or out of range");
        }
      }
      throw site.fail(value, "not an integer");
    };
  }

  static ValueConverter toFloat(Site site, ConvertOptions options) {
    boolean parse = options.parseNumericStrings();
    return value -> {
      if (value instanceof Float) {
        return value;
      }
      if (value instanceof Double d) {
        float f = (float) (double) d;
        if (f != d && !Double.isNaN(d)) {
          throw site.fail(value, "not exactly representable as float");
        }
        return f;
      }
      if (isInteger(value)) {
        long l = ((Number) value).longValue();
        float f = l;
        if ((double) f == TWO_TO_63 || (long) f != l) {
          throw site.fail(value, "not exactly representable as float");
        }
        return f;
      }
      if (parse && value instanceof String s) {
        return parseFloat(s, site, value);
      }
      throw site.fail(value, "not a float");
    };
  }

  static ValueConverter toDouble(Site site, ConvertOptions options) {
    boolean parse = options.parseNumericStrings();
    return value -> {
      if (value instanceof Double) {
        return value;
      }
      if (value instanceof Float f) {
        return (double) f;
      }
      if (isInteger(value)) {
        long l = ((Number) value).longValue();
        double d = l;
        if (d == TWO_TO_63 || (long) d != l) {
          throw site.fail(value, "not exactly representable as double");
        }
        return d;
      }
      if (parse && value instanceof String s) {
        return parseDouble(s, site, value);
      }
      throw site.fail(value, "not a double");
    };
  }

  private static boolean isInteger(Object value) {
    return value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte;
  }

  /** Strict decimal notation (no hex, no type suffix), plus NaN and the infinities. */
  private static double parseDouble(String text, Site site, Object value) {
    Double special = special(text);
    if (special != null) {
      return special;
    }
    double d = parseDecimal(text, site, value).doubleValue();
    if (Double.isInfinite(d)) {
      throw site.fail(value, "out of range for double");
    }
    return d;
  }

  private static float parseFloat(String text, Site site, Object value) {
    Double special = special(text);
    if (special != null) {
      return special.floatValue();
    }
    float f = parseDecimal(text, site, value).floatValue();
    if (Float.isInfinite(f)) {
      throw site.fail(value, "out of range for float");
    }
    return f;
  }

  private static Double special(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> null;
    };
  }

  static BigDecimal parseDecimal(String text, Site site, Object value) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw site.fail(value, "not a number in decimal notation");
    }
  }
}
