/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.List;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Compiles the table side of a conversion for schemaless values: one converter per column, which
 * decides by the value's Java class (maps for structs and maps, lists for lists).
 */
final class SchemalessCompiler {
  private final ConvertOptions options;

  SchemalessCompiler(ConvertOptions options) {
    this.options = options;
  }

  MapStructPlan struct(Types.StructType target, String path, int depth) {
    checkDepth(path, target, depth);
    List<Types.NestedField> fields = target.fields();
    int n = fields.size();
    String[] names = new String[n];
    ValueConverter[] converters = new ValueConverter[n];
    boolean[] required = new boolean[n];
    Site[] sites = new Site[n];
    for (int i = 0; i < n; i++) {
      Types.NestedField column = fields.get(i);
      String columnPath = Paths.field(path, column.name());
      names[i] = column.name();
      required[i] = column.isRequired();
      sites[i] = Site.of(columnPath, column.type(), null);
      converters[i] = compile(column.type(), columnPath, depth + 1);
    }
    return new MapStructPlan(
        GenericRecord.create(target),
        names,
        converters,
        required,
        sites,
        Site.of(path, target, null),
        options.caseInsensitive());
  }

  private ValueConverter compile(Type target, String path, int depth) {
    checkDepth(path, target, depth);
    Site site = Site.of(path, target, null);
    switch (target.typeId()) {
      case STRUCT:
        return struct(target.asStructType(), path, depth);
      case LIST:
        Types.ListType list = target.asListType();
        String elementPath = Paths.element(path);
        return Containers.list(
            compile(list.elementType(), elementPath, depth + 1),
            list.isElementRequired(),
            Site.of(elementPath, list.elementType(), null),
            site);
      case MAP:
        Types.MapType map = target.asMapType();
        String keyPath = Paths.mapKey(path);
        String valuePath = Paths.mapValue(path);
        return Containers.map(
            compile(map.keyType(), keyPath, depth + 1),
            compile(map.valueType(), valuePath, depth + 1),
            map.isValueRequired(),
            Site.of(keyPath, map.keyType(), null),
            Site.of(valuePath, map.valueType(), null),
            site);
      default:
        if (!target.isPrimitiveType()) {
          return site.rejecting("Floe does not write columns of this type");
        }
        return Primitives.compile(null, null, target.asPrimitiveType(), site, options);
    }
  }

  private static void checkDepth(String path, Type target, int depth) {
    if (depth > ConnectSchemas.MAX_DEPTH) {
      throw new ConversionException(
          path,
          Paths.describe(target) + " at most " + ConnectSchemas.MAX_DEPTH + " levels deep",
          "a table schema",
          "too deep");
    }
  }
}
