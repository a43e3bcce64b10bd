/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.config.FloeSinkConfig;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A table that cannot be loaded because the catalog (or the object store its metadata lives on) is
 * out of reach is a failed write the task waits out, never a failed task at once nor a bad record;
 * a catalog that refuses for another reason fails as it did.
 */
class CatalogOutageWriteTest {
  private static final Schema ROW =
      SchemaBuilder.struct().name("Row").field("id", Schema.INT64_SCHEMA).build();

  /** An in-memory catalog whose table loads fail with what the test sets, while it is set. */
  private static final class FailingLoads extends InMemoryCatalog {
    Supplier<RuntimeException> failure;

    @Override
    public Table loadTable(TableIdentifier identifier) {
      if (failure != null) {
        throw failure.get();
      }
      return super.loadTable(identifier);
    }
  }

  private final FailingLoads catalog = new FailingLoads();
  private final FloeSinkConfig config =
      new FloeSinkConfig(
          Map.of(
              "iceberg.tables", "db.t",
              "iceberg.tables.auto-create-enabled", "true",
              "iceberg.catalog.type", "rest"));

  CatalogOutageWriteTest() {
    catalog.initialize("mem", Map.of("warehouse", "mem://" + UUID.randomUUID()));
    catalog.createNamespace(Namespace.of("db"));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  private static SinkRecord record(long offset) {
    return new SinkRecord("events", 2, null, null, ROW, new Struct(ROW).put("id", offset), offset);
  }

  private static SinkWriter.RecordOutcomes refusingNothing() {
    return new SinkWriter.RecordOutcomes() {
      @Override
      public void tombstone(SinkRecord record) {
        throw new AssertionError("no tombstone was sent");
      }

      @Override
      public void failed(SinkRecord record, String table, RuntimeException cause) {
        throw new AssertionError("record " + record.kafkaOffset() + " is not bad", cause);
      }
    };
  }

  @Test
  void aCatalogOutOfReachIsAFailedWriteNamingTableAndRecord() {
    catalog.failure =
        () ->
            new RESTException(
                new SocketTimeoutException("Read timed out"),
                "Error occurred while processing GET request");
    try (SinkWriter writer = SinkWriter.forTask(config, catalog, refusingNothing())) {
      assertThatThrownBy(() -> writer.write(List.of(record(7))))
          .isInstanceOf(WriteFailedException.class)
          .hasMessageContaining("table db.t")
          .hasMessageContaining("events-2 offset 7")
          .hasMessageContaining("SocketTimeoutException: Read timed out");

      // once the catalog answers again, the same record is written after the reset
      catalog.failure = null;
      writer.reset();
      writer.write(List.of(record(7)));
      assertThat(writer.handOver().tables()).hasSize(1);
    }
  }

  @Test
  void aCatalogThatRefusesFailsAsItSays() {
    catalog.failure = () -> new ForbiddenException("Forbidden: no access to db.t");
    try (SinkWriter writer = SinkWriter.forTask(config, catalog, refusingNothing())) {
      assertThatThrownBy(() -> writer.write(List.of(record(7))))
          .isInstanceOf(ForbiddenException.class)
          .hasMessage("Forbidden: no access to db.t");
    }
  }
}
