/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.connect.avro.AvroConverter;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.RecordConverter;
import io.floe.connect.convert.RecordConverters;
import io.floe.it.registry.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.DataWriter;
import org.apache.iceberg.data.avro.PlannedDataReader;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;

/**
 * What an Avro fast path could save: the benchmark's orders as Avro in the Confluent wire format,
 * read in one thread four ways:
 *
 * <ol>
 *   <li>Avro's generic reader alone, into Avro's generic records: the converter's first step;
 *   <li>Floe's {@link AvroConverter} alone ({@code toConnectData}): what the no-op sink pays;
 *   <li>the converter, then Floe's record conversion of the {@link Struct} into the table's row:
 *       what Floe pays before Parquet today;
 *   <li>Iceberg's own Avro reader straight into the table's rows, from Avro binary of the same
 *       shape: the least a path that skips Connect's {@code Struct} could cost.
 * </ol>
 *
 * Prints the thread's CPU ns and bytes allocated per record for each (the best of the measured
 * rounds, the ways in turns). Checks first that the converter's path and Iceberg's reader give
 * every row as it was written. Arguments: records, measured rounds.
 */
public final class AvroPathBench {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static int sink;

  private AvroPathBench() {}

  public static void main(String[] args) throws Exception {
    int records = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    List<Record> rows = BenchRows.rows(records, 42);
    try (SchemaRegistryServer registry = SchemaRegistryServer.builder().build().start()) {
      AvroConverter converter = new AvroConverter();
      converter.configure(Map.of("schema.registry.url", registry.url()), false);
      byte[][] wire = new byte[records][];
      for (int i = 0; i < records; i++) {
        wire[i] =
            converter.fromConnectData("t", BenchEvents.ORDER, BenchEvents.toStruct(rows.get(i)));
      }
      SchemaAndValue first = converter.toConnectData("t", wire[0]);
      RecordConverter rowConverter =
          RecordConverters.forSchema(first.schema(), BenchRows.SCHEMA, ConvertOptions.defaults());
      byte[][] icebergBinary = icebergEncoded(rows);
      DatumReader<Record> icebergReader = PlannedDataReader.create(BenchRows.SCHEMA);
      icebergReader.setSchema(AvroSchemaUtil.convert(BenchRows.SCHEMA, "order"));
      check(rows, wire, converter, rowConverter, icebergBinary, icebergReader);

      GenericDatumReader<Object> generic = new GenericDatumReader<>(writerSchema(registry.url()));
      Map<String, Runnable> ways = new LinkedHashMap<>();
      ways.put(
          "Avro's generic reader alone (the converter's first step)",
          () -> genericRead(generic, wire));
      ways.put("Floe's AvroConverter (the no-op sink's part)", () -> convert(converter, wire));
      ways.put(
          "AvroConverter + Floe's row conversion (Floe's path)",
          () -> convertAndRow(converter, rowConverter, wire));
      ways.put(
          "Iceberg's Avro reader into rows (a fast path's floor)",
          () -> icebergRead(icebergReader, icebergBinary));
      Map<String, long[]> best = new LinkedHashMap<>();
      List<String> order = new ArrayList<>(ways.keySet());
      for (int round = -2; round < rounds; round++) {
        for (String name : order) {
          long[] result = time(ways.get(name));
          if (round >= 0 && (!best.containsKey(name) || result[0] < best.get(name)[0])) {
            best.put(name, result);
          }
        }
        Collections.rotate(order, 1);
      }
      System.out.printf(
          "AvroPathBench: %,d records, %.0f bytes per message, best of %d rounds%n",
          records, (double) totalLength(wire) / records, rounds);
      best.forEach(
          (name, result) ->
              System.out.printf(
                  "AvroPathBench: %-55s %7.0f ns/record %7.0f B/record allocated%n",
                  name, (double) result[0] / records, (double) result[1] / records));
    }
    System.out.println("AvroPathBench: done " + (sink & 1));
  }

  /** The writer schema the converter registered: the registry's first. */
  private static Schema writerSchema(String registryUrl) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(registryUrl + "/schemas/ids/1")).build(),
                HttpResponse.BodyHandlers.ofString());
    return new Schema.Parser()
        .parse(new ObjectMapper().readTree(response.body()).get("schema").asText());
  }

  /** Past each payload's 5-byte header (magic byte and schema id). */
  private static void genericRead(GenericDatumReader<Object> reader, byte[][] wire) {
    int n = 0;
    BinaryDecoder decoder = null;
    try {
      for (byte[] message : wire) {
        decoder = DecoderFactory.get().binaryDecoder(message, 5, message.length - 5, decoder);
        n += System.identityHashCode(reader.read(null, decoder)) & 1;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sink += n;
  }

  private static long totalLength(byte[][] messages) {
    long total = 0;
    for (byte[] message : messages) {
      total += message.length;
    }
    return total;
  }

  /** Every way reads every record, and the two row-producing ways give the same ids. */
  private static void check(
      List<Record> rows,
      byte[][] wire,
      AvroConverter converter,
      RecordConverter rowConverter,
      byte[][] icebergBinary,
      DatumReader<Record> icebergReader)
      throws IOException {
    for (int i = 0; i < rows.size(); i++) {
      Record viaConnect = rowConverter.convert(converter.toConnectData("t", wire[i]).value());
      Record viaIceberg =
          icebergReader.read(null, DecoderFactory.get().binaryDecoder(icebergBinary[i], null));
      if (!viaConnect.equals(rows.get(i)) || !viaIceberg.equals(rows.get(i))) {
        throw new IllegalStateException(
            "Record " + i + " read back as " + viaConnect + " and " + viaIceberg);
      }
    }
  }

  private static byte[][] icebergEncoded(List<Record> rows) throws IOException {
    DataWriter<Record> writer =
        DataWriter.create(AvroSchemaUtil.convert(BenchRows.SCHEMA, "order"));
    byte[][] out = new byte[rows.size()][];
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = null;
    for (int i = 0; i < rows.size(); i++) {
      bytes.reset();
      encoder = EncoderFactory.get().directBinaryEncoder(bytes, encoder);
      writer.write(rows.get(i), encoder);
      encoder.flush();
      out[i] = bytes.toByteArray();
    }
    return out;
  }

  private static long[] time(Runnable work) {
    long thread = Thread.currentThread().getId();
    long allocatedBefore = THREADS.getThreadAllocatedBytes(thread);
    long cpuBefore = THREADS.getCurrentThreadCpuTime();
    work.run();
    return new long[] {
      THREADS.getCurrentThreadCpuTime() - cpuBefore,
      THREADS.getThreadAllocatedBytes(thread) - allocatedBefore
    };
  }

  private static void convert(AvroConverter converter, byte[][] wire) {
    int n = 0;
    for (byte[] message : wire) {
      n += System.identityHashCode(converter.toConnectData("t", message).value()) & 1;
    }
    sink += n;
  }

  private static void convertAndRow(
      AvroConverter converter, RecordConverter rowConverter, byte[][] wire) {
    int n = 0;
    for (byte[] message : wire) {
      n +=
          System.identityHashCode(
                  rowConverter.convert(converter.toConnectData("t", message).value()))
              & 1;
    }
    sink += n;
  }

  private static void icebergRead(DatumReader<Record> reader, byte[][] binary) {
    int n = 0;
    BinaryDecoder decoder = null;
    try {
      for (byte[] message : binary) {
        decoder = DecoderFactory.get().binaryDecoder(message, decoder);
        n += System.identityHashCode(reader.read(null, decoder)) & 1;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sink += n;
  }
}
