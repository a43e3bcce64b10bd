/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves the test stack's catalogs and object store work with exactly the connection properties
 * they hand to a connector: each test builds a catalog with {@code CatalogUtil.buildIcebergCatalog}
 * from those properties, creates a day-partitioned v2 table, appends a Parquet file and reads the
 * rows back.
 */
class CatalogStackIT {
  private static final Namespace NAMESPACE = Namespace.of("floe_it");
  private static final TableIdentifier TABLE = TableIdentifier.of(NAMESPACE, "events");
  private static final String BUCKET = "warehouse";

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "ts", Types.TimestampType.withZone()));
  private static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).day("ts").build();

  private static final List<Row> ROWS =
      List.of(
          new Row(1L, "first", OffsetDateTime.of(2026, 12, 1, 0, 0, 0, 0, ZoneOffset.UTC)),
          new Row(
              2L,
              "second",
              OffsetDateTime.of(2026, 12, 1, 12, 30, 15, 123_456_000, ZoneOffset.UTC)),
          new Row(
              3L, null, OffsetDateTime.of(2026, 12, 1, 23, 59, 59, 999_999_000, ZoneOffset.UTC)));

  /** One table row as the test writes and expects it. */
  private record Row(long id, String name, OffsetDateTime ts) {}

  @Test
  void restCatalogOnS3ProxyKeepsMetadataAndDataInTheBucket() {
    try (S3ProxyServer s3 = S3ProxyServer.start();
        RestCatalogServer rest = RestCatalogServer.withS3Warehouse(s3, BUCKET)) {
      report("S3Proxy", s3.startupMillis());
      report("REST catalog", rest.startupMillis());
      DataFile file = writeAndReadBack("rest", rest.clientProperties());

      assertThat(file.location()).startsWith("s3://" + BUCKET + "/rest/floe_it/events/data/");
      assertStoredInBucket(s3, file, "rest/floe_it/events/");
    }
  }

  @Test
  void restCatalogOnALocalWarehouseWritesFilesUnderItsFolder() {
    try (RestCatalogServer rest = RestCatalogServer.withLocalWarehouse()) {
      report("REST catalog", rest.startupMillis());
      DataFile file = writeAndReadBack("rest_local", rest.clientProperties());

      assertThat(Path.of(file.location())).startsWith(rest.dir().resolve("warehouse")).exists();
    }
  }

  @Test
  void restCatalogAnswersConfigOnLoopbackOnly() throws IOException, InterruptedException {
    try (RestCatalogServer rest = RestCatalogServer.withLocalWarehouse()) {
      report("REST catalog", rest.startupMillis());
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(rest.uri().resolve("/v1/config")).GET().build(),
                  HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body())
          .contains("\"defaults\"")
          .contains("\"overrides\"")
          .contains("POST /v1/{prefix}/namespaces/{namespace}/tables");
      assertThat(rest.uri().getHost()).isEqualTo(Ports.LOOPBACK);
      assertNotReachableFromOtherAddresses(rest.uri().getPort());
    }
  }

  @Test
  void jdbcCatalogOnSqliteWritesALocalWarehouse() {
    Map<String, String> props = SqliteCatalogs.inNewServiceDir();
    DataFile file = writeAndReadBack("sqlite", props);

    assertThat(Path.of(file.location())).startsWith(Path.of(props.get("warehouse"))).exists();
    assertThat(Path.of(props.get("uri").substring("jdbc:sqlite:".length()))).isRegularFile();
  }

  @Test
  void jdbcCatalogOnPostgresKeepsDataInS3Proxy() throws SQLException {
    try (PostgresServer postgres = PostgresServer.start();
        S3ProxyServer s3 = S3ProxyServer.start()) {
      report("PostgreSQL", postgres.startupMillis());
      report("S3Proxy", s3.startupMillis());
      s3.createBucket(BUCKET);
      Map<String, String> props =
          new LinkedHashMap<>(postgres.jdbcCatalogProperties("s3://" + BUCKET + "/pg"));
      props.putAll(s3.s3FileIoProperties());

      DataFile file = writeAndReadBack("pg", props);

      assertStoredInBucket(s3, file, "pg/floe_it/events/");
      assertThat(tablesInPostgres(postgres)).containsExactly("floe_it.events");
      assertNotReachableFromOtherAddresses(postgres.port());
    }
  }

  @Test
  void postgresFromTheMavenBinariesStopsOnCloseAndCloseIsIdempotent() throws SQLException {
    PostgresServer postgres = PostgresServer.start();
    report("PostgreSQL", postgres.startupMillis());
    int port = postgres.port();
    assertThat(Ports.isOpen(port)).isTrue();
    try (Connection sql = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
        Statement statement = sql.createStatement();
        ResultSet version = statement.executeQuery("SHOW server_version")) {
      assertThat(version.next()).isTrue();
      assertThat(version.getString(1)).startsWith("17.");
    }

    postgres.close();
    postgres.close();

    assertThat(Ports.isOpen(port)).isFalse();
    assertThat(postgres.baseDir()).doesNotExist();
    assertThat(postgres.dir().resolve("postgres.log")).isRegularFile();
  }

  @ParameterizedTest(name = "http-client.type={0}")
  @ValueSource(strings = {"urlconnection", "apache"})
  void s3FileIoWritesReadsListsAndDeletesWithEitherHttpClient(String httpClientType)
      throws IOException {
    try (S3ProxyServer s3 = S3ProxyServer.start()) {
      report("S3Proxy", s3.startupMillis());
      s3.createBucket(BUCKET);
      Map<String, String> props = new LinkedHashMap<>(s3.s3FileIoProperties());
      props.put("http-client.type", httpClientType);
      byte[] bytes = new byte[300_000];
      new Random(42).nextBytes(bytes);
      String location = "s3://" + BUCKET + "/io/" + httpClientType + "/blob.bin";

      try (S3FileIO io = new S3FileIO()) {
        io.initialize(props);
        OutputFile out = io.newOutputFile(location);
        try (PositionOutputStream stream = out.create()) {
          stream.write(bytes);
        }
        assertThat(readAll(io.newInputFile(location))).isEqualTo(bytes);
        List<FileInfo> listed = new ArrayList<>();
        io.listPrefix("s3://" + BUCKET + "/io/" + httpClientType + "/").forEach(listed::add);
        assertThat(listed)
            .singleElement()
            .satisfies(info -> assertThat(info.size()).isEqualTo(bytes.length));
        io.deleteFile(location);
      }
      assertThat(s3.listObjects(BUCKET, "io/")).isEmpty();
    }
  }

  /** Creates the namespace and table, appends one Parquet file, and checks the rows read back. */
  private static DataFile writeAndReadBack(String catalogName, Map<String, String> props) {
    Catalog catalog = CatalogUtil.buildIcebergCatalog(catalogName, props, new Configuration(false));
    try {
      assertThat(catalog).isInstanceOf(SupportsNamespaces.class);
      ((SupportsNamespaces) catalog).createNamespace(NAMESPACE);
      Table table = catalog.createTable(TABLE, SCHEMA, SPEC, Map.of("format-version", "2"));
      DataFile file = writeParquet(table, ROWS);
      table.newAppend().appendFile(file).commit();

      Table reloaded = catalog.loadTable(TABLE);
      assertThat(TableUtil.formatVersion(reloaded)).isEqualTo(2);
      assertThat(reloaded.spec().fields())
          .singleElement()
          .satisfies(field -> assertThat(field.transform().toString()).isEqualTo("day"));
      Snapshot snapshot = reloaded.currentSnapshot();
      assertThat(snapshot.summary())
          .containsEntry("added-data-files", "1")
          .containsEntry("added-records", "3")
          .containsEntry("total-records", "3");
      assertThat(readRows(reloaded)).containsExactlyInAnyOrderElementsOf(ROWS);
      assertThat(((SupportsNamespaces) catalog).listNamespaces()).contains(NAMESPACE);
      return file;
    } finally {
      close(catalog);
    }
  }

  private static DataFile writeParquet(Table table, List<Row> rows) {
    GenericRecord template = GenericRecord.create(table.schema());
    List<Record> records = new ArrayList<>();
    for (Row row : rows) {
      Record record = template.copy();
      record.setField("id", row.id());
      record.setField("name", row.name());
      record.setField("ts", row.ts());
      records.add(record);
    }
    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
    partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(records.get(0)));
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation(table.spec(), partition, UUID.randomUUID() + ".parquet"));
    try {
      DataWriter<Record> writer =
          Parquet.writeData(out)
              .schema(table.schema())
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(table.spec())
              .withPartition(partition)
              .overwrite()
              .build();
      try (writer) {
        records.forEach(writer::write);
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + out.location(), e);
    }
  }

  private static List<Row> readRows(Table table) {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows.add(
            new Row(
                (Long) record.getField("id"),
                (String) record.getField("name"),
                (OffsetDateTime) record.getField("ts")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name(), e);
    }
    return rows;
  }

  /** The data file and the table metadata are objects in the bucket, listed over S3. */
  private static void assertStoredInBucket(S3ProxyServer s3, DataFile file, String tablePrefix) {
    String key = file.location().substring(("s3://" + BUCKET + "/").length());
    Map<String, Long> objects = s3.listObjects(BUCKET, tablePrefix);
    assertThat(objects).containsEntry(key, file.fileSizeInBytes());
    assertThat(objects.keySet())
        .anySatisfy(k -> assertThat(k).startsWith(tablePrefix + "metadata/").endsWith(".json"))
        .anySatisfy(k -> assertThat(k).startsWith(tablePrefix + "metadata/snap-"));
    // the stored bytes are the plain file, not the SDK's aws-chunked upload framing
    assertThat(s3.dir().resolve("blobs").resolve(BUCKET).resolve(key))
        .isRegularFile()
        .hasSize(file.fileSizeInBytes());
  }

  private static List<String> tablesInPostgres(PostgresServer postgres) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection =
            DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
        Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery("SELECT table_namespace, table_name FROM iceberg_tables")) {
      while (rs.next()) {
        tables.add(rs.getString(1) + "." + rs.getString(2));
      }
    }
    return tables;
  }

  /** Nothing answers on the port at this machine's other IPv4 addresses. */
  private static void assertNotReachableFromOtherAddresses(int port) {
    for (InetAddress address : otherAddresses()) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(address, port), 500);
        throw new AssertionError("Port " + port + " answers on " + address);
      } catch (IOException expected) {
        // refused: the service listens on 127.0.0.1 only
      }
    }
  }

  private static List<InetAddress> otherAddresses() {
    try {
      List<InetAddress> addresses = new ArrayList<>();
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        Collections.list(nic.getInetAddresses()).stream()
            .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
            .forEach(addresses::add);
      }
      return addresses;
    } catch (SocketException e) {
      throw new UncheckedIOException("Cannot list network interfaces", e);
    }
  }

  private static byte[] readAll(InputFile file) throws IOException {
    try (SeekableInputStream in = file.newStream()) {
      return in.readAllBytes();
    }
  }

  private static void report(String service, long millis) {
    System.out.printf("[stack] %s started in %d ms%n", service, millis);
  }

  private static void close(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close catalog " + catalog.name(), e);
      }
    }
  }
}
