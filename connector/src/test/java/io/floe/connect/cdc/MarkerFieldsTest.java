/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class MarkerFieldsTest {
  private static final Schema CDC =
      SchemaBuilder.struct()
          .name("cdc")
          .field("op", Schema.STRING_SCHEMA)
          .field("ts", Schema.INT64_SCHEMA)
          .build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("db.t.Value")
          .version(3)
          .doc("a row")
          .field("id", Schema.INT32_SCHEMA)
          .field("__op", Schema.OPTIONAL_STRING_SCHEMA)
          .field("__deleted", Schema.OPTIONAL_STRING_SCHEMA)
          .field("__source_ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .field("_cdc", CDC)
          .build();

  private final MarkerFields markers =
      new MarkerFields(List.of(FieldPath.of("__op"), FieldPath.of("__deleted")));

  private static Struct row() {
    return new Struct(ROW)
        .put("id", 1)
        .put("__op", "u")
        .put("__deleted", "false")
        .put("__source_ts_ms", 5L)
        .put("_cdc", new Struct(CDC).put("op", "U").put("ts", 6L));
  }

  private static List<String> names(Schema schema) {
    return schema.fields().stream().map(Field::name).toList();
  }

  @Test
  void theMarkersGoAndEveryOtherFieldStays() {
    Struct trimmed = (Struct) markers.trim(row());
    assertThat(names(trimmed.schema())).containsExactly("id", "__source_ts_ms", "_cdc");
    assertThat(trimmed.get("__source_ts_ms")).isEqualTo(5L);
    assertThat(trimmed.getStruct("_cdc")).isEqualTo(row().getStruct("_cdc"));
    assertThat(trimmed.schema().name()).isEqualTo("db.t.Value");
    assertThat(trimmed.schema().version()).isEqualTo(3);
    assertThat(trimmed.schema().doc()).isEqualTo("a row");
  }

  @Test
  void theTrimmedStructEqualsOneBuiltFieldByFieldAndValidates() {
    Struct trimmed = (Struct) markers.trim(row());
    Struct expected =
        new Struct(trimmed.schema())
            .put("id", 1)
            .put("__source_ts_ms", 5L)
            .put("_cdc", new Struct(CDC).put("op", "U").put("ts", 6L));
    assertThat(trimmed).isEqualTo(expected);
    trimmed.validate();
    assertThat(MarkerFields.copiesWithoutChecks()).as("the values copied as they are").isTrue();
  }

  @Test
  void aRequiredFieldLeftEmptyIsRefusedAsConnectRefusesIt() {
    Struct missingId = new Struct(ROW).put("__op", "u");
    assertThatThrownBy(() -> markers.trim(missingId))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("id");
  }

  @Test
  void theTrimmedSchemaIsBuiltOncePerRecordSchema() {
    Struct first = (Struct) markers.trim(row());
    Struct second = (Struct) markers.trim(row());
    assertThat(second.schema()).isSameAs(first.schema());
  }

  @Test
  void aMarkerInANestedStructGoesAlone() {
    MarkerFields nested = new MarkerFields(List.of(FieldPath.of("_cdc.op")));
    Struct trimmed = (Struct) nested.trim(row());
    assertThat(names(trimmed.schema())).contains("__op", "_cdc");
    assertThat(names(trimmed.getStruct("_cdc").schema())).containsExactly("ts");
    assertThat(trimmed.getStruct("_cdc").get("ts")).isEqualTo(6L);
  }

  @Test
  void anImageWithoutMarkersIsKeptAsItIs() {
    Struct plain = CdcRecords.row(1, "Ada");
    assertThat(markers.trim(plain)).isSameAs(plain);
    Map<String, Object> map = Map.of("id", 1);
    assertThat(markers.trim(map)).isSameAs(map);
    assertThat(markers.trim("text")).isEqualTo("text");
  }

  @Test
  void aSchemalessImageLosesItsMarkersInOrder() {
    Map<String, Object> image = new LinkedHashMap<>();
    image.put("id", 1);
    image.put("__deleted", "false");
    image.put("name", "Ada");
    image.put("__op", "c");
    assertThat(markers.trim(image)).hasToString("{id=1, name=Ada}");
    assertThat(image).hasSize(4);
  }

  @Test
  void aNestedSchemalessMarkerGoesAlone() {
    MarkerFields nested = new MarkerFields(List.of(FieldPath.of("_cdc.op")));
    Map<String, Object> image = Map.of("id", 1, "_cdc", Map.of("op", "I", "ts", 2L));
    assertThat(nested.trim(image)).isEqualTo(Map.of("id", 1, "_cdc", Map.of("ts", 2L)));
  }
}
