/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a contract's YAML or JSON into its rules, refusing what Floe would not enforce as written:
 * an unknown key where a rule goes, a rule the field's type cannot have, a bound or allowed value
 * that is not of the field's type. Each refusal says what to fix.
 */
final class ContractParser {
  /** The logical types of ODCS v3 Floe reads. */
  static final List<String> LOGICAL_TYPES =
      List.of(
          "string",
          "integer",
          "number",
          "boolean",
          "date",
          "timestamp",
          "time",
          "object",
          "array",
          "map");

  /** Keys of a property that describe it and set no rule: read past. */
  private static final Set<String> DESCRIPTIVE =
      Set.of(
          "id",
          "businessName",
          "description",
          "tags",
          "classification",
          "examples",
          "primaryKey",
          "primaryKeyPosition",
          "partitioned",
          "partitionKeyPosition",
          "criticalDataElement",
          "authoritativeDefinitions",
          "customProperties",
          "physicalName",
          "transformSourceObjects",
          "transformLogic",
          "transformDescription",
          "encryptedName",
          "relationships",
          "items",
          "map");

  /** Keys of a property Floe reads as rules or structure. */
  private static final Set<String> RULE_KEYS =
      Set.of(
          "name",
          "logicalType",
          "physicalType",
          "required",
          "logicalTypeOptions",
          "enum",
          "properties",
          "unique",
          "quality");

  private static final Set<String> TEXT_OPTIONS =
      Set.of(FieldRule.MIN_LENGTH, FieldRule.MAX_LENGTH, FieldRule.PATTERN, "format");
  private static final Set<String> RANGE_OPTIONS =
      Set.of(
          FieldRule.MINIMUM,
          FieldRule.MAXIMUM,
          FieldRule.EXCLUSIVE_MINIMUM,
          FieldRule.EXCLUSIVE_MAXIMUM,
          "format");

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
  private static final ObjectMapper YAML =
      YAMLMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

  private ContractParser() {}

