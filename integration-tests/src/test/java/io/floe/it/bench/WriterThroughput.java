/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static io.floe.it.bench.BenchRows.SCHEMA;
import static io.floe.it.bench.BenchRows.T0;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.ContractChecker;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.TableFiles;
import io.floe.connect.write.TableWriter;
import io.floe.connect.write.WriterPool;
import io.floe.connect.write.WriterPoolOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Writes the same pre-built rows into a day-partitioned table on local disk in several ways, a
 * warm-up and then {@code runs} rounds (each in a rotated order), and prints rows/s, MB/s,
 * allocation, the heap the open writers hold and the ratio to Iceberg's plain Parquet {@link
 * DataWriter}. Args: rows, runs, work directory and, optionally, the one way to run. Exits non-zero
 * if any way loses a row.
 */
final class WriterThroughput {
  /** Records of one source partition in a row, as a consumer fetch delivers them. */
  private static final int RUN_LENGTH = 500;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final List<MemoryPoolMXBean> HEAP = BenchRows.heapPools();

  /** The way that is Iceberg's Parquet writer alone: the in-process ceiling. */
  static final String RAW_PARQUET = "Iceberg Parquet DataWriter per day";

  /** The raw writer with the compression Floe's tasks write with (zstd level 1). */
  static final String RAW_PARQUET_AS_FLOE_WRITES = RAW_PARQUET + ", zstd level 1";

  /**
   * Floe's whole write path in process: Connect records (the rows as the converter hands them over,
   * pre-built) in batches of 500, routed, converted, their offsets tracked and written by a {@link
   * SinkWriter} as a task builds it, then handed over.
   */
  static final String SINK_WRITER = "Floe SinkWriter from Connect records";

  /** The SinkWriter way handed over every 100,000 records, as commit cycles would. */
  static final String SINK_WRITER_CYCLES = SINK_WRITER + ", a hand-over every 100,000";

  /**
   * The raw writer on rows that hold Iceberg's internal values (a timestamp as its microseconds)
   * through Iceberg's {@code InternalWriter}: what writing without a generic {@link Record} per row
   * could save, the rows converted once before the timed passes.
   */
  static final String INTERNAL_ROWS =
      "Iceberg Parquet InternalWriter per day, internal rows, zstd level 1";

  /** The rows of {@link #INTERNAL_ROWS}, converted once. */
  private static List<Record> internalRows;

  /** One way's figures in the summary: median rows/s and the writing thread's CPU µs per row. */
  record Way(String name, double rowsPerSecond, double cpuMicrosPerRow) {}

  /** Called once the last row is written, before the files are closed; not timed. */
  static final class Probe {
    private final boolean measuresHeap;
    private long pausedNanos;
    private long liveBytes;
    private String note = "";

    Probe(boolean measuresHeap) {
      this.measuresHeap = measuresHeap;
    }

    void beforeClose(String detail) {
      if (!measuresHeap) {
        note = detail;
        return;
      }
      long start = System.nanoTime();
      liveBytes = BenchRows.liveHeap(HEAP);
      note = detail;
      pausedNanos += System.nanoTime() - start;
    }
  }

  interface Variant {
    List<DataFile> write(Table table, List<Record> rows, Probe probe) throws IOException;
  }

  private WriterThroughput() {}

