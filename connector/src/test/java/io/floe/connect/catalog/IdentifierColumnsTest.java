/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdentifierColumnsTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          required(3, "score", Types.DoubleType.get()),
          required(
              4,
              "customer",
              Types.StructType.of(
                  required(5, "region", Types.StringType.get()),
                  optional(6, "nick", Types.StringType.get()))),
          optional(7, "extra", Types.StructType.of(required(8, "code", Types.IntegerType.get()))),
          required(
              9,
              "lines",
              Types.ListType.ofRequired(
                  10, Types.StructType.of(required(11, "sku", Types.StringType.get())))));

  @Test
  void setsTopLevelAndNestedRequiredColumnsAsIdentifierFields() {
    Schema withIds = IdentifierColumns.on("db.t", SCHEMA, List.of("id", "customer.region"));
    assertThat(withIds.identifierFieldIds()).containsExactlyInAnyOrder(1, 5);
    assertThat(withIds.asStruct()).isEqualTo(SCHEMA.asStruct());
  }

  @Test
  void noConfiguredColumnsLeaveTheSchemaAlone() {
    assertThat(IdentifierColumns.on("db.t", SCHEMA, List.of())).isSameAs(SCHEMA);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "missing        | there is no such column",
        "name           | it is optional; identifier columns must be required",
        "score          | it is double, and floating-point columns cannot identify rows",
        "customer       | it is a struct, not a primitive column",
        "customer.nick  | it is optional",
        "extra.code     | it is inside the optional struct extra",
        "lines.element.sku | it is inside the list lines; identifier columns can only be nested in"
            + " structs"
      })
  void refusesAColumnThatCannotIdentifyRowsNamingTheKeyToFix(String column, String reason) {
    assertThatThrownBy(() -> IdentifierColumns.on("db.t", SCHEMA, List.of("id", column)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Table db.t cannot have the identifier columns id, " + column)
        .hasMessageContaining("iceberg.table.db.t.id-columns")
        .hasMessageContaining("column \"" + column + "\" cannot be one: " + reason);
  }
}
