/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.LogCapture;
import io.floe.connect.avro.AvroParameters;
import io.floe.connect.config.Secrets;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.FormerNames;
import io.floe.connect.deletes.FailingCommits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SchemaEvolverTest {
  private static final TableIdentifier ID = TableIdentifier.of("db", "events");
  private static final org.apache.iceberg.Schema INITIAL =
      new org.apache.iceberg.Schema(
          required(1, "id", Types.LongType.get()),
          required(
              2,
              "old",
              Types.StructType.of(
                  required(5, "a", Types.IntegerType.get()),
                  optional(6, "b", Types.StringType.get()))),
          optional(3, "count", Types.IntegerType.get()),
          optional(
              4,
              "tags",
              Types.ListType.ofOptional(
                  7, Types.StructType.of(optional(8, "x", Types.IntegerType.get())))));

  private final List<Duration> pauses = new ArrayList<>();
  private InMemoryCatalog catalog;

  @BeforeEach
  void createTable() {
    catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    catalog.createTable(ID, INITIAL, PartitionSpec.unpartitioned());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    catalog.close();
  }

  private Table load() {
    return catalog.loadTable(ID);
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private static Schema withField(String name, Schema schema) {
    return SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).field(name, schema).build();
  }

  private static Function<org.apache.iceberg.Schema, List<SchemaChange>> diffTo(Schema record) {
    return table -> SchemaDiff.between(ID.toString(), record, table, ConvertOptions.defaults());
  }

  private org.apache.iceberg.Schema evolve(Table table, Schema record) {
    return SchemaEvolver.evolve(table, diffTo(record), Throwable::toString, pauses::add);
  }

  @Test
  void renamesWidensAndAddsInOneCommitKeepingFieldIds() {
    Schema fresh =
        SchemaBuilder.struct()
            .field("a", Schema.INT64_SCHEMA)
            .field("b", Schema.OPTIONAL_STRING_SCHEMA)
            .field("c", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .optional()
            .parameter(AvroParameters.FIELD_ALIASES, "old")
            .build();
    Schema tag =
        SchemaBuilder.struct()
            .field("x", Schema.OPTIONAL_INT64_SCHEMA)
            .field("y", Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .build();
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("fresh", fresh)
            .field("count", Schema.OPTIONAL_INT64_SCHEMA)
            .field("tags", SchemaBuilder.array(tag).optional().build())
            .field("note", SchemaBuilder.string().optional().doc("free text").build())
            .build();
    Table table = load();
    int schemasBefore = table.schemas().size();

    org.apache.iceberg.Schema evolved = evolve(table, record);

    org.apache.iceberg.Schema expected =
        new org.apache.iceberg.Schema(
            required(1, "id", Types.LongType.get()),
            optional(
                2,
                "fresh",
                Types.StructType.of(
                    required(5, "a", Types.LongType.get()),
                    optional(6, "b", Types.StringType.get()),
                    optional(9, "c", Types.DoubleType.get()))),
            optional(3, "count", Types.LongType.get()),
            optional(
                4,
                "tags",
                Types.ListType.ofOptional(
                    7,
                    Types.StructType.of(
                        optional(8, "x", Types.LongType.get()),
                        optional(10, "y", Types.StringType.get())))),
            optional(11, "note", Types.StringType.get(), "free text"));
    assertThat(evolved.asStruct()).isEqualTo(expected.asStruct());
    assertThat(load().schema().asStruct()).isEqualTo(expected.asStruct());
    assertThat(load().schemas()).hasSize(schemasBefore + 1);
    assertThat(SchemaDiff.between(ID.toString(), record, evolved, ConvertOptions.defaults()))
        .isEmpty();
    assertThat(pauses).isEmpty();
  }

  @Test
  void underARenameOfTheSameUpdateOnlyTheOldNameResolves() {
    // why every change is named in the table's current schema: UpdateSchema resolves names
    // against the schema it started from, even below a column it renames
    Table table = load();

    assertThatThrownBy(
            () ->
                table
                    .updateSchema()
                    .renameColumn("old", "fresh")
                    .updateColumn("fresh.a", Types.LongType.get())
                    .commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fresh.a");
    assertThatThrownBy(
            () ->
                table
                    .updateSchema()
                    .renameColumn("old", "fresh")
                    .addColumn("fresh", "c", Types.LongType.get())
                    .commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fresh");
    assertThat(load().schema().asStruct()).isEqualTo(INITIAL.asStruct());
  }

  @Test
  void aNewStructKeepsItsRequiredFieldsInsideTheOptionalColumn() {
    Schema address =
        SchemaBuilder.struct()
            .field("street", Schema.STRING_SCHEMA)
            .field("zip", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    org.apache.iceberg.Schema evolved = evolve(load(), withField("address", address));

    assertThat(evolved.findField("address").isOptional()).isTrue();
    assertThat(evolved.findField("address.street").isRequired()).isTrue();
    assertThat(evolved.findField("address.zip").isOptional()).isTrue();
  }

  @Test
  void makesARequiredColumnOptionalAndWidensIt() {
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field(
                "old",
                SchemaBuilder.struct().field("a", Schema.OPTIONAL_INT64_SCHEMA).optional().build())
            .build();

    org.apache.iceberg.Schema evolved = evolve(load(), record);

    assertThat(evolved.findField("old").isOptional()).isTrue();
    assertThat(evolved.findField("old.a")).isEqualTo(optional(5, "a", Types.LongType.get()));
  }

  @Test
  void commitsNothingWhenTheTableAlreadyTakesTheRecord() {
    Table table = load();
    String metadata = metadataLocation(table);
    Schema old =
        SchemaBuilder.struct()
            .field("a", Schema.INT32_SCHEMA)
            .field("b", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema record =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("old", old)
            .field("count", Schema.OPTIONAL_INT32_SCHEMA)
            .build();

    org.apache.iceberg.Schema schema = evolve(table, record);

    assertThat(schema.asStruct()).isEqualTo(INITIAL.asStruct());
    assertThat(metadataLocation(load())).isEqualTo(metadata);
  }

  @Test
  void twoInstancesEvolvingAtOnceBothSucceed() {
    Table first = load();
    Table second = load();

    evolve(first, withField("x", Schema.OPTIONAL_STRING_SCHEMA));
    org.apache.iceberg.Schema evolved =
        evolve(second, withField("y", Schema.OPTIONAL_INT64_SCHEMA));

    assertThat(evolved.findField("x")).isNotNull();
    assertThat(evolved.findField("y")).isNotNull();
    assertThat(load().schema().asStruct()).isEqualTo(evolved.asStruct());
    assertThat(pauses).hasSize(1);
  }

  @Test
  void aColumnAnotherInstanceAddedMeanwhileIsNoChange() {
    Table first = load();
    Table second = load();
    Schema record = withField("x", Schema.OPTIONAL_STRING_SCHEMA);
    org.apache.iceberg.Schema added = evolve(first, record);
    String metadata = metadataLocation(load());

    org.apache.iceberg.Schema evolved = evolve(second, record);

    assertThat(evolved.asStruct()).isEqualTo(added.asStruct());
    assertThat(metadataLocation(load())).isEqualTo(metadata);
  }

  @Test
  void aConflictingChangeMeanwhileShowsAsIncompatible() {
    Table first = load();
    Table second = load();
    evolve(first, withField("x", Schema.OPTIONAL_STRING_SCHEMA));

    assertThatThrownBy(() -> evolve(second, withField("x", Schema.OPTIONAL_INT32_SCHEMA)))
        .isInstanceOfSatisfying(
            IncompatibleSchemaException.class, e -> assertThat(e.column()).isEqualTo("x"));
  }

  @Test
  void givesUpAfterBoundedAttemptsWithGrowingPauses() {
    Table table = load();
    Table other = load();
    int[] round = {0};
    Function<org.apache.iceberg.Schema, List<SchemaChange>> racing =
        schema -> {
          // another writer changes the table after each look, so every commit conflicts
          String name = "other_" + round[0]++;
          other.refresh();
          other.updateSchema().addColumn(name, Types.StringType.get()).commit();
          return List.of(new AddColumn(null, "mine_" + round[0], Types.StringType.get(), null));
        };

    assertThatThrownBy(() -> SchemaEvolver.evolve(table, racing, Throwable::toString, pauses::add))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("failed " + SchemaEvolver.MAX_ATTEMPTS + " times");
    assertThat(round[0]).isEqualTo(SchemaEvolver.MAX_ATTEMPTS);
    assertThat(pauses).hasSize(SchemaEvolver.MAX_ATTEMPTS - 1);
    assertThat(pauses).isSorted();
    assertThat(pauses.get(0)).isEqualTo(Duration.ofMillis(25));
    assertThat(pauses.get(pauses.size() - 1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(load().schema().columns()).noneMatch(column -> column.name().startsWith("mine_"));
  }

  @Test
  void aRetriedConflictIsLoggedWithTheSecretsMasked() {
    String secret = "s3cr3t-41d0aa7e";
    Secrets secrets = Secrets.of(Map.of("iceberg.catalog.jdbc.password", secret));
    Table stored = load();
    Table table =
        new BaseTable(
            new FailingCommits(
                ((HasTableOperations) stored).operations(),
                () ->
                    new CommitFailedException(
                        "Cannot commit to jdbc:postgresql://floe:%s@db/iceberg", secret)),
            stored.name());

    try (LogCapture logs = LogCapture.ofEveryLevel(SchemaEvolver.class)) {
      assertThatThrownBy(
              () ->
                  SchemaEvolver.evolve(
                      table,
                      diffTo(withField("x", Schema.OPTIONAL_STRING_SCHEMA)),
                      secrets::describe,
                      pauses::add))
          .isInstanceOf(ConnectException.class);

      assertThat(logs.at("DEBUG"))
          .hasSize(SchemaEvolver.MAX_ATTEMPTS)
          .allMatch(line -> line.contains("Cannot commit to jdbc:postgresql://floe:[hidden]@db"));
      assertThat(logs.text()).doesNotContain(secret);
    }
  }

  @Test
  void manyTasksAddingColumnsAtOnceAllLand() throws Exception {
    int tasks = 4;
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<org.apache.iceberg.Schema>> results = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        Table table = load();
        Schema record = withField("c" + i, Schema.OPTIONAL_STRING_SCHEMA);
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return SchemaEvolver.evolve(table, diffTo(record), Throwable::toString);
                }));
      }
      start.countDown();
      for (Future<org.apache.iceberg.Schema> result : results) {
        result.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    org.apache.iceberg.Schema schema = load().schema();
    for (int i = 0; i < tasks; i++) {
      assertThat(schema.findField("c" + i)).isNotNull();
    }
  }

  @Test
  void setsConfiguredIdentifierFieldsOnAnExistingTableOnce() {
    Table table = load();
    int fieldIdOfA = table.schema().findField("old.a").fieldId();
    Function<org.apache.iceberg.Schema, List<SchemaChange>> ids =
        schema -> SetIdentifierFields.toMatch(ID.toString(), schema, List.of("id", "old.a"));

    SchemaEvolver.evolve(table, ids, Throwable::toString, pauses::add);
    String afterFirst = metadataLocation(load());
    SchemaEvolver.evolve(load(), ids, Throwable::toString, pauses::add);

    assertThat(load().schema().identifierFieldNames()).containsExactlyInAnyOrder("id", "old.a");
    assertThat(load().schema().findField("old.a").fieldId()).isEqualTo(fieldIdOfA);
    assertThat(metadataLocation(load())).isEqualTo(afterFirst);
    assertThat(SetIdentifierFields.toMatch(ID.toString(), load().schema(), List.of())).isEmpty();
  }

  @Test
  void identifierColumnsTheTableCannotTakeLeaveItUntouched() {
    String before = metadataLocation(load());
    assertThatThrownBy(
            () ->
                SchemaEvolver.evolve(
                    load(),
                    schema -> SetIdentifierFields.toMatch(ID.toString(), schema, List.of("count")),
                    Throwable::toString,
                    pauses::add))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("iceberg.table.db.events.id-columns")
        .hasMessageContaining("column \"count\" cannot be one: it is optional");
    assertThat(metadataLocation(load())).isEqualTo(before);
  }

  @Test
  void aRecordOfAVersionOlderThanARenameNeedsNoChange() {
    Schema renaming =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("old", oldStruct())
            .field(
                "total",
                SchemaBuilder.int32()
                    .optional()
                    .parameter(AvroParameters.FIELD_ALIASES, "count")
                    .build())
            .build();
    Table table = load();
    org.apache.iceberg.Schema renamed = evolve(table, renaming);
    assertThat(renamed.findField("total").fieldId()).isEqualTo(3);

    Schema older = withField("count", Schema.OPTIONAL_INT32_SCHEMA);
    FormerNames history = FormerNames.of(load().schemas().values(), load().schema());
    assertThat(
            SchemaDiff.between(
                ID.toString(), older, load().schema(), history, ConvertOptions.defaults()))
        .containsExactly(new MakeOptional("old"));
    assertThat(SchemaDiff.between(ID.toString(), older, load().schema(), ConvertOptions.defaults()))
        .contains(new AddColumn(null, "count", Types.IntegerType.get(), null));
  }

  private static Schema oldStruct() {
    return SchemaBuilder.struct()
        .field("a", Schema.INT32_SCHEMA)
        .field("b", Schema.OPTIONAL_STRING_SCHEMA)
        .build();
  }
}