  public static void main(String[] args) throws IOException {
    int rowCount = Integer.parseInt(args[0]);
    int runs = Integer.parseInt(args[1]);
    Path work = Path.of(args[2]);
    List<Record> rows = BenchRows.rows(rowCount, 42);
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put(RAW_PARQUET, WriterThroughput::rawParquet);
    parquetSetting(
        variants, RAW_PARQUET_AS_FLOE_WRITES, Map.of("write.parquet.compression-level", "1"));
    variants.put("Iceberg FanoutDataWriter", WriterThroughput::icebergFanout);
    variants.put(
        INTERNAL_ROWS,
        (table, given, probe) -> {
          table.updateProperties().set("write.parquet.compression-level", "1").commit();
          return internalParquet(table, given, probe);
        });
    WriterPoolOptions defaults = WriterPoolOptions.defaults();
    WriterPoolOptions large = new WriterPoolOptions(512L << 20, defaults.maxOpenFiles());
    variants.put("Floe TableWriter, 1 source partition", (t, r, p) -> floe(t, r, p, 1, defaults));
    variants.put(
        "Floe TableWriter, 1 source partition, 10-rule contract",
        (t, r, p) -> floeWithContract(t, r, p, defaults));
    variants.put("Floe TableWriter, 4 source partitions", (t, r, p) -> floe(t, r, p, 4, defaults));
    variants.put(SINK_WRITER, WriterThroughput::sinkWriter);
    variants.put(SINK_WRITER_CYCLES, (t, r, p) -> sinkWriter(t, r, p, 100_000, Map.of()));
    variants.put(
        SINK_WRITER_CYCLES + ", dictionaries pinned",
        (t, r, p) -> sinkWriter(t, r, p, 100_000, dictionariesPinned(t.schema())));
    variants.put("Floe, 4 source partitions, 512 MiB budget", (t, r, p) -> floe(t, r, p, 4, large));
    variants.put(
        "Floe, 4 source partitions, shared files",
        (t, r, p) -> floe(t, r, p, 4, defaults.withSharedFiles(true)));
    if (args.length > 3 && args[3].equals("parquet-settings")) {
      // the raw writer under table properties that trade CPU for bytes
      variants.clear();
      variants.put(RAW_PARQUET + " (zstd, Iceberg's default)", WriterThroughput::rawParquet);
      parquetSetting(variants, "zstd level 1", Map.of("write.parquet.compression-level", "1"));
      parquetSetting(variants, "snappy", Map.of("write.parquet.compression-codec", "snappy"));
      parquetSetting(
          variants, "uncompressed", Map.of("write.parquet.compression-codec", "uncompressed"));
      parquetSetting(
          variants,
          "no dictionary for order_uuid and note",
          Map.of(
              "write.parquet.dict-encoding-enabled.column.order_uuid", "false",
              "write.parquet.dict-encoding-enabled.column.note", "false"));
      parquetSetting(variants, "page v2", Map.of("write.parquet.page-version", "v2"));
    } else if (args.length > 3 && !args[3].equals("all")) {
      // only the ways named by the fourth argument, separated by semicolons, in that order
      Map<String, Variant> named = new LinkedHashMap<>();
      for (String way : args[3].split(";")) {
        if (variants.containsKey(way)) {
          named.put(way, variants.get(way));
        }
      }
      variants.clear();
      variants.putAll(named);
    }
    System.out.printf(
        "%,d rows of 12 fields, day(ts) over %d days; the rows hold %,d MiB; heap %,d MiB%n",
        rowCount,
        BenchRows.DAYS,
        BenchRows.liveHeap(HEAP) >> 20,
        Runtime.getRuntime().maxMemory() >> 20);
    Map.Entry<String, Variant> firstWay = variants.entrySet().iterator().next();
    cold(firstWay.getValue(), rows, firstWay.getKey(), work);
    for (Map.Entry<String, Variant> variant : variants.entrySet()) {
      measure(variant.getValue(), rows, "warm-up: " + variant.getKey(), work);
    }
    Map<String, double[]> rates = new LinkedHashMap<>();
    variants.keySet().forEach(name -> rates.put(name, new double[runs]));
    // the writing thread's CPU per row (the writers encode and compress on it): what a busy
    // machine disturbs least
    Map<String, double[]> cpu = new LinkedHashMap<>();
    variants.keySet().forEach(name -> cpu.put(name, new double[runs]));
    List<String> order = new ArrayList<>(variants.keySet());
    for (int run = 0; run < runs; run++) {
      for (String name : order) {
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        rates.get(name)[run] = measure(variants.get(name), rows, name, work);
        cpu.get(name)[run] = (THREADS.getCurrentThreadCpuTime() - cpuBefore) / 1e3 / rows.size();
      }
      Collections.rotate(order, 1);
    }
    double[] first = rates.values().iterator().next();
    System.out.printf(
        "%nWriterBench: %d runs; the best run is the figure least disturbed by other load%n", runs);
    double[] firstCpu = cpu.values().iterator().next();
    rates.forEach(
        (name, values) ->
            System.out.printf(
                "  %-44s median %,9.0f rows/s (%.2f)   best %,9.0f rows/s (%.2f)   CPU %.2f µs/row"
                    + " (%.2f)%n",
                name,
                median(values),
                median(values) / median(first),
                best(values),
                best(values) / best(first),
                median(cpu.get(name)),
                median(cpu.get(name)) / median(firstCpu)));
  }

