/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.eos.TableOracle;
import io.floe.it.stack.Await;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.HiveMetastore;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.MotoServer;
import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.Ports;
import io.floe.it.stack.PostgresServer;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.S3ProxyServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import io.floe.it.stack.SqliteCatalogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The config examples for real catalogs, pointed at real services, deploy and run: the catalog
 * clients, JDBC drivers and S3FileIO bundled in the zip load inside plugin isolation; those of the
 * Hive Metastore and Glue deliver every record once through a SIGKILL of the worker while records
 * flow.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class CatalogDeploymentIT {
  private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration DELIVERED = Duration.ofSeconds(90);

  private KafkaBroker broker;
  private S3ProxyServer s3;
  private ConnectWorker worker;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /**
   * The shared broker; a worker of its own, which defines no config provider, and which the Hive
   * and Glue tests kill.
   */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    s3 = services.own(S3ProxyServer.start());
    worker = services.own(startWorker());
  }

  private ConnectWorker startWorker() {
    return ConnectWorker.start(
        broker,
        PluginInstall.pluginPath(),
        new ConnectWorker.Options()
            .groupId("catalogs")
            // a killed worker leaves the group after 6 s, and its connector and tasks are given
            // to the worker started in its place at once, not after the usual delay
            .workerProperty("session.timeout.ms", "6000")
            .workerProperty("heartbeat.interval.ms", "2000")
            .workerProperty("scheduled.rebalance.max.delay.ms", "0")
            // Glue's client finds its keys through the AWS SDK's default chain
            .jvmOptions(MotoServer.credentialsJvmOptions()));
  }

  /** The example with its {@code iceberg.catalog.*} keys replaced by the given catalog's. */
  private Map<String, String> withCatalog(String example, Map<String, String> catalog) {
    return ConfigExamples.forStack(example, broker, catalog);
  }

  @Test
  void restCatalogOnS3ExampleRunsAgainstRealServices() throws Exception {
    try (RestCatalogServer rest = RestCatalogServer.withS3Warehouse(s3, "lakehouse")) {
      Map<String, String> config = withCatalog("rest-catalog-s3.json", rest.clientProperties());
      broker.createTopic(config.get("topics"), 2);
      worker.rest().putConnector(config.get("name"), config);
      worker.rest().awaitRunning(config.get("name"), 2, RUNNING_TIMEOUT);
      // this worker defines no config provider: the S3 keys can only be in clear text
      assertThat(Files.readString(worker.log()))
          .contains(
              "WARN Credentials given in clear text in iceberg.catalog.s3.access-key-id,"
                  + " iceberg.catalog.s3.secret-access-key: the Connect worker defines no config"
                  + " provider")
          .doesNotContain(S3ProxyServer.SECRET_KEY);
      worker.rest().deleteConnector(config.get("name"));
    }
  }

  @Test
  void jdbcOnPostgresExampleRunsAndCreatesTheCatalogTables() throws Exception {
    try (PostgresServer postgres = PostgresServer.start()) {
      Map<String, String> catalog =
          new java.util.HashMap<>(postgres.jdbcCatalogProperties("s3://lakehouse/pg"));
      catalog.putAll(s3.s3FileIoProperties());
      s3.createBucket("lakehouse");
      Map<String, String> config = withCatalog("jdbc-postgres.json", catalog);
      broker.createTopic(config.get("topics"), 2);
      worker.rest().putConnector(config.get("name"), config);
      worker.rest().awaitRunning(config.get("name"), 2, RUNNING_TIMEOUT);

      try (Connection sql = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
          Statement statement = sql.createStatement();
          ResultSet tables =
              statement.executeQuery(
                  "SELECT table_name FROM information_schema.tables"
                      + " WHERE table_name IN ('iceberg_tables', 'iceberg_namespace_properties')"
                      + " ORDER BY table_name")) {
        assertThat(tables.next()).isTrue();
        assertThat(tables.getString(1)).isEqualTo("iceberg_namespace_properties");
        assertThat(tables.next()).isTrue();
        assertThat(tables.getString(1)).isEqualTo("iceberg_tables");
      }
      worker.rest().deleteConnector(config.get("name"));
    }
  }

  /**
   * {@code hive-metastore.json} on a real Hive Metastore holding no database yet: the connector
   * creates the table's database as it starts, its two tasks the table, and HiveCatalog registers
   * both in the metastore and swaps the table's {@code metadata_location} under the metastore's
   * lock at each commit. While records flow, the worker is killed with SIGKILL inside a commit,
   * holding the table's lock, and another started in its place: its commits wait until the
   * metastore times out the dead worker's lock, and every record is in the table once.
   */
  @Test
  void hiveMetastoreExampleDeliversEveryRecordOnceThroughAWorkerKilledHoldingTheLock()
      throws Exception {
    TableIdentifier table =
        TableIdentifier.parse(ConfigExamples.load("hive-metastore.json").get("iceberg.tables"));
    // no database yet: the connector creates it before its two tasks create the table in it (two
    // creations of one database at once on a Hive Metastore 2.3 may delete the table's files)
    try (HiveMetastore hive = HiveMetastore.start()) {
      Map<String, String> config =
          ConfigExamples.withMetadataAndQuickCommits(
              withCatalog("hive-metastore.json", hive.catalogProperties()));
      // HiveCatalog heartbeats a lock it holds more often than the metastore times locks out, and
      // a commit waiting for the lock asks every second
      config.put("iceberg.hadoop.iceberg.hive.lock-heartbeat-interval-ms", "2000");
      config.put("iceberg.hadoop.iceberg.hive.lock-check-max-wait-ms", "1000");
      long markAtKill = hive.logFile().mark();
      Path firstWorkerLog = worker.log();
      AtomicLong deadLock = new AtomicLong();
      deliversEveryRecordOnceThroughAWorkerKill(
          config,
          () -> newestMetadataView(hive, table),
          () -> metastoreView(hive, table),
          killed -> deadLock.set(killHoldingTheLock(hive, killed)));
      hive.awaitLockTimedOut(deadLock.get(), markAtKill, Duration.ZERO);
      Catalog view = metastoreView(hive, table);

      assertThat(Files.readString(firstWorkerLog))
          .as("the database created by the connector as it started, before its tasks ran")
          .containsSubsequence(
              "Created namespace " + table.namespace() + " in catalog", "Created table " + table)
          .doesNotContain("lost its metadata");
      assertThat(hive.metadataLocation(table.namespace().toString(), table.name()).orElseThrow())
          .as("the table's metadata, in the warehouse the metastore gave its database")
          .startsWith(
              "file:" + hive.warehouse().resolve(table.namespace() + ".db").resolve(table.name()));
      // HiveCatalog's lock: a row of the metastore's HIVE_LOCKS on the table for every commit
      long locks =
          Files.readAllLines(hive.log()).stream()
              .filter(line -> line.contains("insert into HIVE_LOCKS"))
              .filter(line -> line.contains("'" + table.namespace() + "', '" + table.name() + "'"))
              .filter(line -> line.contains("'Iceberg-"))
              .count();
      long commits =
          StreamSupport.stream(view.loadTable(table).snapshots().spliterator(), false).count();
      // the kill may take the lock of the first commit, whose rows the new worker then commits with
      // the rest: one snapshot is as right as several
      assertThat(commits).as("commits").isPositive();
      assertThat(locks)
          .as("locks the metastore granted HiveCatalog on the table")
          .isGreaterThanOrEqualTo(commits);
    }
  }

  /**
   * Kills {@code worker} with SIGKILL once it holds a lock the metastore granted, inside a commit,
   * and returns the lock's id. The worker is frozen as soon as the metastore logs a lock granted;
   * if the lock was released meanwhile, it goes on until the next one.
   */
  private static long killHoldingTheLock(HiveMetastore hive, ConnectWorker worker) {
    for (int attempt = 0; attempt < 20; attempt++) {
      long mark = hive.logFile().mark();
      long lock = hive.awaitLockGranted(mark, DELIVERED);
      worker.freeze();
      // what the worker sent before it froze is served meanwhile
      Ports.sleep(Duration.ofSeconds(1));
      if (!hive.lockReleased(lock, mark)) {
        worker.kill();
        return lock;
      }
      worker.thaw();
    }
    throw new AssertionError("the worker released each of 20 locks before it was frozen");
  }

  /**
   * {@code glue.json} on moto's Glue and S3: GlueCatalog creates the database and the table and
   * commits through Glue's API, with the worker's keys from the AWS SDK's default chain, and every
   * record is in the table once through a SIGKILL of the worker while records flow. moto does not
   * enforce the table version a Glue commit is conditioned on, so this proves no concurrent commit
   * is refused.
   */
  @Test
  void glueExampleDeliversEveryRecordOnceThroughAWorkerKillOnMoto() throws Exception {
    try (MotoServer moto = MotoServer.start()) {
      moto.createBucket("glue-lake");
      Map<String, String> config =
          ConfigExamples.withMetadataAndQuickCommits(
              withCatalog("glue.json", moto.glueCatalogProperties("glue-lake")));
      Catalog glue = services.catalog("glue-reader", moto.readerProperties("glue-lake"));
      deliversEveryRecordOnceThroughAWorkerKill(
          config,
          () -> glue,
          () -> glue,
          killed -> {
            Ports.sleep(Duration.ofSeconds(1));
            killed.kill();
          });
      assertThat(glue.loadTable(TableIdentifier.parse(config.get("iceberg.tables"))).location())
          .startsWith("s3://glue-lake/warehouse/");
    }
  }

  /**
   * Deploys {@code config} (its topic of 2 partitions), sends 40 records and waits for them, then
   * sends batches of 10 every 300 ms while {@code kill} kills the worker with SIGKILL, and three
   * more after it, starting another worker in its place; asserts that the table of {@code config},
   * read through {@code reader}, holds every record exactly once. {@code progress} is read while
   * waiting for the rows.
   */
  private void deliversEveryRecordOnceThroughAWorkerKill(
      Map<String, String> config,
      Supplier<Catalog> progress,
      Supplier<Catalog> reader,
      Consumer<ConnectWorker> kill)
      throws Exception {
    // the killed worker's sink consumers leave their group after 6 s, not the default 45 s
    config.put("consumer.override.session.timeout.ms", "6000");
    String name = config.get("name");
    String topic = config.get("topics");
    int tasks = Integer.parseInt(config.get("tasks.max"));
    TableIdentifier table = TableIdentifier.parse(config.get("iceberg.tables"));
    broker.createTopic(topic, 2);
    worker.rest().putConnector(name, config);
    worker.rest().awaitRunning(name, tasks, RUNNING_TIMEOUT);
    try (KafkaProducer<String, String> producer = broker.stringProducer();
        Admin admin = broker.admin()) {
      sendRecords(producer, topic, 0, 40);
      awaitRows(progress, table, 40);
      AtomicBoolean killed = new AtomicBoolean();
      CompletableFuture<Long> flowing =
          CompletableFuture.supplyAsync(
              () -> {
                long next = 40;
                for (int afterKill = 0; afterKill < 3; next += 10) {
                  afterKill += killed.get() ? 1 : 0;
                  sendRecords(producer, topic, next, next + 10);
                  Ports.sleep(Duration.ofMillis(300));
                }
                return next;
              });
      try {
        kill.accept(worker);
      } finally {
        killed.set(true);
      }
      worker = services.own(startWorker());
      long sent = flowing.get();
      worker.rest().awaitRunning(name, tasks, RUNNING_TIMEOUT);
      awaitRows(progress, table, sent);
      new TableOracle(reader.get(), List.of(table.toString()))
          .assertExactlyOnce(admin, "connect-" + name, topic, sent);
    } finally {
      worker.rest().deleteConnector(name);
    }
  }

  /** Schema'd JSON records with ids {@code from} (inclusive) to {@code to}, keyed by id. */
  private static void sendRecords(
      KafkaProducer<String, String> producer, String topic, long from, long to) {
    for (long id = from; id < to; id++) {
      producer.send(
          new ProducerRecord<>(
              topic,
              Long.toString(id),
              "{\"schema\":{\"type\":\"struct\",\"fields\":["
                  + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
                  + "{\"field\":\"page\",\"type\":\"string\",\"optional\":true}]},"
                  + "\"payload\":{\"id\":"
                  + id
                  + ",\"page\":\"/p/"
                  + id
                  + "\"}}"));
    }
    producer.flush();
  }

  private void awaitRows(Supplier<Catalog> reader, TableIdentifier table, long expected) {
    Await.untilAtLeast(
        "rows of " + table,
        DELIVERED,
        () -> {
          try {
            return TableOracle.totalRecords(reader.get(), List.of(table));
          } catch (org.apache.iceberg.exceptions.NotFoundException deletedSinceRead) {
            // the newest metadata file of a create that lost to another task's, deleted by its
            // writer since the view read it (newestMetadataView): the next look finds the table
            return 0L;
          }
        },
        expected);
  }

  /**
   * A catalog holding only {@code table} at the metadata file last written in its folder, to follow
   * the commits without asking the metastore each time: a commit's file is written before the
   * metastore points to it, so the assertions read the metastore's pointer ({@link
   * #metastoreView}). By the time written, not by the name: a worker killed inside a commit leaves
   * a file of the version the next commit takes again.
   */
  private Catalog newestMetadataView(HiveMetastore hive, TableIdentifier table) {
    Path metadata =
        hive.warehouse()
            .resolve(table.namespace() + ".db")
            .resolve(table.name())
            .resolve("metadata");
    Catalog view = services.catalog("newest-metadata", SqliteCatalogs.inNewServiceDir());
    if (Files.isDirectory(metadata)) {
      try (Stream<Path> files = Files.list(metadata)) {
        List<Path> newestFirst =
            files
                .filter(file -> file.getFileName().toString().endsWith(".metadata.json"))
                .sorted(Comparator.comparing(CatalogDeploymentIT::lastModified).reversed())
                .toList();
        if (!newestFirst.isEmpty()) {
          ((SupportsNamespaces) view).createNamespace(Namespace.of(table.namespace().levels()));
        }
        for (Path file : newestFirst) {
          try {
            view.registerTable(table, file.toUri().toString());
            break;
          } catch (org.apache.iceberg.exceptions.RuntimeIOException stillBeingWritten) {
            // the metastore's side writes the file in place on the local disk: one read while it
            // is written finds it short; the one before it is whole
          } catch (org.apache.iceberg.exceptions.NotFoundException deletedSinceListed) {
            // a commit that failed (a table created by two tasks at once) deletes its file
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return view;
  }

  private static FileTime lastModified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A catalog holding only {@code table} at the metadata the metastore points to now, read through
   * a Hive client: the test JVM reads the table's files with Iceberg, and its state from the
   * metastore.
   */
  private Catalog metastoreView(HiveMetastore hive, TableIdentifier table) {
    Catalog view = services.catalog("metastore-view", SqliteCatalogs.inNewServiceDir());
    hive.metadataLocation(table.namespace().toString(), table.name())
        .ifPresent(
            location -> {
              ((SupportsNamespaces) view).createNamespace(Namespace.of(table.namespace().levels()));
              view.registerTable(table, location);
            });
    return view;
  }
}
