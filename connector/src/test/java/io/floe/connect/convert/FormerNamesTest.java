/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class FormerNamesTest {
  private static final org.apache.iceberg.Schema BEFORE =
      new org.apache.iceberg.Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "note", Types.StringType.get()),
          optional(3, "ship", Types.StructType.of(optional(4, "town", Types.StringType.get()))));

  /** After renaming note to remark and ship.town to ship.city. */
  private static final org.apache.iceberg.Schema AFTER =
      new org.apache.iceberg.Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "remark", Types.StringType.get()),
          optional(3, "ship", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

  private static final Schema SHIP_V1 =
      SchemaBuilder.struct().field("town", Schema.OPTIONAL_STRING_SCHEMA).optional().build();
  private static final Schema V1 =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("ship", SHIP_V1)
          .build();

  private static final FormerNames HISTORY = FormerNames.of(List.of(BEFORE, AFTER), AFTER);

  @Test
  void knowsTheNamesColumnsHadBeforeTheirRenames() {
    assertThat(HISTORY.of(2)).containsExactly("note");
    assertThat(HISTORY.of(4)).containsExactly("town");
    assertThat(HISTORY.of(1)).isEmpty();
    assertThat(HISTORY.columnFormerlyNamed(AFTER.asStruct(), "note").fieldId()).isEqualTo(2);
    assertThat(HISTORY.columnFormerlyNamed(AFTER.asStruct(), "id")).isNull();
    assertThat(FormerNames.of(List.of(AFTER), AFTER)).isSameAs(FormerNames.NONE);
  }

  @Test
  void aColumnNamedSoNowWinsOverOneThatWasNamedSoBefore() {
    org.apache.iceberg.Schema noteAgain =
        new org.apache.iceberg.Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "remark", Types.StringType.get()),
            optional(5, "note", Types.StringType.get()));
    FormerNames history = FormerNames.of(List.of(BEFORE, AFTER, noteAgain), noteAgain);
    assertThat(history.columnFormerlyNamed(noteAgain.asStruct(), "note")).isNull();
    Record row =
        RecordConverters.forSchema(V1, noteAgain, history, ConvertOptions.defaults())
            .convert(new Struct(V1).put("id", 1L).put("note", "n"));
    assertThat(row.getField("note")).isEqualTo("n");
    assertThat(row.getField("remark")).isNull();
  }

  @Test
  void recordsOfAVersionOlderThanARenameWriteIntoTheRenamedColumn() {
    Struct value =
        new Struct(V1)
            .put("id", 7L)
            .put("note", "fragile")
            .put("ship", new Struct(SHIP_V1).put("town", "Delft"));

    Record row =
        RecordConverters.forSchema(V1, AFTER, HISTORY, ConvertOptions.defaults()).convert(value);

    assertThat(row.getField("remark")).isEqualTo("fragile");
    assertThat(((Record) row.getField("ship")).getField("city")).isEqualTo("Delft");
    Record withoutHistory =
        RecordConverters.forSchema(V1, AFTER, ConvertOptions.defaults()).convert(value);
    assertThat(withoutHistory.getField("remark")).isNull();
  }
}