  static Contract parse(String text, String sha256) {
    JsonNode root = tree(text);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(
          "the contract is not a YAML or JSON object: write it as an Open Data Contract Standard"
              + " v3 document (id, version, schema)");
    }
    String apiVersion = text(root, "apiVersion", "the contract");
    if (apiVersion != null && !apiVersion.startsWith("v3")) {
      throw new IllegalArgumentException(
          "apiVersion "
              + apiVersion
              + " is not one Floe reads: Floe reads contracts of the Open Data Contract Standard"
              + " v3 (apiVersion v3.0.0 and later v3 releases)");
    }
    String kind = text(root, "kind", "the contract");
    if (kind != null && !kind.equals("DataContract")) {
      throw new IllegalArgumentException(
          "kind is '" + kind + "': a data contract's is DataContract");
    }
    String id = required(root, "id");
    String version = required(root, "version");
    JsonNode schema = root.get("schema");
    if (schema == null || !schema.isArray() || schema.isEmpty()) {
      throw new IllegalArgumentException(
          "the contract has no schema: list the table's object under schema, with its fields under"
              + " properties");
    }
    if (schema.size() != 1) {
      throw new IllegalArgumentException(
          "the contract's schema lists "
              + schema.size()
              + " objects: a table's contract describes one object, the table (give each table a"
              + " contract of its own)");
    }
    JsonNode table = schema.get(0);
    if (!table.isObject()) {
      throw new IllegalArgumentException("schema[0] is not an object: describe the table there");
    }
    String tableType = text(table, "logicalType", "schema[0]");
    if (tableType != null && !tableType.equals("object")) {
      throw new IllegalArgumentException(
          "schema[0] has logicalType " + tableType + ": the table's object has logicalType object");
    }
    ObjectiveBounds volume = volume(table.get("quality"));
    OptionalLong latencyMs = latency(root.get("slaProperties"));
    Map<String, FieldRule> fields = new LinkedHashMap<>();
    JsonNode properties = table.get("properties");
    if (properties == null || !properties.isArray() || properties.isEmpty()) {
      throw new IllegalArgumentException(
          "schema[0] has no properties: list the fields the contract sets rules on");
    }
    readProperties(properties, "", fields);
    checkNesting(fields);
    return new Contract(
        id,
        version,
        sha256,
        new ArrayList<>(fields.values()),
        new Objectives(volume.min(), volume.max(), latencyMs));
  }

  private record ObjectiveBounds(OptionalLong min, OptionalLong max) {}

  /** Keys of a quality rule that describe it: read past. */
  private static final Set<String> QUALITY_DESCRIPTIVE =
      Set.of(
          "id",
          "name",
          "description",
          "dimension",
          "severity",
          "businessImpact",
          "tags",
          "authoritativeDefinitions",
          "customProperties",
          "method",
          "scheduler",
          "schedule");

  /**
   * The table's volume objective: its {@code quality} list may hold one {@code rowCount} rule (ODCS
   * v3.1 {@code metric: rowCount}, or v3.0 {@code rule: rowCount}), which Floe checks on the rows
   * each commit appends.
   */
  private static ObjectiveBounds volume(JsonNode quality) {
    ObjectiveBounds none = new ObjectiveBounds(OptionalLong.empty(), OptionalLong.empty());
    if (quality == null || quality.isNull()) {
      return none;
    }
    if (!quality.isArray()) {
      throw new IllegalArgumentException(
          "schema[0] has a quality that is not a list: list its rules, e.g. - {metric: rowCount,"
              + " mustBeBetween: [100, 10000]}");
    }
    ObjectiveBounds found = null;
    for (JsonNode rule : quality) {
      if (!rule.isObject()) {
        throw new IllegalArgumentException("a quality rule of schema[0] is not an object");
      }
      String metric = text(rule, "metric", "a quality rule of schema[0]");
      if (metric == null) {
        metric = text(rule, "rule", "a quality rule of schema[0]");
      }
      String type = text(rule, "type", "a quality rule of schema[0]");
      if (!"rowCount".equals(metric) || (type != null && !type.equals("library"))) {
        throw new IllegalArgumentException(
            "schema[0] has a quality rule "
                + (metric == null ? "of type " + type : metric)
                + ", which Floe does not enforce yet: remove it from the contract Floe checks"
                + " (the one quality rule checked is metric: rowCount, on the rows each commit"
                + " appends)");
      }
      if (found != null) {
        throw new IllegalArgumentException(
            "schema[0] has more than one rowCount rule: give one, with mustBeBetween or a lower"
                + " and an upper bound");
      }
      found = rowCount(rule);
    }
    return found == null ? none : found;
  }

  private static ObjectiveBounds rowCount(JsonNode rule) {
    Long min = null;
    Long max = null;
    for (Map.Entry<String, JsonNode> entry : rule.properties()) {
      String key = entry.getKey();
      JsonNode value = entry.getValue();
      switch (key) {
        case "metric", "rule", "type" -> {}
        case "unit" -> {
          if (!"rows".equals(value.asText())) {
            throw new IllegalArgumentException(
                "the rowCount rule of schema[0] has unit "
                    + value.asText()
                    + ": a row count is in rows (leave the unit out, or write rows)");
          }
        }
        case "mustBeBetween" -> {
          if (!value.isArray() || value.size() != 2) {
            throw new IllegalArgumentException(
                "the rowCount rule of schema[0] has a mustBeBetween that is not two numbers: write"
                    + " mustBeBetween: [lowest, highest]");
          }
          min = max(min, count(value.get(0), key, 0));
          max = min(max, count(value.get(1), key, 0));
        }
        case "mustBeGreaterThan" -> min = max(min, count(value, key, 1));
        case "mustBeGreaterOrEqualTo", "mustBeGreaterThanOrEqualTo" ->
            min = max(min, count(value, key, 0));
        case "mustBeLessThan" -> max = min(max, count(value, key, -1));
        case "mustBeLessOrEqualTo", "mustBeLessThanOrEqualTo" ->
            max = min(max, count(value, key, 0));
        default -> {
          if (!QUALITY_DESCRIPTIVE.contains(key)) {
            throw new IllegalArgumentException(
                "the rowCount rule of schema[0] has "
                    + key
                    + ", which Floe does not read: bound the rows of a commit with mustBeBetween,"
                    + " mustBeGreaterThan(OrEqualTo) or mustBeLessThan(OrEqualTo)");
          }
        }
      }
    }
    if (min == null && max == null) {
      throw new IllegalArgumentException(
          "the rowCount rule of schema[0] sets no bound: give mustBeBetween: [lowest, highest],"
              + " or mustBeGreaterThan(OrEqualTo) / mustBeLessThan(OrEqualTo)");
    }
    if (min != null && max != null && min > max) {
      throw new IllegalArgumentException(
          "the rowCount rule of schema[0] allows no row count (at least "
              + min
              + " and at most "
              + max
              + "): give a lower bound no higher than the upper one");
    }
    return new ObjectiveBounds(
        min == null || min <= 0 ? OptionalLong.empty() : OptionalLong.of(min),
        max == null ? OptionalLong.empty() : OptionalLong.of(max));
  }

  private static long count(JsonNode value, String key, long shift) {
    if (value == null || !value.isIntegralNumber() || value.asLong() < 0) {
      throw new IllegalArgumentException(
          "the rowCount rule of schema[0] has a "
              + key
              + " that is not a whole number of rows at least 0");
    }
    return value.asLong() + shift;
  }

  private static Long max(Long a, long b) {
    return a == null ? b : Math.max(a, b);
  }

  private static Long min(Long a, long b) {
    return a == null ? b : Math.min(a, b);
  }

  /** Keys of a service-level property Floe reads past. */
  private static final Set<String> SLA_DESCRIPTIVE =
      Set.of("id", "description", "driver", "scheduler", "schedule", "customProperties");

  /**
   * The freshness objective: a {@code slaProperties} entry of property {@code latency}, with a
   * {@code value} and a {@code unit}. Other service-level properties (retention, frequency,
   * availability, ...) promise what the sink does not do and are read past.
   */
  private static OptionalLong latency(JsonNode sla) {
    if (sla == null || sla.isNull()) {
      return OptionalLong.empty();
    }
    if (!sla.isArray()) {
      throw new IllegalArgumentException(
          "slaProperties is not a list: list each property, e.g. - {property: latency, value: 15,"
              + " unit: m}");
    }
    OptionalLong found = OptionalLong.empty();
    for (JsonNode entry : sla) {
      if (!entry.isObject()) {
        throw new IllegalArgumentException("an entry of slaProperties is not an object");
      }
      String property = text(entry, "property", "an entry of slaProperties");
      if (!"latency".equals(property)) {
        continue;
      }
      if (found.isPresent()) {
        throw new IllegalArgumentException(
            "slaProperties has more than one latency: give the table one freshness objective");
      }
      Iterator<String> keys = entry.fieldNames();
      while (keys.hasNext()) {
        String key = keys.next();
        if (key.equals("element")) {
          throw new IllegalArgumentException(
              "the latency of slaProperties has an element: Floe measures freshness on the"
                  + " table's event-time watermark (the records' timestamps), not on a column;"
                  + " remove the element");
        }
        if (!Set.of("property", "value", "unit").contains(key) && !SLA_DESCRIPTIVE.contains(key)) {
          throw new IllegalArgumentException(
              "the latency of slaProperties has "
                  + key
                  + ", which Floe does not read: give value and unit only");
        }
      }
      JsonNode value = entry.get("value");
      if (value == null || !value.isNumber() || value.asDouble() <= 0) {
        throw new IllegalArgumentException(
            "the latency of slaProperties has no positive value: give the oldest the newest"
                + " committed record may be, e.g. value: 15, unit: m");
      }
      long unitMs = unitMs(text(entry, "unit", "the latency of slaProperties"));
      found = OptionalLong.of(Math.max(1, Math.round(value.asDouble() * unitMs)));
    }
    return found;
  }

  private static long unitMs(String unit) {
    if (unit == null) {
      throw new IllegalArgumentException(
          "the latency of slaProperties has no unit: give one of ms, s, m, h, d");
    }
    return switch (unit) {
      case "ms", "millisecond", "milliseconds" -> 1L;
      case "s", "sec", "second", "seconds" -> 1_000L;
      case "m", "min", "minute", "minutes" -> 60_000L;
      case "h", "hr", "hour", "hours" -> 3_600_000L;
      case "d", "day", "days" -> 86_400_000L;
      default ->
          throw new IllegalArgumentException(
              "the latency of slaProperties has unit "
                  + unit
                  + ", which Floe does not read: give one of ms, s, m, h, d");
    };
  }

  private static JsonNode tree(String text) {
    boolean json = text.trim().startsWith("{");
    try {
      return (json ? JSON : YAML).readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new IllegalArgumentException(
          "the contract is not valid "
              + (json ? "JSON" : "YAML")
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
              + ": "
              + e.getOriginalMessage(),
          e);
    }
  }

  private static void readProperties(
      JsonNode properties, String parent, Map<String, FieldRule> out) {
    for (JsonNode property : properties) {
      if (!property.isObject()) {
        throw new IllegalArgumentException(
            "a property under "
                + (parent.isEmpty() ? "schema[0]" : parent)
                + " is not an object: give each field as name, logicalType and its rules");
      }
      String name = text(property, "name", "a property");
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException(
            "a property under "
                + (parent.isEmpty() ? "schema[0]" : parent)
                + " has no name: name each field (dots between the names of nested fields)");
      }
      if (name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
        throw new IllegalArgumentException(
            "'"
                + name
                + "' is not a field name: put single dots between the names of nested fields");
      }
      String path = parent.isEmpty() ? name : parent + "." + name;
      FieldRule rule = readProperty(property, path);
      if (out.put(path, rule) != null) {
        throw new IllegalArgumentException(
            "field " + path + " is described twice: give its rules in one property");
      }
      JsonNode nested = property.get("properties");
      if (nested != null) {
        if (rule.logicalType() != null && !rule.logicalType().equals("object")) {
          throw new IllegalArgumentException(
              "field "
                  + path
                  + " is a "
                  + rule.logicalType()
                  + " and cannot have fields: only a field of logicalType object has properties");
        }
        if (!nested.isArray()) {
          throw new IllegalArgumentException(
              "the properties of field " + path + " are not a list: list its fields");
        }
        readProperties(nested, path, out);
      }
    }
  }

  private static FieldRule readProperty(JsonNode property, String path) {
    for (Iterator<String> keys = property.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!RULE_KEYS.contains(key) && !DESCRIPTIVE.contains(key)) {
        throw new IllegalArgumentException(
            "field "
                + path
                + " has '"
                + key
                + "', which is no key of an ODCS v3 property Floe knows: its rules are required,"
                + " logicalType, physicalType, logicalTypeOptions and enum");
      }
    }
    if (property.has("quality")) {
      throw unsupported("field " + path, "quality");
    }
    String logicalType = text(property, "logicalType", "field " + path);
    if (logicalType != null && !LOGICAL_TYPES.contains(logicalType)) {
      throw new IllegalArgumentException(
          "field "
              + path
              + " has logicalType '"
              + logicalType
              + "': use one of "
              + String.join(", ", LOGICAL_TYPES));
    }
    boolean unique = flag(property, "unique", path);
    if (unique && logicalType != null && List.of("object", "array", "map").contains(logicalType)) {
      throw new IllegalArgumentException(
          "field "
              + path
              + " is unique and of logicalType "
              + logicalType
              + ": Floe checks the uniqueness of fields of a primitive type only");
    }
    String physicalType = text(property, "physicalType", "field " + path);
    boolean required = flag(property, "required", path);
    Options options = new Options(path, logicalType);
    JsonNode typeOptions = property.get("logicalTypeOptions");
    if (typeOptions != null) {
      options.read(typeOptions);
    }
    List<Object> allowed = List.of();
    JsonNode values = property.get("enum");
    if (values != null) {
      allowed = options.allowed(values);
    }
    return new FieldRule(
        path,
        logicalType,
        physicalType,
        required,
        options.minimum,
        options.minimumExclusive,
        options.maximum,
        options.maximumExclusive,
        options.minLength,
        options.maxLength,
        options.pattern,
        allowed,
        unique);
  }

  /** A field named with dots, or nested, sits under a field the contract lets have fields. */
  private static void checkNesting(Map<String, FieldRule> fields) {
    for (String path : fields.keySet()) {
      int dot = path.lastIndexOf('.');
      while (dot > 0) {
        String parent = path.substring(0, dot);
        FieldRule rule = fields.get(parent);
        if (rule != null && rule.logicalType() != null && !rule.logicalType().equals("object")) {
          throw new IllegalArgumentException(
              "field "
                  + path
                  + " is named under "
                  + parent
                  + ", which the contract makes a "
                  + rule.logicalType()
                  + ": only a field of logicalType object has fields (and Floe checks no field"
                  + " inside a list or map)");
        }
        dot = parent.lastIndexOf('.');
      }
    }
  }

  /** The logical type options of one field, checked against its type as they are read. */
  private static final class Options {
    private final String path;
    private final String type;
    private Object minimum;
    private boolean minimumExclusive;
    private Object maximum;
    private boolean maximumExclusive;
    private Integer minLength;
    private Integer maxLength;
    private Pattern pattern;

    Options(String path, String type) {
      this.path = path;
      this.type = type;
    }

    void read(JsonNode options) {
      if (!options.isObject()) {
        throw new IllegalArgumentException(
            "the logicalTypeOptions of field " + path + " are not a map of option to value");
      }
      Set<String> known = allowedOptions();
      for (Iterator<String> it = options.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!known.contains(name)) {
          throw new IllegalArgumentException(
              "field "
                  + path
                  + " has the option "
                  + name
                  + (type == null
                      ? ", but no logicalType: give the field its logicalType, which says how"
                          + " Floe reads the option"
                      : ", which Floe does not check on a field of logicalType "
                          + type
                          + (known.size() > 1
                              ? ": it checks "
                                  + String.join(
                                      ", ",
                                      known.stream()
                                          .filter(k -> !k.equals("format"))
                                          .sorted()
                                          .toList())
                              : ": it checks no option on such a field")));
        }
      }
      JsonNode exclusiveMin = options.get(FieldRule.EXCLUSIVE_MINIMUM);
      JsonNode exclusiveMax = options.get(FieldRule.EXCLUSIVE_MAXIMUM);
      minimum = bound(options.get(FieldRule.MINIMUM), FieldRule.MINIMUM);
      maximum = bound(options.get(FieldRule.MAXIMUM), FieldRule.MAXIMUM);
      if (exclusiveMin != null) {
        if (exclusiveMin.isBoolean()) {
          requireBound(minimum, FieldRule.EXCLUSIVE_MINIMUM, FieldRule.MINIMUM);
          minimumExclusive = exclusiveMin.booleanValue();
        } else {
          conflict(minimum, FieldRule.EXCLUSIVE_MINIMUM, FieldRule.MINIMUM);
          minimum = bound(exclusiveMin, FieldRule.EXCLUSIVE_MINIMUM);
          minimumExclusive = true;
        }
      }
      if (exclusiveMax != null) {
        if (exclusiveMax.isBoolean()) {
          requireBound(maximum, FieldRule.EXCLUSIVE_MAXIMUM, FieldRule.MAXIMUM);
          maximumExclusive = exclusiveMax.booleanValue();
        } else {
          conflict(maximum, FieldRule.EXCLUSIVE_MAXIMUM, FieldRule.MAXIMUM);
          maximum = bound(exclusiveMax, FieldRule.EXCLUSIVE_MAXIMUM);
          maximumExclusive = true;
        }
      }
      if (minimum != null && maximum != null && compare(minimum, maximum) > 0) {
        throw new IllegalArgumentException(
            "field " + path + " has a minimum above its maximum: no value could meet both");
      }
      minLength = length(options.get(FieldRule.MIN_LENGTH), FieldRule.MIN_LENGTH);
      maxLength = length(options.get(FieldRule.MAX_LENGTH), FieldRule.MAX_LENGTH);
      if (minLength != null && maxLength != null && minLength > maxLength) {
        throw new IllegalArgumentException(
            "field " + path + " has a minLength above its maxLength: no text could meet both");
      }
      JsonNode regex = options.get(FieldRule.PATTERN);
      if (regex != null) {
        if (!regex.isTextual()) {
          throw new IllegalArgumentException(
              "the pattern of field " + path + " is not a text: write the regular expression");
        }
        try {
          pattern = Pattern.compile(regex.textValue());
        } catch (PatternSyntaxException e) {
          throw new IllegalArgumentException(
              "the pattern of field "
                  + path
                  + " is not a valid regular expression: "
                  + e.getDescription(),
              e);
        }
      }
    }

    private Set<String> allowedOptions() {
      if (type == null) {
        return Set.of();
      }
      return switch (type) {
        case "string" -> TEXT_OPTIONS;
        case "integer", "number", "date", "timestamp", "time" -> RANGE_OPTIONS;
        default -> Set.of("format");
      };
    }

    private void requireBound(Object bound, String option, String boundName) {
      if (bound == null) {
        throw new IllegalArgumentException(
            "field "
                + path
                + " has "
                + option
                + ": true without a "
                + boundName
                + ": give the "
                + boundName
                + ", or the bound itself as "
                + option);
      }
    }

    private void conflict(Object bound, String option, String boundName) {
      if (bound != null) {
        throw new IllegalArgumentException(
            "field "
                + path
                + " has both "
                + boundName
                + " and "
                + option
                + " as a value: keep one of them");
      }
    }

    private Integer length(JsonNode node, String option) {
      if (node == null) {
        return null;
      }
      if (!node.isIntegralNumber()
          || node.longValue() < 0
          || node.longValue() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "the "
                + option
                + " of field "
                + path
                + " is not a whole number of characters (0 or more)");
      }
      return node.intValue();
    }

    /**
     * A bound in the form of the field's type: a number, or an ISO-8601 date, time or timestamp.
     */
    private Object bound(JsonNode node, String option) {
      if (node == null) {
        return null;
      }
      return value(node, option + " of field " + path);
    }

    List<Object> allowed(JsonNode values) {
      if (type == null) {
        throw new IllegalArgumentException(
            "field "
                + path
                + " has an enum but no logicalType: give the field its logicalType, which says how"
                + " Floe reads the values");
      }
      if (!type.equals("string") && !type.equals("integer") && !type.equals("number")) {
        throw new IllegalArgumentException(
            "field "
                + path
                + " of logicalType "
                + type
                + " has an enum: Floe checks the allowed values of a string, integer or number");
      }
      if (!values.isArray() || values.isEmpty()) {
        throw new IllegalArgumentException(
            "the enum of field " + path + " is not a list of values: list at least one");
      }
      List<Object> allowed = new ArrayList<>();
      for (JsonNode entry : values) {
        JsonNode value = entry.isObject() ? entry.get("value") : entry;
        if (value == null) {
          throw new IllegalArgumentException(
              "an enum entry of field " + path + " has no value: give each entry its value");
        }
        Object read = value(value, "enum value of field " + path);
        if (allowed.contains(read)) {
          throw new IllegalArgumentException(
              "the enum of field " + path + " lists a value twice: list each value once");
        }
        allowed.add(read);
      }
      return allowed;
    }

    private Object value(JsonNode node, String what) {
      switch (type) {
        case "string" -> {
          if (!node.isTextual()) {
            throw new IllegalArgumentException("the " + what + " is not a text, as a string's is");
          }
          return node.textValue();
        }
        case "integer" -> {
          if (!node.isNumber() || !isWhole(node.decimalValue())) {
            throw new IllegalArgumentException(
                "the " + what + " is not a whole number, as an integer's is");
          }
          return node.decimalValue().stripTrailingZeros();
        }
        case "number" -> {
          if (!node.isNumber()) {
            throw new IllegalArgumentException("the " + what + " is not a number");
          }
          return node.decimalValue().stripTrailingZeros();
        }
        case "date", "timestamp", "time" -> {
          if (!node.isTextual()) {
            throw new IllegalArgumentException(
                "the " + what + " is not an ISO-8601 " + type + " in quotes");
          }
          checkTemporal(node.textValue(), what);
          return node.textValue();
        }
        default -> throw new IllegalStateException("no values of logicalType " + type);
      }
    }

    private void checkTemporal(String text, String what) {
      try {
        switch (type) {
          case "date" -> LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
          case "time" -> LocalTime.parse(text, DateTimeFormatter.ISO_LOCAL_TIME);
          default -> Temporal.timestamp(text);
        }
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "the "
                + what
                + " is not an ISO-8601 "
                + type
                + " (e.g. "
                + switch (type) {
                  case "date" -> "2026-01-31";
                  case "time" -> "23:59:59";
                  default -> "2026-01-31T00:00:00Z";
                }
                + ")",
            e);
      }
    }

    private int compare(Object a, Object b) {
      if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
        return x.compareTo(y);
      }
      return switch (type) {
        case "date" -> LocalDate.parse((String) a).compareTo(LocalDate.parse((String) b));
        case "time" -> LocalTime.parse((String) a).compareTo(LocalTime.parse((String) b));
        default -> Temporal.timestamp((String) a).compareTo(Temporal.timestamp((String) b));
      };
    }
  }

  static boolean isWhole(BigDecimal value) {
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  private static String required(JsonNode root, String key) {
    String value = text(root, key, "the contract");
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "the contract has no "
              + key
              + ": give it one (the contract's id and version go into every snapshot of the table)");
    }
    return value;
  }

  /** A property's true/false key, false when absent. */
  private static boolean flag(JsonNode property, String key, String path) {
    JsonNode value = property.get(key);
    if (value == null) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new IllegalArgumentException(
          "field " + path + " has " + key + ": " + value + ": write true or false");
    }
    return value.booleanValue();
  }

  private static String text(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isValueNode() || value.isBinary()) {
      throw new IllegalArgumentException(where + " has a " + key + " that is not a text");
    }
    return value.asText();
  }

  private static IllegalArgumentException unsupported(String where, String key) {
    return new IllegalArgumentException(
        where
            + " has "
            + key
            + ", which Floe does not enforce yet: remove it from the contract Floe checks"
            + " (required, logicalType, logicalTypeOptions and enum are checked)");
  }
}
