/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class ConverterCacheTest {
  private static final ConvertOptions DEFAULTS = ConvertOptions.defaults();

  /** Counts compilations and remembers what was compiled. */
  private static final class CountingFactory implements ConverterFactory {
    private final ConverterFactory real = RecordConverters.factory(DEFAULTS);
    private final List<Schema> compiled = new ArrayList<>();

    @Override
    public RecordConverter create(Schema recordSchema, org.apache.iceberg.Schema tableSchema) {
      compiled.add(recordSchema);
      return real.create(recordSchema, tableSchema);
    }
  }

  private static Schema recordSchema() {
    return SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
  }

  private static org.apache.iceberg.Schema table(int schemaId) {
    return new org.apache.iceberg.Schema(
        schemaId, List.of(Types.NestedField.optional(1, "id", Types.LongType.get())));
  }

  @Test
  void compilesOncePerSchemaObjectNotPerRecord() {
    CountingFactory factory = new CountingFactory();
    ConverterCache cache = new ConverterCache(ConverterCache.DEFAULT_MAX_ENTRIES, factory);
    Schema schema = recordSchema();
    org.apache.iceberg.Schema table = table(0);

    RecordConverter first = cache.get(schema, table);
    for (long offset = 0; offset < 1_000; offset++) {
      Struct value = new Struct(schema).put("id", offset);
      assertThat(cache.get(schema, table).convert(value).get(0)).isEqualTo(offset);
    }

    assertThat(factory.compiled).hasSize(1);
    assertThat(cache.get(schema, table)).isSameAs(first);
  }

  @Test
  void equalSchemaObjectReusesThePlanWithoutCompiling() {
    CountingFactory factory = new CountingFactory();
    ConverterCache cache = new ConverterCache(8, factory);
    org.apache.iceberg.Schema table = table(0);
    Schema original = recordSchema();
    Schema equal = recordSchema();
    assertThat(equal).isNotSameAs(original).isEqualTo(original);

    cache.get(original, table);
    RecordConverter rebound = cache.get(equal, table);

    assertThat(factory.compiled).containsExactly(original);
    assertThat(rebound.convert(new Struct(equal).put("id", 3L)).get(0)).isEqualTo(3L);
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void newTableSchemaIdOrDifferentRecordSchemaCompilesAgain() {
    CountingFactory factory = new CountingFactory();
    ConverterCache cache = new ConverterCache(8, factory);
    Schema schema = recordSchema();
    Schema other = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();

    cache.get(schema, table(0));
    cache.get(schema, table(1));
    cache.get(other, table(1));
    cache.get(schema, table(0));

    assertThat(factory.compiled).containsExactly(schema, schema, other);
  }

  @Test
  void schemalessValuesAreCachedUnderANullSchema() {
    CountingFactory factory = new CountingFactory();
    ConverterCache cache = new ConverterCache(8, factory);
    org.apache.iceberg.Schema table = table(0);
    for (long i = 0; i < 10; i++) {
      assertThat(cache.get(null, table).convert(Map.of("id", i)).get(0)).isEqualTo(i);
    }
    assertThat(factory.compiled).hasSize(1);
  }

  @Test
  void evictsTheLeastRecentlyUsedBeyondTheBound() {
    CountingFactory factory = new CountingFactory();
    ConverterCache cache = new ConverterCache(2, factory);
    Schema a = recordSchema();
    Schema b = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
    Schema c = SchemaBuilder.struct().field("id", Schema.INT16_SCHEMA).build();
    org.apache.iceberg.Schema table = table(0);

    cache.get(a, table);
    cache.get(b, table);
    cache.get(a, table);
    cache.get(c, table); // evicts b
    cache.get(a, table);
    cache.get(b, table); // compiles b again

    assertThat(cache.size()).isEqualTo(2);
    assertThat(factory.compiled).containsExactly(a, b, c, b);
  }

  @Test
  void rejectsANonPositiveBound() {
    assertThatThrownBy(() -> new ConverterCache(0, RecordConverters.factory(DEFAULTS)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
