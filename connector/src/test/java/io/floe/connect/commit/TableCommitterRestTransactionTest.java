/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.DataWritten;
import io.floe.connect.deletes.KeyIndexSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SessionCatalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.ParserContext;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cycle on a REST catalog that touches an upsert table and an append table is one multi-table
 * transaction: both tables get the cycle or neither does. The catalog is Iceberg's own REST catalog
 * adapter in process, serving a JDBC catalog, reached through Iceberg's {@link RESTCatalog}; the
 * adapter counts the commit calls, lets another writer commit just before the transaction is
 * applied, and can lose the transaction's answer.
 */
class TableCommitterRestTransactionTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "name", Types.StringType.get())),
          Set.of(1));
  private static final String GROUP = "connect-orders";
  private static final ControlTopic TOPIC =
      new ControlTopic(
          "floe-control", Uuid.randomUuid(), List.of(new TopicPartition("floe-control", 0)));
  private static final TableIdentifier ORDERS = TableIdentifier.of("db", "orders");
  private static final TableIdentifier AUDIT = TableIdentifier.of("db", "audit");

  @TempDir Path dir;
  private JdbcCatalog backend;
  private Server server;
  private RESTCatalog rest;
  private Table orders;
  private Table audit;

  /** The REST catalog adapter, counting commits and running what a test asks before them. */
  private static final class Server extends RESTCatalogAdapter {
    final AtomicInteger transactions = new AtomicInteger();
    final AtomicInteger tableCommits = new AtomicInteger();
    // run before each transaction is applied, by the transaction's number (1 for the first)
    volatile Consumer<Integer> beforeTransaction = n -> {};
    // whether every transaction is refused with a conflict, unapplied
    volatile boolean refuseTransactions;
    // whether the next transaction's answer is lost once it is applied
    volatile boolean loseNextAnswer;

    Server(JdbcCatalog backend) {
      super(backend);
    }

    @Override
    public <T extends RESTResponse> T post(
        String path,
        RESTRequest body,
        Class<T> responseType,
        Map<String, String> headers,
        Consumer<ErrorResponse> errorHandler) {
      return commit(
          path, errorHandler, () -> super.post(path, body, responseType, headers, errorHandler));
    }

    @Override
    public <T extends RESTResponse> T post(
        String path,
        RESTRequest body,
        Class<T> responseType,
        Map<String, String> headers,
        Consumer<ErrorResponse> errorHandler,
        Consumer<Map<String, String>> responseHeaders) {
      return commit(
          path,
          errorHandler,
          () -> super.post(path, body, responseType, headers, errorHandler, responseHeaders));
    }

    @Override
    public <T extends RESTResponse> T post(
        String path,
        RESTRequest body,
        Class<T> responseType,
        Map<String, String> headers,
        Consumer<ErrorResponse> errorHandler,
        Consumer<Map<String, String>> responseHeaders,
        ParserContext parserContext) {
      return commit(
          path,
          errorHandler,
          () ->
              super.post(
                  path, body, responseType, headers, errorHandler, responseHeaders, parserContext));
    }

    /** A POST: counted when it commits a table, faulted as asked when it commits a transaction. */
    private <T> T commit(String path, Consumer<ErrorResponse> errorHandler, Supplier<T> post) {
      if (path.matches(".*/tables/[^/]+")) {
        tableCommits.incrementAndGet();
      }
      if (!path.endsWith("/transactions/commit")) {
        return post.get();
      }
      beforeTransaction.accept(transactions.incrementAndGet());
      if (refuseTransactions) {
        // as a server whose requirement check failed: the client's own handler maps the answer
        errorHandler.accept(error(409, "Requirement failed: injected conflict"));
      }
      T response = post.get();
      if (loseNextAnswer) {
        loseNextAnswer = false;
        // the transaction landed, and the client gets a server error: it cannot tell
        errorHandler.accept(error(500, "answer lost"));
      }
      return response;
    }

    private static ErrorResponse error(int code, String message) {
      return ErrorResponse.builder()
          .responseCode(code)
          .withType("InjectedFault")
          .withMessage(message)
          .build();
    }
  }

  @BeforeEach
  void startCatalog() {
    backend = new JdbcCatalog();
    backend.initialize(
        "backend",
        Map.of(
            "uri",
            "jdbc:sqlite:" + dir.resolve("catalog.db"),
            "warehouse",
            dir.resolve("warehouse").toString(),
            "jdbc.schema-version",
            "V1"));
    server = new Server(backend);
    rest = new RESTCatalog(SessionCatalog.SessionContext.createEmpty(), config -> server);
    rest.initialize(
        "rest",
        Map.of(
            CatalogProperties.URI,
            "http://in-process",
            CatalogProperties.FILE_IO_IMPL,
            "org.apache.iceberg.hadoop.HadoopFileIO"));
    rest.createNamespace(Namespace.of("db"));
    orders =
        rest.createTable(
            ORDERS, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "3"));
    audit = rest.createTable(AUDIT, SCHEMA, PartitionSpec.unpartitioned());
  }

  @AfterEach
  void closeCatalogs() throws IOException {
    rest.close();
    backend.close();
  }

  @Test
  void aCycleOfAnUpsertTableAndAnAppendTableIsOneTransaction() {
    TableCommitter committer = committer();
    UUID one = UUID.randomUUID();
    Map<Long, String> expected = new TreeMap<>();
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
      expected.put(id, "first");
    }
    TableCommitter.Outcome outcome =
        committer.commit(cycle(one, 4, upserts(one, 0, first, ids(0, 10)), appended(one, 2, 5)));
    assertThat(outcome.failures()).isEmpty();

    UUID two = UUID.randomUUID();
    outcome =
        committer.commit(
            cycle(
                two,
                8,
                upserts(two, 4, List.of(row(3, "second")), List.of(3L, 5L)),
                appended(two, 6, 7)));

    assertThat(outcome.failures()).isEmpty();
    assertThat(server.transactions).as("one transaction per cycle").hasValue(2);
    assertThat(server.tableCommits).as("no table committed on its own").hasValue(0);
    expected.put(3L, "second");
    expected.remove(5L);
    assertThat(rows()).isEqualTo(expected);
    for (TableIdentifier table : List.of(ORDERS, AUDIT)) {
      Snapshot current = backend.loadTable(table).currentSnapshot();
      assertThat(current.summary()).containsEntry("floe.commit-id", two.toString());
      assertThat(outcome.committed().get(table.toString()).snapshot().snapshotId())
          .isEqualTo(current.snapshotId());
    }
    assertThat(outcome.committed().get("db.orders").records()).isEqualTo(1);
    assertThat(outcome.committed().get("db.audit").records()).isEqualTo(7);
    assertThat(deleteFilesOnDisk()).isNotEmpty().isEqualTo(deleteFilesOfSnapshots());
  }

  /**
   * Another writer commits to the upsert table while the cycle's transaction is on its way: the
   * catalog refuses the whole transaction (the upsert table's main branch moved), so the append
   * table does not get the cycle either, and the committer builds it again from the new snapshots.
   */
  @Test
  void aCommitOfAnotherWriterFailsTheWholeTransactionWhichIsBuiltAgain() {
    TableCommitter committer = committer();
    UUID one = UUID.randomUUID();
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    committer.commit(cycle(one, 4, upserts(one, 0, first, ids(0, 10)), appended(one, 2, 5)));
    List<Long> snapshotsBefore = new ArrayList<>();
    server.beforeTransaction =
        n -> {
          if (n == 2) {
            snapshotsBefore.add(backend.loadTable(AUDIT).currentSnapshot().snapshotId());
            appendByAnotherWriter(row(100, "other"));
          }
        };

    UUID two = UUID.randomUUID();
    TableCommitter.Outcome outcome =
        committer.commit(
            cycle(
                two,
                8,
                upserts(two, 4, List.of(row(3, "second"), row(4, "second")), List.of(3L, 4L, 5L)),
                appended(two, 6, 7)));

    assertThat(outcome.failures()).isEmpty();
    assertThat(server.transactions)
        .as("the refused transaction and the one built again")
        .hasValue(3);
    assertThat(server.tableCommits).hasValue(0);
    Table auditNow = backend.loadTable(AUDIT);
    assertThat(auditNow.currentSnapshot().parentId())
        .as("the refused transaction left nothing in the append table")
        .isEqualTo(snapshotsBefore.get(0));
    assertThat(auditNow.currentSnapshot().summary())
        .containsEntry("floe.commit-id", two.toString());
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 10; id++) {
      expected.put(id, "first");
    }
    expected.put(3L, "second");
    expected.put(4L, "second");
    expected.remove(5L);
    expected.put(100L, "other");
    assertThat(rows()).isEqualTo(expected);
    assertThat(deleteFilesOnDisk())
        .as("the refused attempt's deletion vectors are deleted")
        .isEqualTo(deleteFilesOfSnapshots());
  }

  /**
   * Every attempt of a cycle is refused: neither table gets it, no delete file of the attempts is
   * left, and the coordinator's retry of the cycle commits both tables, the upsert table holding
   * each key once.
   */
  @Test
  void aCycleRefusedOnEveryAttemptReachesNeitherTableAndItsRetryCommitsBoth() {
    TableCommitter committer = committer();
    UUID one = UUID.randomUUID();
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    committer.commit(cycle(one, 4, upserts(one, 0, first, ids(0, 10)), appended(one, 2, 5)));
    server.refuseTransactions = true;

    UUID two = UUID.randomUUID();
    TableCommitter.Cycle cycleTwo =
        cycle(
            two,
            8,
            upserts(two, 4, List.of(row(3, "second")), List.of(3L, 5L)),
            appended(two, 6, 7));
    TableCommitter.Outcome refused = committer.commit(cycleTwo);

    assertThat(refused.committed()).isEmpty();
    assertThat(refused.failures().keySet()).containsExactlyInAnyOrder("db.orders", "db.audit");
    assertThat(refused.failures().get("db.orders")).isInstanceOf(CommitFailedException.class);
    assertThat(server.transactions).as("the first cycle, then three attempts").hasValue(4);
    for (TableIdentifier table : List.of(ORDERS, AUDIT)) {
      assertThat(backend.loadTable(table).currentSnapshot().summary())
          .containsEntry("floe.commit-id", one.toString());
    }
    assertThat(deleteFilesOnDisk()).isEqualTo(deleteFilesOfSnapshots());

    server.refuseTransactions = false;
    TableCommitter.Outcome retried = committer().commit(cycleTwo);

    assertThat(retried.failures()).isEmpty();
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 10; id++) {
      expected.put(id, "first");
    }
    expected.put(3L, "second");
    expected.remove(5L);
    assertThat(rows()).isEqualTo(expected);
    for (TableIdentifier table : List.of(ORDERS, AUDIT)) {
      assertThat(backend.loadTable(table).currentSnapshot().summary())
          .containsEntry("floe.commit-id", two.toString());
    }
    assertThat(deleteFilesOnDisk()).isEqualTo(deleteFilesOfSnapshots());
  }

  /**
   * The transaction lands but its answer is lost: both tables fail, the delete files are kept (the
   * table reads them), and the retry of the cycle finds both tables holding it and commits nothing.
   */
  @Test
  void aTransactionWhoseAnswerIsLostKeepsItsDeleteFilesAndItsRetryFindsItCommitted() {
    TableCommitter committer = committer();
    UUID one = UUID.randomUUID();
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
    }
    committer.commit(cycle(one, 4, upserts(one, 0, first, ids(0, 10)), appended(one, 2, 5)));
    server.loseNextAnswer = true;

    UUID two = UUID.randomUUID();
    TableCommitter.Cycle cycleTwo =
        cycle(
            two,
            8,
            upserts(two, 4, List.of(row(3, "second")), List.of(3L, 5L)),
            appended(two, 6, 7));
    TableCommitter.Outcome unknown = committer.commit(cycleTwo);

    assertThat(unknown.failures().keySet()).containsExactlyInAnyOrder("db.orders", "db.audit");
    assertThat(unknown.failures().get("db.audit")).isInstanceOf(CommitStateUnknownException.class);
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 10; id++) {
      expected.put(id, "first");
    }
    expected.put(3L, "second");
    expected.remove(5L);
    assertThat(rows()).as("the landed commit's deletion vectors are there").isEqualTo(expected);

    TableCommitter.Outcome retried = committer().commit(cycleTwo);

    assertThat(retried.failures()).isEmpty();
    assertThat(retried.committed().get("db.orders").skipped()).isEqualTo(2);
    assertThat(retried.committed().get("db.audit").skipped()).isEqualTo(1);
    assertThat(server.transactions).hasValue(2);
    assertThat(rows()).isEqualTo(expected);
  }

  /**
   * The upsert table commits to a branch, the append table to main: the cycle is still one
   * transaction, its part of the upsert table (the branch created from main by the first) is
   * checked against the branch only, so another writer's appends to main conflict with nothing, and
   * main keeps its own rows and none of the cycle's.
   */
  @Test
  void aCycleOfATableOnABranchIsOneTransactionAndMainMovingMeanwhileDoesNotRefuseIt() {
    CommitBranch staging = CommitBranch.of("staging");
    TableCommitter committer =
        committer(table -> table.equals("db.orders") ? staging : CommitBranch.MAIN);
    appendByAnotherWriter(row(100, "main"));
    UUID one = UUID.randomUUID();
    Map<Long, String> expected = new TreeMap<>(Map.of(100L, "main"));
    List<Record> first = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      first.add(row(id, "first"));
      expected.put(id, "first");
    }
    TableCommitter.Outcome outcome =
        committer.commit(cycle(one, 4, upserts(one, 0, first, ids(0, 10)), appended(one, 2, 5)));
    assertThat(outcome.failures()).isEmpty();
    server.beforeTransaction =
        n -> {
          if (n == 2) {
            appendByAnotherWriter(row(200, "main"));
          }
        };

    UUID two = UUID.randomUUID();
    outcome =
        committer.commit(
            cycle(
                two,
                8,
                upserts(two, 4, List.of(row(3, "second")), List.of(3L, 5L, 100L)),
                appended(two, 6, 7)));

    assertThat(outcome.failures()).isEmpty();
    assertThat(server.transactions)
        .as("one transaction per cycle, the second refused once and built again")
        .hasValue(3);
    assertThat(server.tableCommits).hasValue(0);
    expected.put(3L, "second");
    expected.remove(5L);
    expected.remove(100L);
    Table orders = backend.loadTable(ORDERS);
    Snapshot branch = orders.snapshot(staging.name());
    assertThat(rows(branch.snapshotId())).isEqualTo(expected);
    assertThat(rows(orders.currentSnapshot().snapshotId()))
        .as("main: the other writer's rows, none of the cycles'")
        .isEqualTo(Map.of(100L, "main", 200L, "main"));
    assertThat(branch.summary()).containsEntry("floe.commit-id", two.toString());
    assertThat(outcome.committed().get("db.orders").snapshot().snapshotId())
        .isEqualTo(branch.snapshotId());
    assertThat(CommitMarks.latest(orders, GROUP, staging).orElseThrow().commitId())
        .isEqualTo(two.toString());
    assertThat(CommitMarks.latest(orders, GROUP, CommitBranch.MAIN)).isEmpty();
    assertThat(backend.loadTable(AUDIT).currentSnapshot().summary())
        .containsEntry("floe.commit-id", two.toString())
        .containsEntry("total-records", "12");
  }

  private TableCommitter committer() {
    return committer(table -> CommitBranch.MAIN);
  }

  private TableCommitter committer(java.util.function.Function<String, CommitBranch> branches) {
    return new TableCommitter(
        rest,
        GROUP,
        "orders",
        TOPIC,
        KeyIndexSettings.off(),
        branches,
        table -> java.util.Optional.empty(),
        ThreadPools.getWorkerPool());
  }

  /** A cycle of the upsert table's and the append table's events. */
  private static TableCommitter.Cycle cycle(
      UUID id, long position, List<PendingEvent> upserts, List<PendingEvent> appends) {
    List<PendingEvent> events = new ArrayList<>(upserts);
    events.addAll(appends);
    return new TableCommitter.Cycle(
        id,
        TableCommitter.byTable(events),
        Map.of(0, position),
        Map.of(new TopicPartition("orders", 0), position * 10),
        OptionalLong.of(5_000L),
        false);
  }

  /** A worker's hand-over to the append table: a manifest of one data file. */
  private List<PendingEvent> appended(UUID commitId, long controlOffset, long records) {
    audit.refresh();
    return List.of(
        new PendingEvent(
            0,
            controlOffset,
            TestManifests.manifest(audit, "db.audit", commitId, records).event()));
  }

  /**
   * A worker's hand-over to the upsert table: a data manifest of the final images and a key
   * manifest of the retired keys, as the events of one hand-over.
   */
  private List<PendingEvent> upserts(
      UUID commitId, long controlOffset, List<Record> images, List<Long> retired) {
    orders.refresh();
    UUID handOver = UUID.randomUUID();
    String prefix = orders.location() + "/metadata/floe-" + commitId + "-0-" + handOver + "-0";
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(orders, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    DataFile imageFile = writeRows(orders, outputs, images);
    ManifestWriter<DataFile> dataManifest =
        ManifestFiles.write(
            3, orders.spec(), orders.io().newOutputFile(prefix + "-s0-m.avro"), null);
    try (dataManifest) {
      dataManifest.add(imageFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Schema keySchema = orders.schema().select("id");
    EqualityDeleteWriter<Record> keys =
        new GenericFileWriterFactory.Builder(orders)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(keySchema)
            .build()
            .newEqualityDeleteWriter(outputs.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (keys) {
      for (long id : retired) {
        GenericRecord key = GenericRecord.create(keySchema);
        key.setField("id", id);
        keys.write(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ManifestWriter<DeleteFile> keyManifest =
        ManifestFiles.writeDeleteManifest(
            3,
            PartitionSpec.unpartitioned(),
            orders.io().newOutputFile(prefix + "-k-m.avro"),
            null);
    try (keyManifest) {
      keyManifest.add(keys.toDeleteFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.of(
        new PendingEvent(
            0,
            controlOffset,
            DataWritten.of(
                    commitId,
                    "db.orders",
                    orders.uuid(),
                    dataManifest.toManifestFile(),
                    imageFile.fileSizeInBytes())
                .withHandOverId(handOver)),
        new PendingEvent(
            0,
            controlOffset + 1,
            DataWritten.of(
                    commitId,
                    "db.orders",
                    orders.uuid(),
                    keyManifest.toManifestFile(),
                    keys.toDeleteFile().fileSizeInBytes())
                .withHandOverId(handOver)));
  }

  /** Another writer appends {@code row} to the upsert table, on the catalog behind the server. */
  private void appendByAnotherWriter(Record row) {
    Table table = backend.loadTable(ORDERS);
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 2, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    table.newAppend().appendFile(writeRows(table, outputs, List.of(row))).commit();
  }

  private static DataFile writeRows(Table table, OutputFileFactory outputs, List<Record> rows) {
    DataWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(table.schema())
            .build()
            .newDataWriter(outputs.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (writer) {
      rows.forEach(writer::write);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  /** The upsert table's rows by key, failing on a key held twice. */
  private Map<Long, String> rows() {
    return rows(backend.loadTable(ORDERS).currentSnapshot().snapshotId());
  }

  /** The upsert table's rows in {@code snapshotId} by key, failing on a key held twice. */
  private Map<Long, String> rows(long snapshotId) {
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(backend.loadTable(ORDERS)).useSnapshot(snapshotId).build()) {
      for (Record record : records) {
        Long id = (Long) record.getField("id");
        assertThat(rows.put(id, (String) record.getField("name"))).as("key %s", id).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The deletion vectors' files in the upsert table's folder. */
  private Set<String> deleteFilesOnDisk() {
    Path data = dir.resolve("warehouse").resolve("db").resolve("orders").resolve("data");
    try (Stream<Path> files = Files.walk(data)) {
      return files
          .filter(path -> path.toString().endsWith(".puffin"))
          .map(path -> path.toAbsolutePath().normalize().toString())
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The delete files any snapshot of the upsert table lists. */
  private Set<String> deleteFilesOfSnapshots() {
    Table table = backend.loadTable(ORDERS);
    Set<String> files = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
        try (CloseableIterable<DeleteFile> deletes =
            ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          deletes.forEach(
              file ->
                  files.add(
                      Path.of(file.location().replaceFirst("^file:", ""))
                          .toAbsolutePath()
                          .normalize()
                          .toString()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return files;
  }

  private static Record row(long id, String name) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("name", name);
    return record;
  }

  private static List<Long> ids(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }
}
