/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Finds Debezium's unavailable-value placeholder in a row image: the value Debezium sends for a
 * column it did not read, such as an unchanged TOASTed column in PostgreSQL. Written to the table,
 * it would replace the stored value, so an image holding it cannot be applied as a whole row.
 *
 * <p>Looks at strings and bytes ({@code byte[]} or {@code ByteBuffer}, the placeholder's UTF-8
 * bytes) at every depth: struct fields, list elements and map values.
 */
final class UnavailableValues {
  private final String placeholder;
  private final byte[] bytes;

  UnavailableValues(String placeholder) {
    this.placeholder = placeholder;
    this.bytes = placeholder.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The path of the first field holding the placeholder ({@code doc.body}, {@code tags[]}, {@code
   * attrs{value}}), or null if none does.
   */
  String find(Object image) {
    return find("", image, true);
  }

  /**
   * @param schemaless whether no struct is above {@code value}: a map is then an object of a
   *     schemaless value, whose keys are field names, rather than a Connect map
   */
  private String find(String path, Object value, boolean schemaless) {
    if (value instanceof String string) {
      return string.equals(placeholder) ? path : null;
    }
    if (value instanceof byte[] array) {
      return Arrays.equals(array, bytes) ? path : null;
    }
    if (value instanceof ByteBuffer buffer) {
      return buffer.equals(ByteBuffer.wrap(bytes)) ? path : null;
    }
    String found = null;
    if (value instanceof Struct struct) {
      Iterator<Field> fields = struct.schema().fields().iterator();
      while (found == null && fields.hasNext()) {
        String name = fields.next().name();
        found = find(child(path, name), struct.getWithoutDefault(name), false);
      }
    } else if (value instanceof List<?> list) {
      Iterator<?> elements = list.iterator();
      while (found == null && elements.hasNext()) {
        found = find(path + "[]", elements.next(), schemaless);
      }
    } else if (value instanceof Map<?, ?> map) {
      Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
      while (found == null && entries.hasNext()) {
        Map.Entry<?, ?> entry = entries.next();
        String at = schemaless ? child(path, String.valueOf(entry.getKey())) : path + "{value}";
        found = find(at, entry.getValue(), schemaless);
      }
    }
    return found;
  }

  private static String child(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }
}