  /** The raw writer with {@code properties} set on the table first. */
  private static void parquetSetting(
      Map<String, Variant> variants, String name, Map<String, String> properties) {
    variants.put(
        name.startsWith(RAW_PARQUET) ? name : RAW_PARQUET + " (" + name + ")",
        (table, rows, probe) -> {
          var update = table.updateProperties();
          properties.forEach(update::set);
          update.commit();
          return rawParquet(table, rows, probe);
        });
  }

  /**
   * The first way once in this fresh JVM, before any warm-up: the whole process's CPU per row (the
   * writing thread, the JIT compiler threads compiling the writer's code, the GC), what writing the
   * rows costs a JVM that has not written any yet, as a fresh Connect worker has not.
   */
  private static void cold(Variant variant, List<Record> rows, String name, Path work)
      throws IOException {
    Path location = work.resolve("t-" + UUID.randomUUID());
    Table table = dayPartitioned(location);
    var process =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    long cpuBefore = process.getProcessCpuTime();
    long start = System.nanoTime();
    List<DataFile> files = variant.write(table, rows, new Probe(false));
    double seconds = (System.nanoTime() - start) / 1e9;
    long cpuNanos = process.getProcessCpuTime() - cpuBefore;
    long jitMillis = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore;
    long written = files.stream().mapToLong(DataFile::recordCount).sum();
    if (written != rows.size()) {
      throw new IllegalStateException(name + " wrote " + written + " of " + rows.size() + " rows");
    }
    System.out.printf(
        "cold: %s: %,.0f rows/s, process CPU %.2f µs/row (all threads), JIT %,d ms%n",
        name, rows.size() / seconds, cpuNanos / 1e3 / rows.size(), jitMillis);
    deleteRecursively(location);
  }

  /** The suffix of the name of a way's cold pass in {@link #summary}. */
  static final String COLD = ", cold (process CPU, JIT and GC included)";

  /**
   * Every way of the summary that {@link #main} printed, in its order, then the cold pass of the
   * first way (its CPU the whole process's), named with {@link #COLD}.
   */
  static List<Way> summary(String output) {
    java.util.regex.Matcher matcher =
        java.util.regex.Pattern.compile(
                "(?m)^  (\\S.*?) +median +([0-9,]+) rows/s .* CPU ([0-9.]+) \\S+/row")
            .matcher(output.substring(output.indexOf("WriterBench: ")));
    List<Way> ways = new ArrayList<>();
    while (matcher.find()) {
      ways.add(
          new Way(
              matcher.group(1),
              Double.parseDouble(matcher.group(2).replace(",", "")),
              Double.parseDouble(matcher.group(3))));
    }
    if (ways.isEmpty()) {
      throw new IllegalStateException("No summary in the writer benchmark's output");
    }
    java.util.regex.Matcher cold =
        java.util.regex.Pattern.compile(
                "(?m)^cold: (.*): ([0-9,]+) rows/s, process CPU ([0-9.]+) µs/row")
            .matcher(output);
    if (cold.find()) {
      ways.add(
          new Way(
              cold.group(1) + COLD,
              Double.parseDouble(cold.group(2).replace(",", "")),
              Double.parseDouble(cold.group(3))));
    }
    return ways;
  }

