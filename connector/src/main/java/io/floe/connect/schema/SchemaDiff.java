/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import io.floe.connect.avro.AvroParameters;
import io.floe.connect.convert.AbsentField;
import io.floe.connect.convert.ConnectSchemas;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.FieldMatch;
import io.floe.connect.convert.FormerNames;
import io.floe.connect.convert.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Compares a record schema with a table schema and lists the changes the table needs. The record
 * schema is mapped to Iceberg types with {@link ConnectSchemas}, then walked together with the
 * table schema, matching fields to columns by exact name (or, with {@link
 * ConvertOptions#caseInsensitive()}, ignoring case when no column has the exact name):
 *
 * <ul>
 *   <li>a field the table lacks, at any depth (structs, list elements, map values), is added as an
 *       optional column; a new struct is one column (its fields optional as the record declares
 *       them, or all with {@link ConvertOptions#forceOptional()});
 *   <li>a field the table lacks by name, but that a column was called before a rename ({@link
 *       FormerNames}: a record of a version older than the rename), is that column;
 *   <li>a field the table lacks by name, but whose Avro alias ({@link
 *       AvroParameters#FIELD_ALIASES}) names a column that no field of the record has by its own
 *       name, renames that column, and is then compared with it;
 *   <li>int becomes long, float double, decimal(p, s) decimal(p', s) with p' &gt; p, and a required
 *       column (or list element, or map value) whose record side is optional becomes optional;
 *   <li>a required column the record lacks becomes optional, so that the record's row holds null
 *       there (the column is never dropped); an optional one needs nothing;
 *   <li>what the column already holds needs nothing: an int field into a long column, a required
 *       field into an optional column, a time of day into a {@code time} column or a {@code long}
 *       one (microseconds since midnight), whichever type the column was created with;
 *   <li>an identifier field (Iceberg's identifier fields) stays required: a record that would make
 *       it optional is incompatible;
 *   <li>anything else is an {@link IncompatibleSchemaException}.
 * </ul>
 *
 * <p>Changes come in record field order, a column's own changes before those inside it.
 */
public final class SchemaDiff {
  private final String tableName;
  private final ConvertOptions options;
  private final Set<Integer> identifierFields;
  private final FormerNames formerNames;
  private final List<SchemaChange> changes = new ArrayList<>();

  private SchemaDiff(
      String tableName,
      ConvertOptions options,
      Set<Integer> identifierFields,
      FormerNames formerNames) {
    this.tableName = tableName;
    this.options = options;
    this.identifierFields = identifierFields;
    this.formerNames = formerNames;
  }

  /**
   * What the table needs to take records of {@code record}; empty if nothing.
   *
   * @param tableName the table's name, for messages
   * @param record a Connect STRUCT schema
   * @param table the table's current schema
   * @param options how Connect types map to Iceberg types
   * @throws IncompatibleSchemaException if a field's type cannot be reached by a safe change
   * @throws io.floe.connect.convert.ConversionException if the record schema has no Iceberg form
   */
  public static List<SchemaChange> between(
      String tableName, Schema record, org.apache.iceberg.Schema table, ConvertOptions options) {
    return between(tableName, record, table, FormerNames.NONE, options);
  }

  /**
   * What the table needs to take records of {@code record}, where a field may also name a column by
   * a name it had before a rename; empty if nothing.
   *
   * @param formerNames the former names of the columns of {@code table}
   * @throws IncompatibleSchemaException as {@link #between(String, Schema,
   *     org.apache.iceberg.Schema, ConvertOptions)}
   */
  public static List<SchemaChange> between(
      String tableName,
      Schema record,
      org.apache.iceberg.Schema table,
      FormerNames formerNames,
      ConvertOptions options) {
    // the record's own optional-ness: forcing new columns optional changes no existing column
    Types.StructType recordType =
        ConnectSchemas.toIcebergSchema(record, options.withForceOptional(false)).asStruct();
    SchemaDiff diff = new SchemaDiff(tableName, options, table.identifierFieldIds(), formerNames);
    diff.struct(record, recordType, table.asStruct(), null);
    return List.copyOf(diff.changes);
  }

  /** The additions for schemaless values: each absent field becomes an optional column. */
  public static List<SchemaChange> additions(List<AbsentField> absent) {
    List<SchemaChange> added = new ArrayList<>(absent.size());
    for (AbsentField field : absent) {
      added.add(new AddColumn(field.parent(), field.name(), field.type(), field.doc()));
    }
    return List.copyOf(added);
  }

  private void struct(
      Schema record, Types.StructType recordType, Types.StructType table, String parent) {
    Set<String> taken = new HashSet<>();
    for (Field field : record.fields()) {
      Types.NestedField column = FieldMatch.column(table, field.name(), options);
      if (column != null) {
        taken.add(column.name());
      }
    }
    for (Field field : record.fields()) {
      Types.NestedField column = FieldMatch.column(table, field.name(), options);
      if (column == null) {
        column = formerNames.columnFormerlyNamed(table, field.name());
        if (column != null && !taken.add(column.name())) {
          column = null;
        }
      }
      if (column == null) {
        column = renamed(field, table, taken);
        if (column != null) {
          changes.add(new RenameColumn(Paths.column(parent, column.name()), field.name()));
        }
      }
      if (column == null) {
        Type type = ConnectSchemas.toIcebergType(field.schema(), options);
        changes.add(new AddColumn(parent, field.name(), type, field.schema().doc()));
      } else {
        String name = Paths.column(parent, column.name());
        Types.NestedField recordField = recordType.field(field.name());
        optionality(name, column, recordField.type(), recordField.isOptional());
        type(field.schema(), recordField.type(), column.type(), name);
      }
    }
    for (Types.NestedField column : table.fields()) {
      if (!taken.contains(column.name())) {
        optionality(Paths.column(parent, column.name()), column, null, true);
      }
    }
  }

  /** The column that {@code field} renames: the first alias naming a column no field has. */
  private static Types.NestedField renamed(Field field, Types.StructType table, Set<String> taken) {
    Map<String, String> parameters = field.schema().parameters();
    String aliases = parameters == null ? null : parameters.get(AvroParameters.FIELD_ALIASES);
    if (aliases == null) {
      return null;
    }
    for (String alias : aliases.split(",")) {
      String name = alias.trim();
      Types.NestedField column = table.field(name);
      if (column != null && taken.add(name)) {
        return column;
      }
    }
    return null;
  }

  /**
   * Makes a required column optional when the record's side is optional, or absent ({@code
   * recordType} null).
   */
  private void optionality(
      String name, Types.NestedField column, Type recordType, boolean recordOptional) {
    if (!column.isRequired() || !recordOptional) {
      return;
    }
    if (identifierFields.contains(column.fieldId())) {
      throw new IncompatibleSchemaException(
          tableName,
          name,
          column.type(),
          recordType,
          recordType == null
              ? "the record has no such field, and an identifier field must stay required"
              : "the record's field is optional, and an identifier field must stay required");
    }
    changes.add(new MakeOptional(name));
  }

  private void optionality(String column, boolean tableRequired, boolean recordOptional) {
    if (tableRequired && recordOptional) {
      changes.add(new MakeOptional(column));
    }
  }

  private void type(Schema record, Type recordType, Type table, String column) {
    if (recordType.isStructType() && table.isStructType()) {
      struct(record, recordType.asStructType(), table.asStructType(), column);
    } else if (recordType.isListType() && table.isListType()) {
      Types.ListType recordList = recordType.asListType();
      Types.ListType tableList = table.asListType();
      String element = column + ".element";
      optionality(element, tableList.isElementRequired(), recordList.isElementOptional());
      type(record.valueSchema(), recordList.elementType(), tableList.elementType(), element);
    } else if (recordType.isMapType() && table.isMapType()) {
      Types.MapType recordMap = recordType.asMapType();
      Types.MapType tableMap = table.asMapType();
      key(record.keySchema(), recordMap.keyType(), tableMap.keyType(), column + ".key");
      String value = column + ".value";
      optionality(value, tableMap.isValueRequired(), recordMap.isValueOptional());
      type(record.valueSchema(), recordMap.valueType(), tableMap.valueType(), value);
    } else if (ConnectSchemas.isTimeOfDay(record, options)) {
      timeOfDay(recordType, table, column);
    } else if (recordType.isPrimitiveType() && table.isPrimitiveType()) {
      primitive(recordType.asPrimitiveType(), table.asPrimitiveType(), column);
    } else {
      throw incompatible(column, table, recordType, null);
    }
  }

  /** Map keys take no changes (Iceberg refuses them): the key column must hold the record's. */
  private void key(Schema record, Type recordType, Type table, String column) {
    SchemaDiff keys = new SchemaDiff(tableName, options, identifierFields, formerNames);
    keys.type(record, recordType, table, column);
    if (!keys.changes.isEmpty()) {
      throw incompatible(column, table, recordType, "map keys cannot change");
    }
  }

  /**
   * A time of day goes into a {@code time} column, or into a {@code long} column as microseconds
   * since midnight, whichever the column was created as: the configured time type only shapes new
   * columns.
   */
  private void timeOfDay(Type recordType, Type table, String column) {
    Type.TypeID id = table.typeId();
    if (id != Type.TypeID.TIME && id != Type.TypeID.LONG) {
      throw incompatible(
          column, table, recordType, "a time of day goes into a time or long column");
    }
  }

  private void primitive(Type.PrimitiveType recordType, Type.PrimitiveType table, String column) {
    if (Widening.holds(table, recordType) || roundsInto(recordType, table)) {
      return;
    }
    if (!Widening.isSafe(table, recordType)) {
      throw incompatible(column, table, recordType, null);
    }
    changes.add(new WidenColumn(column, table, recordType));
  }

  /**
   * Whether decimal rounding is on and the values are decimals of another scale than the column's:
   * the column then stays as it is and each value is rounded to its scale (a value that then needs
   * more digits than the column's precision is a bad record of its own).
   */
  private boolean roundsInto(Type.PrimitiveType recordType, Type.PrimitiveType table) {
    return options.roundsDecimals()
        && recordType.typeId() == Type.TypeID.DECIMAL
        && table.typeId() == Type.TypeID.DECIMAL
        && ((Types.DecimalType) recordType).scale() != ((Types.DecimalType) table).scale();
  }

  private IncompatibleSchemaException incompatible(
      String column, Type table, Type recordType, String reason) {
    return new IncompatibleSchemaException(tableName, column, table, recordType, reason);
  }
}
