/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.avro.AvroParameters;
import io.floe.connect.convert.AbsentField;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.TimeOfDayType;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaDiffTest {
  private static final String TABLE = "db.t";
  private static final ConvertOptions OPTIONS = ConvertOptions.defaults();
  private static final ConvertOptions AS_TIME = OPTIONS.withTimeOfDayType(TimeOfDayType.TIME);

  private static List<SchemaChange> diff(Schema record, org.apache.iceberg.Schema table) {
    return SchemaDiff.between(TABLE, record, table, OPTIONS);
  }

  private static org.apache.iceberg.Schema table(Types.NestedField... fields) {
    return new org.apache.iceberg.Schema(fields);
  }

  /** A table of a required id and {@code column}. */
  private static org.apache.iceberg.Schema idAnd(Types.NestedField column) {
    return table(required(1, "id", Types.LongType.get()), column);
  }

  /** A record of a required id and {@code schema} as field {@code name}. */
  private static Schema record(String name, Schema schema) {
    return SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).field(name, schema).build();
  }

  private static Schema decimal(int precision, int scale) {
    return Decimal.builder(scale)
        .parameter(AvroParameters.DECIMAL_PRECISION, String.valueOf(precision))
        .optional()
        .build();
  }

  private static Schema aliased(Schema schema, String aliases) {
    SchemaBuilder builder =
        new SchemaBuilder(schema.type()).parameter(AvroParameters.FIELD_ALIASES, aliases);
    if (schema.isOptional()) {
      builder.optional();
    }
    return builder.build();
  }

  @Test
  void nothingChangesWhenTheRecordMatchesTheTable() {
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    org.apache.iceberg.Schema table = idAnd(optional(2, "name", Types.StringType.get()));

    assertThat(diff(record, table)).isEmpty();
  }

  @Test
  void addsAnOptionalTopLevelColumnWithTheFieldsDoc() {
    Schema record = record("email", SchemaBuilder.string().doc("where to write").build());
    org.apache.iceberg.Schema table = table(required(1, "id", Types.LongType.get()));

    assertThat(diff(record, table))
        .containsExactly(new AddColumn(null, "email", Types.StringType.get(), "where to write"));
  }

  @Test
  void addsANewStructAsOneColumn() {
    Schema address =
        SchemaBuilder.struct()
            .field("street", Schema.STRING_SCHEMA)
            .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
            .optional()
            .build();
    org.apache.iceberg.Schema table = table(required(1, "id", Types.LongType.get()));

    List<SchemaChange> changes = diff(record("address", address), table);

    assertThat(changes).hasSize(1);
    AddColumn add = (AddColumn) changes.get(0);
    assertThat(add.parent()).isNull();
    assertThat(add.name()).isEqualTo("address");
    assertThat(add.type().asStructType().fields())
        .extracting(Types.NestedField::name, Types.NestedField::isOptional, Types.NestedField::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("street", false, Types.StringType.get()),
            org.assertj.core.groups.Tuple.tuple("zip", true, Types.IntegerType.get()));
  }

  @Test
  void addsFieldsInsideStructsListElementsAndMapValues() {
    Schema item =
        SchemaBuilder.struct()
            .field("sku", Schema.STRING_SCHEMA)
            .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
            .build();
    Schema customer =
        SchemaBuilder.struct()
            .field("name", Schema.STRING_SCHEMA)
            .field("vip", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .build();
    Schema record =
        SchemaBuilder.struct()
            .field("customer", customer)
            .field("items", SchemaBuilder.array(item).build())
            .field("by_code", SchemaBuilder.map(Schema.STRING_SCHEMA, item).build())
            .build();
    org.apache.iceberg.Schema table =
        table(
            required(
                1, "customer", Types.StructType.of(required(4, "name", Types.StringType.get()))),
            required(2, "items", Types.ListType.ofRequired(5, sku(10))),
            required(
                3, "by_code", Types.MapType.ofRequired(6, 7, Types.StringType.get(), sku(11))));

    assertThat(diff(record, table))
        .containsExactly(
            new AddColumn("customer", "vip", Types.BooleanType.get(), null),
            new AddColumn("items.element", "qty", Types.IntegerType.get(), null),
            new AddColumn("by_code.value", "qty", Types.IntegerType.get(), null));
  }

  private static Types.StructType sku(int id) {
    return Types.StructType.of(required(id, "sku", Types.StringType.get()));
  }

  @Test
  void aTableColumnTheRecordLacksStays() {
    Schema record = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

    assertThat(diff(record, idAnd(optional(2, "gone", Types.StringType.get())))).isEmpty();
    assertThat(diff(record, idAnd(required(2, "gone", Types.StringType.get()))))
        .containsExactly(new MakeOptional("gone"));
  }

  @Test
  void namesMatchCaseSensitively() {
    Schema record = record("Name", Schema.OPTIONAL_STRING_SCHEMA);
    org.apache.iceberg.Schema table = idAnd(optional(2, "name", Types.StringType.get()));

    assertThat(diff(record, table))
        .containsExactly(new AddColumn(null, "Name", Types.StringType.get(), null));
  }

  static Stream<Arguments> widenings() {
    return Stream.of(
        Arguments.of(Schema.OPTIONAL_INT64_SCHEMA, Types.IntegerType.get(), Types.LongType.get()),
        Arguments.of(Schema.OPTIONAL_FLOAT64_SCHEMA, Types.FloatType.get(), Types.DoubleType.get()),
        Arguments.of(decimal(12, 2), Types.DecimalType.of(10, 2), Types.DecimalType.of(12, 2)));
  }

  @ParameterizedTest
  @MethodSource("widenings")
  void widensAPrimitiveColumn(Schema field, Type.PrimitiveType from, Type.PrimitiveType to) {
    org.apache.iceberg.Schema table = idAnd(optional(2, "v", from));

    assertThat(diff(record("v", field), table)).containsExactly(new WidenColumn("v", from, to));
  }

  static Stream<Arguments> alreadyHeld() {
    return Stream.of(
        Arguments.of(Schema.OPTIONAL_INT8_SCHEMA, Types.IntegerType.get()),
        Arguments.of(Schema.OPTIONAL_INT16_SCHEMA, Types.IntegerType.get()),
        Arguments.of(Schema.OPTIONAL_INT32_SCHEMA, Types.IntegerType.get()),
        Arguments.of(Schema.OPTIONAL_INT32_SCHEMA, Types.LongType.get()),
        Arguments.of(Schema.OPTIONAL_FLOAT32_SCHEMA, Types.DoubleType.get()),
        Arguments.of(decimal(8, 2), Types.DecimalType.of(10, 2)),
        Arguments.of(decimal(10, 2), Types.DecimalType.of(10, 2)),
        Arguments.of(Schema.STRING_SCHEMA, Types.StringType.get()));
  }

  @ParameterizedTest
  @MethodSource("alreadyHeld")
  void aColumnThatAlreadyHoldsTheFieldsTypeNeedsNothing(Schema field, Type.PrimitiveType column) {
    org.apache.iceberg.Schema table = idAnd(optional(2, "v", column));

    assertThat(diff(record("v", field), table)).isEmpty();
  }

  static Stream<Arguments> incompatible() {
    return Stream.of(
        Arguments.of(Schema.OPTIONAL_INT32_SCHEMA, Types.StringType.get(), "string", "int"),
        Arguments.of(Schema.OPTIONAL_STRING_SCHEMA, Types.IntegerType.get(), "int", "string"),
        Arguments.of(Schema.OPTIONAL_FLOAT64_SCHEMA, Types.LongType.get(), "long", "double"),
        Arguments.of(Schema.OPTIONAL_INT64_SCHEMA, Types.FloatType.get(), "float", "long"),
        Arguments.of(
            decimal(10, 3), Types.DecimalType.of(10, 2), "decimal(10, 2)", "decimal(10, 3)"),
        Arguments.of(
            decimal(12, 3), Types.DecimalType.of(10, 2), "decimal(10, 2)", "decimal(12, 3)"),
        Arguments.of(
            SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).optional().build(),
            Types.StringType.get(),
            "string",
            "struct"),
        Arguments.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            Types.StructType.of(optional(3, "a", Types.IntegerType.get())),
            "struct",
            "string"),
        Arguments.of(
            SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build(),
            Types.MapType.ofOptional(3, 4, Types.StringType.get(), Types.StringType.get()),
            "map",
            "list"),
        Arguments.of(
            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).optional().build(),
            Types.ListType.ofOptional(3, Types.StringType.get()),
            "list",
            "map"),
        Arguments.of(
            org.apache.kafka.connect.data.Timestamp.builder().optional().build(),
            Types.TimestampType.withoutZone(),
            "timestamp",
            "timestamptz"));
  }

  @ParameterizedTest
  @MethodSource("incompatible")
  void refusesAChangeThatIsNoSafeWidening(
      Schema field, Type column, String tableType, String recordType) {
    org.apache.iceberg.Schema table = idAnd(optional(2, "v", column));

    assertThatThrownBy(() -> diff(record("v", field), table))
        .isInstanceOfSatisfying(
            IncompatibleSchemaException.class,
            e -> {
              assertThat(e.table()).isEqualTo(TABLE);
              assertThat(e.column()).isEqualTo("v");
              assertThat(e.tableType()).isEqualTo(column);
              assertThat(e.getMessage())
                  .startsWith(
                      "Table db.t cannot take the record's schema: column \"v\" is "
                          + tableType
                          + " in the table, the record has "
                          + recordType)
                  .contains("int to long")
                  .contains("bad-record policy");
            });
  }

  static Stream<Arguments> timesOfDay() {
    return Stream.of(
        Arguments.of(org.apache.kafka.connect.data.Time.builder().optional().build()),
        Arguments.of(SchemaBuilder.int32().name("io.debezium.time.Time").optional().build()),
        Arguments.of(SchemaBuilder.int64().name("io.debezium.time.MicroTime").optional().build()),
        Arguments.of(SchemaBuilder.int64().name("io.debezium.time.NanoTime").optional().build()));
  }

  @ParameterizedTest
  @MethodSource("timesOfDay")
  void aTimeOfDayKeepsGoingIntoItsTimeOrLongColumnWhateverTheTimeType(Schema field) {
    for (Type column : new Type[] {Types.TimeType.get(), Types.LongType.get()}) {
      org.apache.iceberg.Schema table = idAnd(optional(2, "v", column));
      for (ConvertOptions options : new ConvertOptions[] {OPTIONS, AS_TIME}) {
        assertThat(SchemaDiff.between(TABLE, record("v", field), table, options)).isEmpty();
      }
    }
    org.apache.iceberg.Schema table = idAnd(optional(2, "w", Types.StringType.get()));
    assertThat(SchemaDiff.between(TABLE, record("v", field), table, OPTIONS))
        .contains(new AddColumn(null, "v", Types.LongType.get(), null));
    assertThat(SchemaDiff.between(TABLE, record("v", field), table, AS_TIME))
        .contains(new AddColumn(null, "v", Types.TimeType.get(), null));
  }

  @ParameterizedTest
  @MethodSource("timesOfDay")
  void aTimeOfDayIntoAColumnOfAnotherTypeIsIncompatible(Schema field) {
    for (Type column : new Type[] {Types.IntegerType.get(), Types.StringType.get()}) {
      org.apache.iceberg.Schema table = idAnd(optional(2, "v", column));
      assertThatThrownBy(() -> SchemaDiff.between(TABLE, record("v", field), table, OPTIONS))
          .isInstanceOfSatisfying(
              IncompatibleSchemaException.class,
              e -> {
                assertThat(e.column()).isEqualTo("v");
                assertThat(e.getMessage())
                    .contains("a time of day goes into a time or long column");
              });
    }
  }

  @Test
  void theMessageNamesANestedColumnByItsFullName() {
    Schema inner = SchemaBuilder.struct().field("b", Schema.STRING_SCHEMA).build();
    Schema record = SchemaBuilder.struct().field("a", inner).build();
    org.apache.iceberg.Schema table =
        table(required(1, "a", Types.StructType.of(required(2, "b", Types.LongType.get()))));

    assertThatThrownBy(() -> diff(record, table))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageStartingWith(
            "Table db.t cannot take the record's schema: column \"a.b\" is long in the table,"
                + " the record has string.");
  }

  @Test
  void widensListElementsAndMapValues() {
    Schema record =
        SchemaBuilder.struct()
            .field("xs", SchemaBuilder.array(Schema.INT64_SCHEMA).build())
            .field("m", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.FLOAT64_SCHEMA).build())
            .build();
    org.apache.iceberg.Schema table =
        table(
            required(1, "xs", Types.ListType.ofRequired(3, Types.IntegerType.get())),
            required(
                2,
                "m",
                Types.MapType.ofRequired(4, 5, Types.StringType.get(), Types.FloatType.get())));

    assertThat(diff(record, table))
        .containsExactly(
            new WidenColumn("xs.element", Types.IntegerType.get(), Types.LongType.get()),
            new WidenColumn("m.value", Types.FloatType.get(), Types.DoubleType.get()));
  }

  @Test
  void mapKeysCannotChange() {
    Schema record =
        record("m", SchemaBuilder.map(Schema.INT64_SCHEMA, Schema.STRING_SCHEMA).build());
    org.apache.iceberg.Schema table =
        table(
            required(1, "id", Types.LongType.get()),
            required(
                2,
                "m",
                Types.MapType.ofRequired(3, 4, Types.IntegerType.get(), Types.StringType.get())));

    assertThatThrownBy(() -> diff(record, table))
        .isInstanceOfSatisfying(
            IncompatibleSchemaException.class, e -> assertThat(e.column()).isEqualTo("m.key"))
        .hasMessageContaining("map keys cannot change");
  }

  @Test
  void makesRequiredColumnsOptionalWhereTheRecordsAreOptional() {
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.OPTIONAL_INT64_SCHEMA)
            .field("xs", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).build())
            .field(
                "m", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA).build())
            .build();
    org.apache.iceberg.Schema table =
        table(
            required(1, "id", Types.LongType.get()),
            required(2, "xs", Types.ListType.ofRequired(4, Types.StringType.get())),
            required(
                3,
                "m",
                Types.MapType.ofRequired(5, 6, Types.StringType.get(), Types.StringType.get())));

    assertThat(diff(record, table))
        .containsExactly(
            new MakeOptional("id"), new MakeOptional("xs.element"), new MakeOptional("m.value"));
  }

  @Test
  void anOptionalColumnTakesARequiredField() {
    Schema record = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    org.apache.iceberg.Schema table = table(optional(1, "id", Types.LongType.get()));

    assertThat(diff(record, table)).isEmpty();
  }

  @Test
  void makingOptionalAndWideningOneColumnAreTwoChanges() {
    Schema record = record("v", Schema.OPTIONAL_INT64_SCHEMA);
    org.apache.iceberg.Schema table = idAnd(required(2, "v", Types.IntegerType.get()));

    assertThat(diff(record, table))
        .containsExactly(
            new MakeOptional("v"),
            new WidenColumn("v", Types.IntegerType.get(), Types.LongType.get()));
  }

  @Test
  void renamesAColumnNamedByAnAliasAndComparesItUnderItsOldName() {
    Schema inner =
        SchemaBuilder.struct()
            .field("a", Schema.INT64_SCHEMA)
            .field("added", Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .parameter(AvroParameters.FIELD_ALIASES, "legacy,old")
            .build();
    Schema record = record("fresh", inner);
    org.apache.iceberg.Schema table =
        table(
            required(1, "id", Types.LongType.get()),
            required(2, "old", Types.StructType.of(required(3, "a", Types.IntegerType.get()))));

    assertThat(diff(record, table))
        .containsExactly(
            new RenameColumn("old", "fresh"),
            new MakeOptional("old"),
            new WidenColumn("old.a", Types.IntegerType.get(), Types.LongType.get()),
            new AddColumn("old", "added", Types.StringType.get(), null));
  }

  @Test
  void renamesANestedColumn() {
    Schema inner =
        SchemaBuilder.struct()
            .field("zip_code", aliased(Schema.OPTIONAL_STRING_SCHEMA, "zip"))
            .build();
    Schema record = SchemaBuilder.struct().field("items", SchemaBuilder.array(inner)).build();
    org.apache.iceberg.Schema table =
        table(
            required(
                1,
                "items",
                Types.ListType.ofRequired(
                    2, Types.StructType.of(optional(3, "zip", Types.StringType.get())))));

    assertThat(diff(record, table))
        .containsExactly(new RenameColumn("items.element.zip", "zip_code"));
  }

  @Test
  void anAliasTheRecordStillHasByNameAddsInsteadOfRenaming() {
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("b", aliased(Schema.OPTIONAL_STRING_SCHEMA, "id"))
            .build();
    org.apache.iceberg.Schema table = table(required(1, "id", Types.LongType.get()));

    assertThat(diff(record, table))
        .containsExactly(new AddColumn(null, "b", Types.StringType.get(), null));
  }

  @Test
  void twoFieldsWithTheSameAliasRenameTheColumnOnce() {
    Schema record =
        SchemaBuilder.struct()
            .field("first", aliased(Schema.OPTIONAL_STRING_SCHEMA, "old"))
            .field("second", aliased(Schema.OPTIONAL_STRING_SCHEMA, "old"))
            .build();
    org.apache.iceberg.Schema table = table(optional(1, "old", Types.StringType.get()));

    assertThat(diff(record, table))
        .containsExactly(
            new RenameColumn("old", "first"),
            new AddColumn(null, "second", Types.StringType.get(), null));
  }

  @Test
  void anAliasWithoutAColumnAdds() {
    Schema record =
        SchemaBuilder.struct().field("b", aliased(Schema.OPTIONAL_STRING_SCHEMA, "x, y")).build();
    org.apache.iceberg.Schema table = table(optional(1, "a", Types.StringType.get()));

    assertThat(diff(record, table))
        .containsExactly(new AddColumn(null, "b", Types.StringType.get(), null));
  }

  @Test
  void aRenamedColumnOfAnotherTypeIsIncompatibleUnderItsTableName() {
    Schema record =
        SchemaBuilder.struct().field("b", aliased(Schema.OPTIONAL_STRING_SCHEMA, "a")).build();
    org.apache.iceberg.Schema table = table(optional(1, "a", Types.IntegerType.get()));

    assertThatThrownBy(() -> diff(record, table))
        .isInstanceOfSatisfying(
            IncompatibleSchemaException.class, e -> assertThat(e.column()).isEqualTo("a"));
  }

  @Test
  void changesComeInRecordFieldOrderOuterBeforeInner() {
    Schema inner =
        SchemaBuilder.struct()
            .field("z", Schema.OPTIONAL_INT64_SCHEMA)
            .field("y", Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .build();
    Schema record =
        SchemaBuilder.struct()
            .field("c", Schema.OPTIONAL_STRING_SCHEMA)
            .field("s", inner)
            .field("a", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    org.apache.iceberg.Schema table =
        table(required(1, "s", Types.StructType.of(required(2, "z", Types.IntegerType.get()))));

    List<SchemaChange> expected =
        List.of(
            new AddColumn(null, "c", Types.StringType.get(), null),
            new MakeOptional("s"),
            new MakeOptional("s.z"),
            new WidenColumn("s.z", Types.IntegerType.get(), Types.LongType.get()),
            new AddColumn("s", "y", Types.StringType.get(), null),
            new AddColumn(null, "a", Types.StringType.get(), null));
    assertThat(diff(record, table)).isEqualTo(expected);
    assertThat(diff(record, table)).isEqualTo(diff(record, table));
  }

  @Test
  void schemalessAdditionsBecomeAddColumns() {
    List<AbsentField> absent =
        List.of(
            new AbsentField("a", null, "a", Types.LongType.get(), null),
            new AbsentField("s.b", "s", "b", Types.StringType.get(), "doc"));

    assertThat(SchemaDiff.additions(absent))
        .containsExactly(
            new AddColumn(null, "a", Types.LongType.get(), null),
            new AddColumn("s", "b", Types.StringType.get(), "doc"));
  }

  @Test
  void describesEachChange() {
    assertThat(new AddColumn("s", "b", Types.StringType.get(), null).describe())
        .isEqualTo("add optional column s.b string");
    assertThat(new WidenColumn("a", Types.IntegerType.get(), Types.LongType.get()).describe())
        .isEqualTo("widen a from int to long");
    assertThat(new MakeOptional("a.b").describe()).isEqualTo("make a.b optional");
    assertThat(new RenameColumn("s.old", "fresh").describe()).isEqualTo("rename s.old to s.fresh");
  }

  @Test
  void aWideningMustBeSafe() {
    assertThatThrownBy(() -> new WidenColumn("a", Types.LongType.get(), Types.IntegerType.get()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRequiredColumnTheRecordLacksBecomesOptionalAtAnyDepth() {
    Schema address = SchemaBuilder.struct().field("city", Schema.STRING_SCHEMA).build();
    Schema record = record("address", address);
    org.apache.iceberg.Schema table =
        table(
            required(1, "id", Types.LongType.get()),
            required(2, "legacy", Types.StringType.get()),
            optional(3, "gone", Types.StringType.get()),
            required(
                4,
                "address",
                Types.StructType.of(
                    required(5, "city", Types.StringType.get()),
                    required(6, "zip", Types.StringType.get()))));

    assertThat(diff(record, table))
        .containsExactly(new MakeOptional("address.zip"), new MakeOptional("legacy"));
  }

  @Test
  void anIdentifierFieldStaysRequired() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            List.of(
                required(1, "id", Types.LongType.get()),
                required(2, "region", Types.StringType.get())),
            java.util.Set.of(1, 2));
    Schema optionalRegion = record("region", Schema.OPTIONAL_STRING_SCHEMA);
    assertThatThrownBy(() -> diff(optionalRegion, table))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("column \"region\" is string in the table, the record has string")
        .hasMessageContaining("an identifier field must stay required");
    Schema noRegion = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    assertThatThrownBy(() -> diff(noRegion, table))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("the record has no such field")
        .hasMessageContaining("an identifier field must stay required");
    assertThat(diff(record("region", Schema.STRING_SCHEMA), table)).isEmpty();
  }

  @Test
  void caseInsensitiveMatchingEvolvesTheColumnOfTheSameNameInsteadOfAddingOne() {
    Schema record =
        SchemaBuilder.struct()
            .field("ID", Schema.INT64_SCHEMA)
            .field("Amount", Schema.OPTIONAL_INT64_SCHEMA)
            .field("Customer", SchemaBuilder.struct().field("Zip", Schema.STRING_SCHEMA).build())
            .build();
    org.apache.iceberg.Schema table =
        table(
            required(1, "id", Types.LongType.get()),
            required(2, "amount", Types.IntegerType.get()),
            optional(
                3, "customer", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

    assertThat(diff(record, table))
        .extracting(SchemaChange::describe)
        .contains("add optional column ID long", "add optional column Amount long");

    ConvertOptions caseInsensitive = OPTIONS.withCaseInsensitive(true);
    assertThat(SchemaDiff.between(TABLE, record, table, caseInsensitive))
        .extracting(SchemaChange::describe)
        .containsExactly(
            "make amount optional",
            "widen amount from int to long",
            "add optional column customer.Zip string");
  }

  @Test
  void forceOptionalAddsOptionalColumnsAndLeavesRequiredOnesAsTheyAre() {
    Schema record =
        record(
            "address",
            SchemaBuilder.struct()
                .field("zip", Schema.STRING_SCHEMA)
                .field("lines", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
                .build());
    org.apache.iceberg.Schema table = table(required(1, "id", Types.LongType.get()));

    List<SchemaChange> changes =
        SchemaDiff.between(TABLE, record, table, OPTIONS.withForceOptional(true));

    assertThat(changes).singleElement().isInstanceOf(AddColumn.class);
    Types.StructType added = ((AddColumn) changes.get(0)).type().asStructType();
    assertThat(added.field("zip").isOptional()).isTrue();
    assertThat(added.field("lines").isOptional()).isTrue();
    assertThat(added.field("lines").type().asListType().isElementOptional()).isTrue();
    Types.StructType asDeclared = ((AddColumn) diff(record, table).get(0)).type().asStructType();
    assertThat(asDeclared.field("zip").isRequired()).isTrue();
  }
}
