/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class UnavailableValuesTest {
  private static final String PLACEHOLDER = CdcOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;
  private static final Schema DOC =
      SchemaBuilder.struct()
          .optional()
          .field("title", Schema.OPTIONAL_STRING_SCHEMA)
          .field("body", Schema.OPTIONAL_BYTES_SCHEMA)
          .build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("doc", DOC)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .field(
              "attrs",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).optional().build())
          .build();

  private final UnavailableValues values = new UnavailableValues(PLACEHOLDER);

  private static Struct row() {
    return new Struct(ROW).put("id", 1L);
  }

  @Test
  void anImageWithoutThePlaceholderHasNone() {
    Struct row = row().put("note", "fine").put("doc", new Struct(DOC).put("title", "t"));
    assertThat(values.find(row)).isNull();
    assertThat(values.find(null)).isNull();
  }

  @Test
  void aTopLevelStringIsFound() {
    assertThat(values.find(row().put("note", PLACEHOLDER))).isEqualTo("note");
  }

  @Test
  void aFieldOfANestedStructIsFound() {
    assertThat(values.find(row().put("doc", new Struct(DOC).put("title", PLACEHOLDER))))
        .isEqualTo("doc.title");
  }

  @Test
  void bytesAreFoundAsArrayOrBuffer() {
    byte[] bytes = PLACEHOLDER.getBytes(StandardCharsets.UTF_8);
    assertThat(values.find(row().put("doc", new Struct(DOC).put("body", bytes))))
        .isEqualTo("doc.body");
    assertThat(values.find(row().put("doc", new Struct(DOC).put("body", ByteBuffer.wrap(bytes)))))
        .isEqualTo("doc.body");
    assertThat(values.find(row().put("doc", new Struct(DOC).put("body", new byte[] {1})))).isNull();
  }

  @Test
  void listElementsAndMapValuesAreFound() {
    assertThat(values.find(row().put("tags", List.of("a", PLACEHOLDER)))).isEqualTo("tags[]");
    assertThat(values.find(row().put("attrs", Map.of("k", PLACEHOLDER)))).isEqualTo("attrs{value}");
  }

  @Test
  void aSchemalessImageNamesItsFields() {
    Map<String, Object> image = Map.of("id", 1, "doc", Map.of("body", PLACEHOLDER));
    assertThat(values.find(image)).isEqualTo("doc.body");
  }

  @Test
  void onlyTheWholeValueCounts() {
    assertThat(values.find(row().put("note", "x" + PLACEHOLDER))).isNull();
    assertThat(new UnavailableValues("?").find(row().put("note", PLACEHOLDER))).isNull();
  }
}