  private static double best(double[] values) {
    return Arrays.stream(values).max().orElseThrow();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** A new table of the benchmark's rows, partitioned by day, at {@code location}. */
  private static Table dayPartitioned(Path location) {
    return new HadoopTables(new Configuration())
        .create(SCHEMA, PartitionSpec.builderFor(SCHEMA).day("ts").build(), location.toString());
  }

  private static double measure(Variant variant, List<Record> rows, String name, Path work)
      throws IOException {
    Path location = work.resolve("t-" + UUID.randomUUID());
    Table table = dayPartitioned(location);
    long baseline = BenchRows.liveHeap(HEAP);
    HEAP.forEach(MemoryPoolMXBean::resetPeakUsage);
    Probe probe = new Probe(true);
    long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
    long start = System.nanoTime();
    List<DataFile> files = variant.write(table, rows, probe);
    double seconds = (System.nanoTime() - start - probe.pausedNanos) / 1e9;
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
    long jitMillis = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore;
    long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    long written = files.stream().mapToLong(DataFile::recordCount).sum();
    if (written != rows.size()) {
      throw new IllegalStateException(name + " wrote " + written + " of " + rows.size() + " rows");
    }
    double rate = rows.size() / seconds;
    System.out.printf(
        "%-46s %,9.0f rows/s %5.1f MB/s %3d files %5.1f B/row in files %,5d B/row allocated;"
            + " writers hold %,4d MiB, peak heap %,5d MiB, JIT %,d ms%s%n",
        name,
        rate,
        bytes / 1e6 / seconds,
        files.size(),
        bytes / (double) rows.size(),
        allocated / rows.size(),
        Math.max(0, probe.liveBytes - baseline) >> 20,
        BenchRows.peakHeap(HEAP) >> 20,
        jitMillis,
        probe.note);
    deleteRecursively(location);
    return rate;
  }

  /**
   * A contract of ten rules on the benchmark's rows, which every row keeps: what the write path
   * checks on each converted row of a table with this contract.
   */
  static final String CONTRACT =
      """
      id: bench-orders
      version: 1
      schema:
        - name: orders
          properties:
            - {name: id, logicalType: integer, required: true, logicalTypeOptions: {minimum: 0}}
            - {name: quantity, logicalType: integer, logicalTypeOptions: {minimum: 1, maximum: 20}}
            - {name: amount, logicalType: number, logicalTypeOptions: {minimum: 0}}
            - name: country
              logicalType: string
              enum: [DE, FR, NL, US, GB, PL, SE, ES, IT, JP]
            - {name: order_uuid, logicalType: string, logicalTypeOptions: {pattern: "^[0-9a-f-]{36}$"}}
            - {name: customer, logicalType: string, logicalTypeOptions: {maxLength: 20}}
            - {name: address.zip, logicalType: integer, logicalTypeOptions: {minimum: 10000}}
            - {name: ts, logicalType: timestamp, logicalTypeOptions: {minimum: "2020-01-01T00:00:00Z"}}
      """;

  /** {@link #floe} of one source partition, each row checked against {@link #CONTRACT} first. */
  private static List<DataFile> floeWithContract(
      Table table, List<Record> rows, Probe probe, WriterPoolOptions options) {
    ContractChecker checker =
        ContractChecker.compile("bench.orders", Contract.parse(CONTRACT), table.schema());
    return floe(table, rows, probe, 1, options, checker);
  }

  private static List<DataFile> floe(
      Table table, List<Record> rows, Probe probe, int sources, WriterPoolOptions options) {
    return floe(table, rows, probe, sources, options, null);
  }

  private static List<DataFile> floe(
      Table table,
      List<Record> rows,
      Probe probe,
      int sources,
      WriterPoolOptions options,
      ContractChecker checker) {
    try (WriterPool pool = new WriterPool(options, Map.of(), 0)) {
      TableWriter writer = pool.writerFor(TableIdentifier.of("bench", "orders"), id -> table);
      TopicPartition[] partitions = new TopicPartition[sources];
      Arrays.setAll(partitions, p -> new TopicPartition("orders", p));
      long offset = 0;
      for (Record row : rows) {
        if (checker != null) {
          checker.check(row);
        }
        writer.write(partitions[(int) (offset / RUN_LENGTH % sources)], offset, T0, row);
        offset++;
      }
      probe.beforeClose(
          String.format(
              "; estimate %,d MiB, %d files closed by the budget",
              pool.stats().bufferedBytesEstimate() >> 20, pool.stats().filesClosedForMemory()));
      List<DataFile> files = new ArrayList<>();
      pool.complete().forEach(w -> files.addAll(w.dataFiles()));
      return files;
    }
  }

  private static List<SinkRecord> sinkRecords;

  /** The rows as Connect records of 4 source partitions, runs of 500; built once, not timed. */
  private static synchronized List<SinkRecord> sinkRecords(List<Record> rows) {
    if (sinkRecords == null || sinkRecords.size() != rows.size()) {
      List<SinkRecord> records = new ArrayList<>(rows.size());
      long offset = 0;
      for (Record row : rows) {
        records.add(
            new SinkRecord(
                "orders",
                (int) (offset / RUN_LENGTH % 4),
                null,
                null,
                BenchEvents.ORDER,
                BenchEvents.toStruct(row),
                offset,
                T0 + offset,
                TimestampType.CREATE_TIME));
        offset++;
      }
      sinkRecords = records;
    }
    return sinkRecords;
  }

  private static List<DataFile> sinkWriter(Table table, List<Record> rows, Probe probe) {
    return sinkWriter(table, rows, probe, Integer.MAX_VALUE, Map.of());
  }

  /**
   * Every leaf column's dictionary set on: what the writer learns of abandoned dictionaries left
   * out (a column the table sets a dictionary property for is left as set).
   */
  private static Map<String, String> dictionariesPinned(org.apache.iceberg.Schema schema) {
    Map<String, String> properties = new HashMap<>();
    for (org.apache.iceberg.types.Types.NestedField field :
        org.apache.iceberg.types.TypeUtil.indexById(schema.asStruct()).values()) {
      if (field.type().isPrimitiveType()) {
        properties.put(
            org.apache.iceberg.TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX
                + schema.findColumnName(field.fieldId()),
            "true");
      }
    }
    return properties;
  }

  /**
   * The SinkWriter way, handed over every {@code cycle} records as a commit cycle would, on a table
   * with {@code properties}.
   */
  private static List<DataFile> sinkWriter(
      Table table, List<Record> rows, Probe probe, int cycle, Map<String, String> properties) {
    List<SinkRecord> records = sinkRecords(rows);
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), table.location() + "/catalog");
    TableIdentifier id = TableIdentifier.of("bench", "orders");
    catalog.createTable(id, table.schema(), table.spec(), properties);
    // the catalog is handed to the writer; the type only makes the config complete
    FloeSinkConfig config =
        new FloeSinkConfig(Map.of("iceberg.tables", id.toString(), "iceberg.catalog.type", "rest"));
    SinkWriter.RecordOutcomes outcomes =
        new SinkWriter.RecordOutcomes() {
          @Override
          public void tombstone(SinkRecord record) {
            throw new IllegalStateException("a tombstone at " + record.kafkaOffset());
          }

          @Override
          public void failed(SinkRecord record, String name, RuntimeException cause) {
            throw new IllegalStateException("refused " + record.kafkaOffset(), cause);
          }
        };
    try (SinkWriter writer = SinkWriter.forTask(config, catalog, outcomes)) {
      List<DataFile> files = new ArrayList<>();
      int sinceHandOver = 0;
      for (int from = 0; from < records.size(); from += RUN_LENGTH) {
        List<SinkRecord> batch = records.subList(from, Math.min(records.size(), from + RUN_LENGTH));
        writer.write(batch);
        sinceHandOver += batch.size();
        if (sinceHandOver >= cycle && from + RUN_LENGTH < records.size()) {
          for (TableFiles handed : writer.handOver().tables()) {
            files.addAll(handed.files().dataFiles());
          }
          sinceHandOver = 0;
        }
      }
      probe.beforeClose("");
      for (TableFiles handed : writer.handOver().tables()) {
        files.addAll(handed.files().dataFiles());
      }
      return files;
    }
  }

  private static List<DataFile> rawParquet(Table table, List<Record> rows, Probe probe)
      throws IOException {
    InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
    return writerPerDay(table, rows, probe, 1, wrapper::wrap, GenericParquetWriter::create);
  }

  private static List<DataFile> internalParquet(Table table, List<Record> rows, Probe probe)
      throws IOException {
    if (internalRows == null || internalRows.size() != rows.size()) {
      internalRows = internalRows(table.schema().asStruct(), rows);
    }
    return writerPerDay(
        table,
        internalRows,
        probe,
        3,
        row -> row,
        (schema, type) ->
            org.apache.iceberg.data.parquet.InternalWriter.<Record>createWriter(schema, type));
  }

  /**
   * Iceberg's Parquet {@link DataWriter}, one per partition of the table's spec, each row's
   * partition read through {@code internal}.
   */
  private static List<DataFile> writerPerDay(
      Table table,
      List<Record> rows,
      Probe probe,
      long operationId,
      java.util.function.Function<Record, org.apache.iceberg.StructLike> internal,
      java.util.function.BiFunction<
              org.apache.iceberg.Schema,
              org.apache.parquet.schema.MessageType,
              org.apache.iceberg.parquet.ParquetValueWriter<?>>
          writerFunc)
      throws IOException {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    OutputFileFactory names = OutputFileFactory.builderFor(table, 1, operationId).build();
    Map<PartitionKey, DataWriter<Record>> writers = new HashMap<>();
    for (Record row : rows) {
      key.partition(internal.apply(row));
      DataWriter<Record> writer = writers.get(key);
      if (writer == null) {
        PartitionKey copy = key.copy();
        writer =
            org.apache.iceberg.parquet.Parquet.writeData(
                    names.newOutputFile(table.spec(), copy).encryptingOutputFile())
                .forTable(table)
                .withPartition(copy)
                .createWriterFunc(writerFunc)
                .overwrite()
                .build();
        writers.put(copy, writer);
      }
      writer.write(row);
    }
    probe.beforeClose("");
    List<DataFile> files = new ArrayList<>();
    for (DataWriter<Record> writer : writers.values()) {
      writer.close();
      files.add(writer.toDataFile());
    }
    return files;
  }

  /** Copies of the rows holding Iceberg's internal values: timestamps as microseconds. */
  private static List<Record> internalRows(
      org.apache.iceberg.types.Types.StructType type, List<Record> rows) {
    List<Record> internal = new ArrayList<>(rows.size());
    for (Record row : rows) {
      internal.add(internalRow(type, row));
    }
    return internal;
  }

  private static Record internalRow(org.apache.iceberg.types.Types.StructType type, Record row) {
    Record copy = org.apache.iceberg.data.GenericRecord.create(type);
    List<org.apache.iceberg.types.Types.NestedField> fields = type.fields();
    for (int i = 0; i < fields.size(); i++) {
      Object value = row.get(i);
      org.apache.iceberg.types.Type fieldType = fields.get(i).type();
      if (value instanceof java.time.OffsetDateTime timestamp) {
        value = org.apache.iceberg.util.DateTimeUtil.microsFromTimestamptz(timestamp);
      } else if (value instanceof Record nested) {
        value = internalRow(fieldType.asStructType(), nested);
      }
      copy.set(i, value);
    }
    return copy;
  }

  private static List<DataFile> icebergFanout(Table table, List<Record> rows, Probe probe)
      throws IOException {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
    FanoutDataWriter<Record> writer =
        new FanoutDataWriter<>(
            new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build(),
            OutputFileFactory.builderFor(table, 1, 2).build(),
            table.io(),
            512L * 1024 * 1024);
    for (Record row : rows) {
      key.partition(wrapper.wrap(row));
      writer.write(row, table.spec(), key);
    }
    probe.beforeClose("");
    writer.close();
    return writer.result().dataFiles();
  }

  static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
