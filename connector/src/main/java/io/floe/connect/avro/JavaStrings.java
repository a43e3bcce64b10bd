/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * A copy of a schema whose strings and map keys Avro's generic reader reads as {@link String}s (the
 * {@code avro.java.string} property), not as {@code Utf8}s that the Connect conversion would copy
 * again. The property is a reader's hint: it changes nothing of the binary encoding, so the copy
 * reads what the schema wrote.
 */
final class JavaStrings {
  private JavaStrings() {}

  /** The copy of {@code schema}; the schema itself if it cannot be copied. */
  static Schema of(Schema schema) {
    Schema copy;
    try {
      copy = new Schema.Parser().setValidateDefaults(false).parse(schema.toString());
    } catch (AvroRuntimeException e) {
      return schema;
    }
    mark(copy, Collections.newSetFromMap(new IdentityHashMap<>()));
    return copy;
  }

  private static void mark(Schema schema, Set<Schema> seen) {
    if (!seen.add(schema)) {
      return;
    }
    switch (schema.getType()) {
      case STRING -> readAsString(schema);
      case MAP -> {
        readAsString(schema);
        mark(schema.getValueType(), seen);
      }
      case ARRAY -> mark(schema.getElementType(), seen);
      case UNION -> schema.getTypes().forEach(branch -> mark(branch, seen));
      case RECORD -> schema.getFields().forEach(field -> mark(field.schema(), seen));
      default -> {}
    }
  }

  /** Leaves a schema that already names its string class as it is. */
  private static void readAsString(Schema schema) {
    if (schema.getProp(GenericData.STRING_PROP) == null) {
      schema.addProp(GenericData.STRING_PROP, GenericData.StringType.String.name());
    }
  }
}
