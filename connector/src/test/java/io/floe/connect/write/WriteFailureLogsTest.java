/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.config.Secrets;
import io.floe.connect.files.DelegatingStream;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the write path logs of an object store's failure to close or delete an abandoned file has
 * the connector's secrets masked: a store's error may quote a key or a signed URL.
 */
class WriteFailureLogsTest {
  private static final String SECRET = "s3cr3t-9f2d71c4";
  private static final Secrets SECRETS =
      Secrets.of(Map.of("iceberg.catalog.s3.secret-access-key", SECRET));
  private static final String LEAK = "refused: https://store/?X-Amz-Signature=" + SECRET;
  private static final TopicPartition P0 = new TopicPartition("events", 0);

  private final WriteTestTables tables = WriteTestTables.inMemory();

  @AfterEach
  void close() throws IOException {
    tables.close();
  }

  @Test
  void aFailedBulkDeleteIsLoggedMasked() {
    try (LogCapture logs = LogCapture.of(OrphanFiles.class)) {
      OrphanFiles.delete(new FailingIO(false), List.of("mem://a", "mem://b"), SECRETS);

      assertMasked(logs, 3); // the bulk delete, then each file one by one
    }
  }

  @Test
  void aPartlyFailedBulkDeleteIsLoggedMasked() {
    try (LogCapture logs = LogCapture.of(OrphanFiles.class)) {
      OrphanFiles.delete(new FailingIO(true), List.of("mem://a", "mem://b"), SECRETS);

      assertMasked(logs, 1);
      assertThat(logs.at("WARN").get(0)).contains("Could not delete 2 of 2 abandoned data files");
    }
  }

  @Test
  void anAbandonedFileThatFailsToCloseIsLoggedMasked() {
    Table stored =
        tables.create(
            "t",
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro"));
    FileIO failing =
        new StreamWrappingIO(
            ((HasTableOperations) stored).operations().io(), (out, path) -> failingOnClose(out));
    Table table =
        new BaseTable(((HasTableOperations) stored).operations(), stored.name()) {
          @Override
          public FileIO io() {
            return failing;
          }
        };
    try (WriterPool pool =
            new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0, Clock.systemUTC(), SECRETS);
        LogCapture logs = LogCapture.of(TableWriter.class)) {
      TableWriter writer = pool.writerFor(WriteTestTables.id(table), id -> table);
      writer.write(P0, 0, 0, WriteTestTables.row(0, 1, "a", 0));

      pool.abandon(List.of(P0));

      assertMasked(logs, 1);
      assertThat(logs.at("WARN").get(0)).contains("Could not close abandoned data file");
    }
  }

  private static void assertMasked(LogCapture logs, int warnings) {
    assertThat(logs.at("WARN")).hasSize(warnings).allMatch(line -> line.contains(Secrets.MASK));
    assertThat(logs.text()).contains("refused").doesNotContain(SECRET);
  }

  /** A store that refuses every delete quoting a secret: as a whole, or for some files. */
  private record FailingIO(boolean partly) implements FileIO, SupportsBulkOperations {
    @Override
    public void deleteFiles(Iterable<String> paths) {
      if (partly) {
        throw new BulkDeletionFailureException(2) {
          @Override
          public String getMessage() {
            return LEAK;
          }
        };
      }
      throw new IllegalStateException(LEAK);
    }

    @Override
    public void deleteFile(String path) {
      throw new IllegalStateException(LEAK);
    }

    @Override
    public InputFile newInputFile(String path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public OutputFile newOutputFile(String path) {
      throw new UnsupportedOperationException();
    }
  }

  /** A stream whose upload fails when it is closed, quoting a secret. */
  private static PositionOutputStream failingOnClose(PositionOutputStream out) {
    return new DelegatingStream(out) {
      @Override
      public void close() throws IOException {
        throw new IOException(LEAK);
      }
    };
  }
}
