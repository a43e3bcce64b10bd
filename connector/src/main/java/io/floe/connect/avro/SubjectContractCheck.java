/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import io.floe.connect.contract.Contract;
import io.floe.connect.contract.FieldRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;

/**
 * Whether a subject of the schema registry keeps a table's data contract: what its compatibility
 * level lets producers register, and whether its latest schema has the fields the contract
 * requires, non-null and of the contract's types. Records are read with the schema they were
 * written with, so a field a new schema drops reads as null, whatever default an earlier version
 * gave it.
 *
 * <ul>
 *   <li>{@code NONE} checks nothing: a new schema may drop a required field, make it nullable or
 *       change a field's type.
 *   <li>{@code BACKWARD} and {@code BACKWARD_TRANSITIVE} only check that the new schema reads the
 *       earlier data, which a schema without a field, or with a field turned nullable, does.
 *   <li>{@code FORWARD} and {@code FULL} refuse a schema without a field the latest version has and
 *       gives no default, but check the latest version only: a field given a default in one version
 *       may be dropped in the next.
 *   <li>{@code FORWARD_TRANSITIVE} and {@code FULL_TRANSITIVE} keep a required field as long as the
 *       latest schema gives it no default (judged on the latest version only).
 * </ul>
 */
public final class SubjectContractCheck {
  private static final String NULLABLE_UNION_HINT = "a union with null";

  private SubjectContractCheck() {}

  /**
   * Why a subject's compatibility level does not protect a contract; empty when it does, or when
   * the contract has no rule a new schema could break.
   */
  public static List<String> levelProblems(CompatibilityLevel level, Contract contract) {
    List<String> required = requiredFields(contract);
    boolean typed = contract.fields().stream().anyMatch(field -> field.logicalType() != null);
    if (level == CompatibilityLevel.NONE && (typed || !required.isEmpty())) {
      return List.of(
          "NONE checks nothing: a new schema may drop a required field, make it nullable or"
              + " change a field's type");
    }
    if (required.isEmpty() || (level.oldReadsNew() && level.transitive())) {
      return List.of();
    }
    if (!level.oldReadsNew()) {
      return List.of(
          level
              + " only checks that a new schema reads the earlier data: it lets a new schema drop"
              + " the required fields "
              + required
              + " or make them nullable");
    }
    return List.of(
        level
            + " checks a new schema against the latest version only: a required field of "
            + required
            + " given a default in one version may be dropped in the next");
  }

  /**
   * Why records written with {@code schema} would break {@code contract}: a required field it lacks
   * or lets be null, a field of another type than the contract's, and, under a transitive level
   * that reads new data with old schemas, a required field with a default (which that level lets a
   * new version drop); empty when none.
   *
   * @param level the subject's level, null when Floe does not know it
   * @param changeEvents whether the table reads change events: the fields of a Debezium envelope
   *     ({@code op}, {@code after}) are then looked for in its {@code after} record
   * @param ignoreCase whether field names match ignoring case
   */
  public static List<String> schemaProblems(
      Schema schema,
      Contract contract,
      CompatibilityLevel level,
      boolean changeEvents,
      boolean ignoreCase) {
    Schema row = changeEvents ? afterImage(schema) : schema;
    List<String> problems = new ArrayList<>();
    if (row.getType() != Schema.Type.RECORD) {
      List<String> required = requiredFields(contract);
      if (!required.isEmpty()) {
        problems.add(
            "it is a "
                + row.getType().getName()
                + ", not a record, so it has none of the required fields "
                + required);
      }
      return problems;
    }
    boolean dropsDefaults = level != null && level.oldReadsNew() && level.transitive();
    for (FieldRule rule : contract.fields()) {
      Lookup found = lookup(row, rule.path(), ignoreCase);
      if (found == null) {
        if (rule.required()) {
          problems.add("it has no field " + rule.path() + ", which the contract requires");
        }
        continue;
      }
      if (rule.required() && found.nullable()) {
        problems.add(
            "it lets the required field "
                + rule.path()
                + " be null ("
                + NULLABLE_UNION_HINT
                + " on its way)");
      } else if (rule.required() && found.hasDefault() && dropsDefaults) {
        problems.add(
            "it gives the required field "
                + rule.path()
                + " a default, so "
                + level
                + " lets a new version drop it");
      }
      if (rule.logicalType() != null && !accepts(found.schema(), rule.logicalType())) {
        problems.add(
            "its field "
                + rule.path()
                + " is "
                + describe(found.schema())
                + ", where the contract says "
                + rule.logicalType());
      }
    }
    return problems;
  }

