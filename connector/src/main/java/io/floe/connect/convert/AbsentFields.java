/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Lists the fields of a Connect record schema that the table lacks, at any depth: inside structs,
 * list elements and map values. Only the outermost absent field of a subtree is listed.
 */
final class AbsentFields {
  private final ConvertOptions options;
  private final List<AbsentField> found = new ArrayList<>();

  private AbsentFields(ConvertOptions options) {
    this.options = options;
  }

  static List<AbsentField> of(Schema record, Types.StructType table, ConvertOptions options) {
    AbsentFields walk = new AbsentFields(options);
    walk.struct(record, table, null, "");
    return List.copyOf(walk.found);
  }

  private void struct(Schema record, Types.StructType table, String column, String path) {
    for (Field field : record.fields()) {
      String fieldPath = Paths.field(path, field.name());
      Types.NestedField tableField = FieldMatch.column(table, field.name(), options);
      if (tableField == null) {
        Type type = ConnectSchemas.toIcebergType(field.schema(), fieldPath, options);
        found.add(new AbsentField(fieldPath, column, field.name(), type, field.schema().doc()));
      } else {
        nested(
            field.schema(), tableField.type(), Paths.column(column, tableField.name()), fieldPath);
      }
    }
  }

  private void nested(Schema record, Type table, String column, String path) {
    if (record.type() == Schema.Type.STRUCT && table.isStructType()) {
      struct(record, table.asStructType(), column, path);
    } else if (record.type() == Schema.Type.ARRAY && table.isListType()) {
      nested(
          record.valueSchema(),
          table.asListType().elementType(),
          column + ".element",
          Paths.element(path));
    } else if (record.type() == Schema.Type.MAP && table.isMapType()) {
      nested(
          record.valueSchema(),
          table.asMapType().valueType(),
          column + ".value",
          Paths.mapValue(path));
    }
  }
}
