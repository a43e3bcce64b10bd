/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns wire-format payloads into Connect data. Per writer schema id it keeps a plan: the Avro
 * schema, its Connect schema and a datum reader, built on the first record with that id. A binary
 * decoder, and the last record's datum of each plan, are reused between records: the Connect value
 * made from a datum copies what it keeps, so a datum is free again once converted. The reader reads
 * strings straight into {@link String}s, not Avro's {@code Utf8} first. Thread-safe.
 */
final class RecordDecoder {
  private record Plan(
      Schema avro,
      org.apache.kafka.connect.data.Schema connect,
      GenericDatumReader<Object> reader,
      AtomicReference<Object> spareDatum) {}

  private final SchemaRegistryClient registry;
  private final BoundedCache<Integer, Plan> plans;
  private final AtomicReference<BinaryDecoder> spare = new AtomicReference<>();

  RecordDecoder(SchemaRegistryClient registry, int cacheSize) {
    this.registry = registry;
    this.plans = new BoundedCache<>(cacheSize);
  }

  /**
   * The Connect schema and value of a payload.
   *
   * @throws DataException when the payload is not the wire format, its schema id is unknown, or it
   *     does not decode with that schema; the message names the topic and schema id
   * @throws SchemaRegistryException when the registry cannot be used
   */
  SchemaAndValue decode(String topic, byte[] payload) {
    int id = WireFormat.schemaId(topic, payload);
    Plan plan = plans.get(id, this::plan);
    Object datum = read(topic, id, plan, payload);
    SchemaAndValue value;
    try {
      value =
          new SchemaAndValue(
              plan.connect(), AvroToConnectValues.convert(plan.avro(), plan.connect(), datum));
    } catch (DataException e) {
      throw new DataException(
          "Record of topic " + topic + " with schema id " + id + ": " + e.getMessage(), e);
    }
    plan.spareDatum().set(datum);
    return value;
  }

  private Plan plan(int id) {
    Schema avro = registry.schemaById(id);
    org.apache.kafka.connect.data.Schema connect;
    try {
      connect = AvroToConnect.toConnect(avro, id);
    } catch (DataException e) {
      throw new DataException(
          "Schema id "
              + id
              + " ("
              + avro.getFullName()
              + ") has no Connect form: "
              + e.getMessage(),
          e);
    }
    Schema readsStrings = JavaStrings.of(avro);
    return new Plan(
        avro,
        connect,
        new GenericDatumReader<>(readsStrings, readsStrings, GenericData.get()),
        new AtomicReference<>());
  }

  private Object read(String topic, int id, Plan plan, byte[] payload) {
    BinaryDecoder decoder =
        DecoderFactory.get()
            .binaryDecoder(
                payload,
                WireFormat.HEADER_LENGTH,
                payload.length - WireFormat.HEADER_LENGTH,
                spare.getAndSet(null));
    Object datum;
    boolean atEnd;
    try {
      datum = plan.reader().read(plan.spareDatum().getAndSet(null), decoder);
      atEnd = decoder.isEnd();
    } catch (IOException | RuntimeException e) {
      throw new DataException(
          "Record of topic "
              + topic
              + " does not decode with its writer schema id "
              + id
              + " ("
              + plan.avro().getFullName()
              + "): "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : " " + e.getMessage()));
    } finally {
      spare.set(decoder);
    }
    if (!atEnd) {
      throw new DataException(
          "Record of topic "
              + topic
              + " has bytes left over after decoding with its writer schema id "
              + id
              + " ("
              + plan.avro().getFullName()
              + "); it was not written with that schema");
    }
    return datum;
  }
}