  /** The contract's required fields, in its order. */
  private static List<String> requiredFields(Contract contract) {
    return contract.fields().stream().filter(FieldRule::required).map(FieldRule::path).toList();
  }

  /** A Debezium envelope's {@code after} record; any other schema as it is. */
  private static Schema afterImage(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD
        || schema.getField("op") == null
        || schema.getField("after") == null) {
      return schema;
    }
    return nonNull(schema.getField("after").schema());
  }

  /**
   * A field found by its dotted path: its schema (without the null of a nullable union), whether it
   * or a record on its way may be null, and whether it or a record on its way has a default.
   */
  private record Lookup(Schema schema, boolean nullable, boolean hasDefault) {}

  private static Lookup lookup(Schema record, String path, boolean ignoreCase) {
    Schema current = record;
    boolean nullable = false;
    boolean hasDefault = false;
    String[] names = path.split("\\.");
    for (int i = 0; i < names.length; i++) {
      if (current.getType() != Schema.Type.RECORD) {
        return null;
      }
      Schema.Field field = field(current, names[i], ignoreCase);
      if (field == null) {
        return null;
      }
      hasDefault |= field.hasDefaultValue();
      nullable |= isNullable(field.schema());
      current = nonNull(field.schema());
    }
    return new Lookup(current, nullable, hasDefault);
  }

  private static Schema.Field field(Schema record, String name, boolean ignoreCase) {
    Schema.Field exact = record.getField(name);
    if (exact != null || !ignoreCase) {
      return exact;
    }
    for (Schema.Field field : record.getFields()) {
      if (field.name().equalsIgnoreCase(name)) {
        return field;
      }
    }
    return null;
  }

  private static boolean isNullable(Schema schema) {
    return schema.getType() == Schema.Type.NULL
        || (schema.getType() == Schema.Type.UNION
            && schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL));
  }

  /** The one other branch of a union with null; any other schema as it is. */
  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    List<Schema> branches =
        schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
    return branches.size() == 1 ? branches.get(0) : schema;
  }

  /**
   * Whether a field of this Avro schema becomes a column of the contract's logical type, as Floe's
   * converter reads it. A schema carrying a Connect type name ({@code connect.name}, e.g.
   * Debezium's time types) is taken as matching: its column's type is not told by the Avro type
   * alone.
   */
  private static boolean accepts(Schema schema, String logicalType) {
    if (schema.getProp("connect.name") != null) {
      return true;
    }
    return columnTypes(schema).contains(logicalType.toLowerCase(Locale.ROOT));
  }

  /** The contract's logical types a column read from this Avro schema may have. */
  private static Set<String> columnTypes(Schema schema) {
    LogicalType logical = schema.getLogicalType();
    String name = logical == null ? "" : logical.getName();
    return switch (schema.getType()) {
      case STRING, ENUM -> Set.of("string");
      case INT ->
          switch (name) {
            case "date" -> Set.of("date");
            case "time-millis" -> Set.of("time");
            default -> Set.of("integer", "number");
          };
      case LONG ->
          switch (name) {
            case "time-micros" -> Set.of("time");
            case "timestamp-millis",
                "timestamp-micros",
                "timestamp-nanos",
                "local-timestamp-millis",
                "local-timestamp-micros",
                "local-timestamp-nanos" ->
                Set.of("timestamp", "date");
            default -> Set.of("integer", "number");
          };
      case FLOAT, DOUBLE -> Set.of("number");
      case BYTES, FIXED -> name.equals("decimal") ? Set.of("number") : Set.of();
      case BOOLEAN -> Set.of("boolean");
      case RECORD, UNION -> Set.of("object");
      case ARRAY -> Set.of("array");
      case MAP -> Set.of("map");
      case NULL -> Set.of();
    };
  }

  /** An Avro type as a message names it: {@code long}, {@code long (timestamp-millis)}. */
  private static String describe(Schema schema) {
    LogicalType logical = schema.getLogicalType();
    return schema.getType().getName() + (logical == null ? "" : " (" + logical.getName() + ")");
  }
}
