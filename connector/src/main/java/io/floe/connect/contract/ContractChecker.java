/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A table's contract compiled against one of its schemas: per field the positions that reach it in
 * a row and its checks, each with its bounds and allowed values already in the column's own values,
 * so checking a row reads by position and compares, with no lookup by name.
 *
 * <p>Where the table does not match the contract, the field's rule is broken by every row: a
 * required field the table has no column for breaks {@code required}; a column of another type than
 * the contract's (or a field the contract nests where the table has no struct) breaks {@code
 * logicalType} or {@code physicalType}. {@link #problems()} tells these once.
 *
 * <p>Not thread-safe (a pattern's matcher is reused): one checker per table writer.
 */
public final class ContractChecker {
  private final String table;
  private final Contract contract;
  private final int schemaId;
  private final FieldCheck[] checks;
  private final FieldCheck[] uniques;
  private final List<String> problems;

  private ContractChecker(
      String table,
      Contract contract,
      int schemaId,
      FieldCheck[] checks,
      FieldCheck[] uniques,
      List<String> problems) {
    this.table = table;
    this.contract = contract;
    this.schemaId = schemaId;
    this.checks = checks;
    this.uniques = uniques;
    this.problems = List.copyOf(problems);
  }

  /** Compiles {@code contract} for the rows of {@code schema}, table {@code table}'s. */
  public static ContractChecker compile(String table, Contract contract, Schema schema) {
    List<FieldCheck> checks = new ArrayList<>();
    List<FieldCheck> uniques = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (FieldRule rule : contract.fields()) {
      FieldCheck check = compile(rule, schema.asStruct(), problems);
      if (check != null) {
        checks.add(check);
        if (rule.unique()) {
          uniques.add(check);
        }
      }
    }
    return new ContractChecker(
        table,
        contract,
        schema.schemaId(),
        checks.toArray(new FieldCheck[0]),
        uniques.toArray(new FieldCheck[0]),
        problems);
  }

  /** The id of the schema this checker reads rows of. */
  public int schemaId() {
    return schemaId;
  }

  /** The contract this checker enforces. */
  public Contract contract() {
    return contract;
  }

  /**
   * Where the table's schema does not match the contract, one sentence each: rules every row will
   * break.
   */
  public List<String> problems() {
    return problems;
  }

  /**
   * Checks a row of this checker's schema.
   *
   * @throws ContractViolation naming the first rule the row breaks and its field
   */
  public void check(StructLike row) {
    for (FieldCheck check : checks) {
      Object value = check.read(row);
      String broken = check.broken(value);
      if (broken != null) {
        throw new ContractViolation(table, contract, broken, check.path);
      }
    }
  }

  /**
   * Checks that no row written since the last hand-over had the values of the row's unique fields,
   * and stages them for {@link UniqueKeys#admit}.
   *
   * @throws ContractViolation naming the rule unique and the field
   */
  public void checkUnique(StructLike row, UniqueKeys keys) {
    for (FieldCheck unique : uniques) {
      keys.check(unique.path, unique.read(row));
    }
  }

  private static FieldCheck compile(
      FieldRule rule, Types.StructType struct, List<String> problems) {
    String[] names = rule.path().split("\\.");
    int[] positions = new int[names.length];
    Type type = struct;
    for (int i = 0; i < names.length; i++) {
      if (!type.isStructType()) {
        String parent = String.join(".", List.of(names).subList(0, i));
        problems.add(
            "field "
                + rule.path()
                + ": the contract nests it in "
                + parent
                + ", which is a "
                + type
                + " in the table");
        return FieldCheck.alwaysBroken(rule.path(), positions, FieldRule.LOGICAL_TYPE);
      }
      List<Types.NestedField> fields = type.asStructType().fields();
      int position = position(fields, names[i]);
      if (position < 0) {
        if (rule.required()) {
          problems.add("field " + rule.path() + " is required and the table has no such column");
          return FieldCheck.alwaysBroken(rule.path(), positions, FieldRule.REQUIRED);
        }
        return null;
      }
      positions[i] = position;
      type = fields.get(position).type();
    }
    String mismatch = mismatch(rule, type);
    if (mismatch != null) {
      problems.add(
          "field "
              + rule.path()
              + " is a "
              + type
              + " column, and the contract's "
              + mismatch
              + " is "
              + (mismatch.equals(FieldRule.LOGICAL_TYPE)
                  ? rule.logicalType()
                  : rule.physicalType()));
      return FieldCheck.alwaysBroken(rule.path(), positions, mismatch);
    }
    List<ValueCheck> values = new ArrayList<>();
    if (rule.checksValue()) {
      valueChecks(rule, type.asPrimitiveType(), values);
    }
    return new FieldCheck(
        rule.path(), positions, rule.required(), values.toArray(new ValueCheck[0]));
  }

  private static int position(List<Types.NestedField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    int found = -1;
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equalsIgnoreCase(name)) {
        if (found >= 0) {
          return -1;
        }
        found = i;
      }
    }
    return found;
  }

  /** The rule the column's type breaks ({@code logicalType}, {@code physicalType}), or null. */
  private static String mismatch(FieldRule rule, Type type) {
    if (rule.logicalType() != null && !fits(rule.logicalType(), type.typeId())) {
      return FieldRule.LOGICAL_TYPE;
    }
    if (rule.physicalType() != null && type.isPrimitiveType()) {
      Type physical;
      try {
        physical = Types.fromPrimitiveString(rule.physicalType().trim().toLowerCase());
      } catch (IllegalArgumentException e) {
        return null; // not an Iceberg type's name: free text, as ODCS allows
      }
      if (!physical.equals(type)) {
        return FieldRule.PHYSICAL_TYPE;
      }
    }
    if (rule.checksValue() && !type.isPrimitiveType()) {
      return FieldRule.LOGICAL_TYPE;
    }
    return null;
  }

  private static boolean fits(String logicalType, Type.TypeID id) {
    return switch (logicalType) {
      case "string" -> id == Type.TypeID.STRING || id == Type.TypeID.UUID;
      case "integer" -> id == Type.TypeID.INTEGER || id == Type.TypeID.LONG;
      case "number" ->
          id == Type.TypeID.INTEGER
              || id == Type.TypeID.LONG
              || id == Type.TypeID.FLOAT
              || id == Type.TypeID.DOUBLE
              || id == Type.TypeID.DECIMAL;
      case "boolean" -> id == Type.TypeID.BOOLEAN;
      case "date" ->
          id == Type.TypeID.DATE || id == Type.TypeID.TIMESTAMP || id == Type.TypeID.TIMESTAMP_NANO;
      case "timestamp" -> id == Type.TypeID.TIMESTAMP || id == Type.TypeID.TIMESTAMP_NANO;
      case "time" -> id == Type.TypeID.TIME;
      case "object" -> id == Type.TypeID.STRUCT;
      case "array" -> id == Type.TypeID.LIST;
      case "map" -> id == Type.TypeID.MAP;
      default -> false;
    };
  }

  private static void valueChecks(FieldRule rule, Type.PrimitiveType type, List<ValueCheck> out) {
    if (rule.minimum() != null || rule.maximum() != null) {
      out.add(range(rule, type));
    }
    if (rule.minLength() != null || rule.maxLength() != null) {
      out.add(
          new Length(
              rule.minLength() == null ? 0 : rule.minLength(),
              rule.maxLength() == null ? Integer.MAX_VALUE : rule.maxLength()));
    }
    if (rule.pattern() != null) {
      ValueCheck run = CharRun.of(rule.pattern());
      out.add(run != null ? run : new Matches(rule.pattern()));
    }
    if (!rule.allowed().isEmpty()) {
      out.add(new OneOf(allowed(rule.allowed(), type)));
    }
  }

  private static ValueCheck range(FieldRule rule, Type.PrimitiveType type) {
    Object min = rule.minimum();
    Object max = rule.maximum();
    String minRule = rule.minimumRule();
    String maxRule = rule.maximumRule();
    switch (type.typeId()) {
      case INTEGER, LONG -> {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        if (min != null) {
          BigDecimal m = (BigDecimal) min;
          BigDecimal least =
              rule.minimumExclusive()
                  ? m.setScale(0, java.math.RoundingMode.FLOOR).add(BigDecimal.ONE)
                  : m.setScale(0, java.math.RoundingMode.CEILING);
          lo = clamp(least);
        }
        if (max != null) {
          BigDecimal m = (BigDecimal) max;
          BigDecimal most =
              rule.maximumExclusive()
                  ? m.setScale(0, java.math.RoundingMode.CEILING).subtract(BigDecimal.ONE)
                  : m.setScale(0, java.math.RoundingMode.FLOOR);
          hi = clamp(most);
        }
        return new LongRange(lo, hi, minRule, maxRule);
      }
      case FLOAT, DOUBLE -> {
        return new DoubleRange(
            min == null ? Double.NEGATIVE_INFINITY : ((BigDecimal) min).doubleValue(),
            rule.minimumExclusive(),
            max == null ? Double.POSITIVE_INFINITY : ((BigDecimal) max).doubleValue(),
            rule.maximumExclusive(),
            minRule,
            maxRule);
      }
      case DECIMAL -> {
        return comparableRange(rule, v -> (BigDecimal) v, bound -> (BigDecimal) bound);
      }
      case DATE -> {
        return comparableRange(rule, v -> (LocalDate) v, bound -> LocalDate.parse((String) bound));
      }
      case TIME -> {
        return comparableRange(rule, v -> (LocalTime) v, bound -> LocalTime.parse((String) bound));
      }
      case TIMESTAMP, TIMESTAMP_NANO -> {
        return new TimestampRange(
            min == null ? Long.MIN_VALUE : micros(Temporal.timestamp(dateTime(min))),
            rule.minimumExclusive(),
            max == null ? Long.MAX_VALUE : micros(Temporal.timestamp(dateTime(max))),
            rule.maximumExclusive(),
            minRule,
            maxRule);
      }
      default ->
          throw new IllegalStateException(
              "no range on a " + type + " column, field " + rule.path());
    }
  }

  /** A range of values compared as they are, its bounds read by {@code bound}. */
  private static <T extends Comparable<T>> ValueCheck comparableRange(
      FieldRule rule, Function<Object, T> read, Function<Object, T> bound) {
    return new ComparableRange<>(
        read,
        rule.minimum() == null ? null : bound.apply(rule.minimum()),
        rule.minimumExclusive(),
        rule.maximum() == null ? null : bound.apply(rule.maximum()),
        rule.maximumExclusive(),
        rule.minimumRule(),
        rule.maximumRule());
  }

  /** A date bound on a timestamp column (ODCS v3.0 calls timestamps dates) is its midnight. */
  private static String dateTime(Object bound) {
    String text = (String) bound;
    return text.length() == 10 ? text + "T00:00:00" : text;
  }

  /** Microseconds from the epoch, saturated: what a timestamp bound is compared in. */
  private static long micros(Instant instant) {
    try {
      return Math.addExact(
          Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    } catch (ArithmeticException e) {
      return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static long clamp(BigDecimal value) {
    if (value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
      return Long.MIN_VALUE;
    }
    if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return Long.MAX_VALUE;
    }
    return value.longValueExact();
  }

  /** The allowed values as the column holds them: a value of no such form can never be one. */
  private static Set<Object> allowed(List<Object> values, Type.PrimitiveType type) {
    Set<Object> set = new HashSet<>();
    for (Object value : values) {
      switch (type.typeId()) {
        case STRING, UUID -> set.add(String.valueOf(value));
        case INTEGER -> {
          BigDecimal n = (BigDecimal) value;
          if (ContractParser.isWhole(n)
              && n.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
              && n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            set.add(n.intValue());
          }
        }
        case LONG -> {
          BigDecimal n = (BigDecimal) value;
          if (ContractParser.isWhole(n)
              && n.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
              && n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            set.add(n.longValue());
          }
        }
        case FLOAT -> set.add(((BigDecimal) value).floatValue());
        case DOUBLE -> set.add(((BigDecimal) value).doubleValue());
        case DECIMAL -> set.add(((BigDecimal) value).stripTrailingZeros());
        default -> set.add(value);
      }
    }
    return set;
  }

  /** One field's checks: reached by positions, then required, then its value's checks. */
  private static final class FieldCheck {
    private final String path;
    private final int[] positions;
    private final boolean required;
    private final ValueCheck[] values;
    private final String alwaysBroken;

    FieldCheck(String path, int[] positions, boolean required, ValueCheck[] values) {
      this(path, positions, required, values, null);
    }

    private FieldCheck(
        String path, int[] positions, boolean required, ValueCheck[] values, String alwaysBroken) {
      this.path = path;
      this.positions = positions;
      this.required = required;
      this.values = values;
      this.alwaysBroken = alwaysBroken;
    }

    static FieldCheck alwaysBroken(String path, int[] positions, String rule) {
      return new FieldCheck(path, positions, false, new ValueCheck[0], rule);
    }

    Object read(StructLike row) {
      if (alwaysBroken != null) {
        return null;
      }
      Object value = row;
      for (int position : positions) {
        if (value == null) {
          return null;
        }
        value = ((StructLike) value).get(position, Object.class);
      }
      return value;
    }

    String broken(Object value) {
      if (alwaysBroken != null) {
        return alwaysBroken;
      }
      if (value == null) {
        return required ? FieldRule.REQUIRED : null;
      }
      for (ValueCheck check : values) {
        String broken = check.broken(value);
        if (broken != null) {
          return broken;
        }
      }
      return null;
    }
  }

  /** A check of a field's value that is not null. */
  private interface ValueCheck {
    /** The rule the value breaks, or null. */
    String broken(Object value);
  }

  private record LongRange(long lo, long hi, String minRule, String maxRule) implements ValueCheck {
    @Override
    public String broken(Object value) {
      long v = ((Number) value).longValue();
      return v < lo ? minRule : v > hi ? maxRule : null;
    }
  }

  /** NaN is within no range. */
  private record DoubleRange(
      double lo,
      boolean loExclusive,
      double hi,
      boolean hiExclusive,
      String minRule,
      String maxRule)
      implements ValueCheck {
    @Override
    public String broken(Object value) {
      double v = ((Number) value).doubleValue();
      if (loExclusive ? !(v > lo) : !(v >= lo)) {
        return minRule;
      }
      if (hiExclusive ? !(v < hi) : !(v <= hi)) {
        return maxRule;
      }
      return null;
    }
  }

  private record ComparableRange<T extends Comparable<T>>(
      Function<Object, T> read,
      T lo,
      boolean loExclusive,
      T hi,
      boolean hiExclusive,
      String minRule,
      String maxRule)
      implements ValueCheck {
    @Override
    public String broken(Object value) {
      T v = read.apply(value);
      if (lo != null) {
        int c = v.compareTo(lo);
        if (c < 0 || (c == 0 && loExclusive)) {
          return minRule;
        }
      }
      if (hi != null) {
        int c = v.compareTo(hi);
        if (c > 0 || (c == 0 && hiExclusive)) {
          return maxRule;
        }
      }
      return null;
    }
  }

  /**
   * Timestamps in microseconds from the epoch, a timestamp without zone read as UTC; computed from
   * the value's fields, so a check allocates nothing.
   */
  private record TimestampRange(
      long lo, boolean loExclusive, long hi, boolean hiExclusive, String minRule, String maxRule)
      implements ValueCheck {
    @Override
    public String broken(Object value) {
      long seconds;
      int nanos;
      if (value instanceof OffsetDateTime offset) {
        seconds = offset.toEpochSecond();
        nanos = offset.getNano();
      } else {
        LocalDateTime local = (LocalDateTime) value;
        seconds = local.toEpochSecond(ZoneOffset.UTC);
        nanos = local.getNano();
      }
      long v = seconds * 1_000_000L + nanos / 1_000;
      if (loExclusive ? v <= lo : v < lo) {
        return minRule;
      }
      if (hiExclusive ? v >= hi : v > hi) {
        return maxRule;
      }
      return null;
    }
  }

  /**
   * Lengths in characters (code points): a text of no more UTF-16 units than the bound has no more
   * characters either, so most texts are not counted.
   */
  private record Length(int min, int max) implements ValueCheck {
    @Override
    public String broken(Object value) {
      CharSequence text = value instanceof CharSequence s ? s : value.toString();
      int units = text.length();
      if (units > max && Character.codePointCount(text, 0, units) > max) {
        return FieldRule.MAX_LENGTH;
      }
      if (units < min || (min > units / 2 && Character.codePointCount(text, 0, units) < min)) {
        return FieldRule.MIN_LENGTH;
      }
      return null;
    }
  }

  /**
   * A pattern that is one run of an ASCII character class between anchors ({@code ^[0-9a-f-]{36}$},
   * {@code ^[A-Z]{2,3}$}, {@code ^[a-z_]+$}), checked by a table of the class's characters and the
   * run's length instead of the regular-expression engine; a text ending in a line terminator,
   * which {@code $} may match before, goes to the engine.
   */
  static final class CharRun implements ValueCheck {
    private final boolean[] members;
    private final int min;
    private final int max;
    private final Matches engine;

    private CharRun(boolean[] members, int min, int max, Pattern pattern) {
      this.members = members;
      this.min = min;
      this.max = max;
      this.engine = new Matches(pattern);
    }

    /** The check of {@code pattern} without the engine, or null if it is not such a run. */
    static CharRun of(Pattern pattern) {
      String p = pattern.pattern();
      if (pattern.flags() != 0 || !p.startsWith("^[") || !p.endsWith("$")) {
        return null;
      }
      int close = p.indexOf(']', 2);
      if (close < 3) {
        return null;
      }
      boolean[] members = members(p.substring(2, close));
      if (members == null) {
        return null;
      }
      String quantifier = p.substring(close + 1, p.length() - 1);
      int min;
      int max;
      if (quantifier.equals("+")) {
        min = 1;
        max = Integer.MAX_VALUE;
      } else if (quantifier.equals("*")) {
        min = 0;
        max = Integer.MAX_VALUE;
      } else if (quantifier.matches("\\{[0-9]{1,6}(,[0-9]{0,6})?}")) {
        String[] bounds = quantifier.substring(1, quantifier.length() - 1).split(",", -1);
        min = Integer.parseInt(bounds[0]);
        max =
            bounds.length == 1
                ? min
                : bounds[1].isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(bounds[1]);
        if (max < min) {
          return null;
        }
      } else {
        return null;
      }
      return new CharRun(members, min, max, pattern);
    }

    /** The ASCII characters of a class of letters, digits, ranges of them and {@code _.:/ -}. */
    private static boolean[] members(String set) {
      boolean[] members = new boolean[128];
      int i = 0;
      while (i < set.length()) {
        char c = set.charAt(i);
        boolean range = i + 2 < set.length() && set.charAt(i + 1) == '-';
        if (range) {
          char to = set.charAt(i + 2);
          if (!Character.isLetterOrDigit(c)
              || !Character.isLetterOrDigit(to)
              || c > 127
              || to > 127
              || to < c
              || Character.isDigit(c) != Character.isDigit(to)
              || Character.isUpperCase(c) != Character.isUpperCase(to)) {
            return null;
          }
          for (char m = c; m <= to; m++) {
            members[m] = true;
          }
          i += 3;
        } else if (c < 128 && (Character.isLetterOrDigit(c) || "_.:/ -".indexOf(c) >= 0)) {
          if (c == '-' && i != 0 && i != set.length() - 1) {
            return null;
          }
          members[c] = true;
          i++;
        } else {
          return null;
        }
      }
      return members;
    }

    @Override
    public String broken(Object value) {
      CharSequence text = value instanceof CharSequence s ? s : value.toString();
      int length = text.length();
      if (length > 0 && isLineTerminator(text.charAt(length - 1))) {
        return engine.broken(text);
      }
      if (length < min || length > max) {
        return FieldRule.PATTERN;
      }
      for (int i = 0; i < length; i++) {
        char c = text.charAt(i);
        if (c >= 128 || !members[c]) {
          return FieldRule.PATTERN;
        }
      }
      return null;
    }

    private static boolean isLineTerminator(char c) {
      return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }
  }

  /**
   * A text holding a match of the pattern anywhere, as JSON Schema's {@code pattern}; one matcher,
   * reset for each text.
   */
  private static final class Matches implements ValueCheck {
    private final Matcher matcher;

    Matches(Pattern pattern) {
      this.matcher = pattern.matcher("");
    }

    @Override
    public String broken(Object value) {
      CharSequence text = value instanceof CharSequence s ? s : value.toString();
      return matcher.reset(text).find() ? null : FieldRule.PATTERN;
    }
  }

  private record OneOf(Set<Object> values) implements ValueCheck {
    @Override
    public String broken(Object value) {
      Object key =
          value instanceof BigDecimal d
              ? d.stripTrailingZeros()
              : value instanceof CharSequence s && !(value instanceof String)
                  ? s.toString()
                  : value;
      if (value instanceof java.util.UUID) {
        key = value.toString();
      }
      return values.contains(key) ? null : FieldRule.ENUM;
    }
  }
}
