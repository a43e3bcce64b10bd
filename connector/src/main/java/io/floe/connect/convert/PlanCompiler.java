/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.List;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Compiles a (Connect schema, Iceberg type) pair into converters, walking both once. Table fields
 * are matched to Connect fields by exact name, or else by a name the column had before it was
 * renamed ({@link FormerNames}). A pair that can never convert (a STRING field into an int column,
 * say) compiles into a converter that fails for each non-null value, so records where the field is
 * null still convert and the plan stays cacheable.
 */
final class PlanCompiler {
  private final ConvertOptions options;
  private final FormerNames formerNames;

  PlanCompiler(ConvertOptions options, FormerNames formerNames) {
    this.options = options;
    this.formerNames = formerNames;
  }

  StructPlan struct(Schema source, Types.StructType target, String path, int depth) {
    checkDepth(path, target, source, depth);
    List<Types.NestedField> fields = target.fields();
    int n = fields.size();
    Field[] sources = new Field[n];
    ValueConverter[] converters = new ValueConverter[n];
    boolean[] required = new boolean[n];
    Site[] sites = new Site[n];
    for (int i = 0; i < n; i++) {
      Types.NestedField column = fields.get(i);
      String columnPath = Paths.field(path, column.name());
      Field field = FieldMatch.field(source, column.name(), options);
      if (field == null) {
        field = formerField(source, target, column);
      }
      sources[i] = field;
      required[i] = column.isRequired();
      if (field == null) {
        sites[i] = Site.of(columnPath, column.type(), "no field in the record schema");
      } else {
        sites[i] = Site.of(columnPath, column.type(), Paths.describe(field.schema()));
        converters[i] = compile(field.schema(), column.type(), columnPath, depth + 1);
      }
    }
    Site self = Site.of(path, target, Paths.describe(source));
    return new StructPlan(GenericRecord.create(target), sources, converters, required, sites, self);
  }

  /** The record's field under a former name of {@code column} that no column has now. */
  private Field formerField(Schema source, Types.StructType target, Types.NestedField column) {
    for (String name : formerNames.of(column.fieldId())) {
      Field field = source.field(name);
      if (field != null && target.field(name) == null) {
        return field;
      }
    }
    return null;
  }

  ValueConverter compile(Schema source, Type target, String path, int depth) {
    checkDepth(path, target, source, depth);
    SourceKind kind = SourceKind.of(source, path, options);
    Site site = Site.of(path, target, Paths.describe(source));
    switch (target.typeId()) {
      case STRUCT:
        if (source.type() != Schema.Type.STRUCT) {
          return site.rejecting("not a struct");
        }
        return struct(source, target.asStructType(), path, depth);
      case LIST:
        if (source.type() != Schema.Type.ARRAY) {
          return site.rejecting("not an array");
        }
        return list(source, target.asListType(), path, depth, site);
      case MAP:
        if (source.type() != Schema.Type.MAP) {
          return site.rejecting("not a map");
        }
        return map(source, target.asMapType(), path, depth, site);
      default:
        if (!target.isPrimitiveType()) {
          return site.rejecting("Floe does not write columns of this type");
        }
        return Primitives.compile(source, kind, target.asPrimitiveType(), site, options);
    }
  }

  private ValueConverter list(
      Schema source, Types.ListType target, String path, int depth, Site site) {
    String elementPath = Paths.element(path);
    Schema elementSchema = source.valueSchema();
    ValueConverter element = compile(elementSchema, target.elementType(), elementPath, depth + 1);
    Site elementSite = Site.of(elementPath, target.elementType(), Paths.describe(elementSchema));
    return Containers.list(element, target.isElementRequired(), elementSite, site);
  }

  private ValueConverter map(
      Schema source, Types.MapType target, String path, int depth, Site site) {
    String keyPath = Paths.mapKey(path);
    String valuePath = Paths.mapValue(path);
    ValueConverter key = compile(source.keySchema(), target.keyType(), keyPath, depth + 1);
    ValueConverter value = compile(source.valueSchema(), target.valueType(), valuePath, depth + 1);
    return Containers.map(
        key,
        value,
        target.isValueRequired(),
        Site.of(keyPath, target.keyType(), Paths.describe(source.keySchema())),
        Site.of(valuePath, target.valueType(), Paths.describe(source.valueSchema())),
        site);
  }

  private static void checkDepth(String path, Type target, Schema source, int depth) {
    if (depth > ConnectSchemas.MAX_DEPTH) {
      throw new ConversionException(
          path,
          Paths.describe(target) + " at most " + ConnectSchemas.MAX_DEPTH + " levels deep",
          Paths.describe(source),
          "too deep");
    }
  }
}
