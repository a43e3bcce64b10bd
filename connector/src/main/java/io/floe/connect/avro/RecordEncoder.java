/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns Connect data into wire-format payloads. Per topic and Connect schema it keeps a plan: the
 * Avro schema written (the Connect schema's own, or the subject's latest with {@code
 * use.latest.version}), its registry id (registered, or looked up, once) and a datum writer. A
 * binary encoder is reused between records. Thread-safe.
 */
final class RecordEncoder {
  private record Key(String topic, org.apache.kafka.connect.data.Schema connect) {}

  private record Plan(int id, Schema avro, GenericDatumWriter<Object> writer) {}

  private final SchemaRegistryClient registry;
  private final SubjectNameStrategy strategy;
  private final boolean isKey;
  private final boolean autoRegister;
  private final boolean useLatestVersion;
  private final BoundedCache<Key, Plan> plans;
  private final AtomicReference<BinaryEncoder> spare = new AtomicReference<>();

  RecordEncoder(SchemaRegistryClient registry, AvroConverterConfig config, boolean isKey) {
    this.registry = registry;
    this.strategy = config.subjectNameStrategy(isKey);
    this.isKey = isKey;
    this.autoRegister = config.autoRegisterSchemas();
    this.useLatestVersion = config.useLatestVersion();
    this.plans = new BoundedCache<>(config.schemaCacheSize());
  }

  /**
   * The payload of a Connect value; null for a null value.
   *
   * @throws DataException when the value has no schema, its schema no Avro form, the registry
   *     refuses the schema, or the value does not fit it
   * @throws SchemaRegistryException when the registry cannot be used
   */
  byte[] encode(String topic, org.apache.kafka.connect.data.Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    if (schema == null) {
      throw new DataException(
          "The Avro converter needs a Connect schema for "
              + (isKey ? "keys" : "values")
              + " of topic "
              + topic);
    }
    Plan plan = plans.get(new Key(topic, schema), this::plan);
    Object datum;
    try {
      datum = ConnectToAvroValues.convert(plan.avro(), schema, value);
    } catch (DataException e) {
      throw new DataException(
          "Cannot write a record of topic "
              + topic
              + " as Avro schema id "
              + plan.id()
              + ": "
              + e.getMessage(),
          e);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    WireFormat.writeHeader(out, plan.id());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, spare.getAndSet(null));
    try {
      plan.writer().write(datum, encoder);
      encoder.flush();
    } catch (IOException | AvroRuntimeException e) {
      throw new DataException(
          "Cannot write a record of topic "
              + topic
              + " as Avro schema id "
              + plan.id()
              + ": "
              + e.getMessage(),
          e);
    } finally {
      spare.set(encoder);
    }
    return out.toByteArray();
  }

  private Plan plan(Key key) {
    Schema own;
    try {
      own = ConnectToAvro.toAvro(key.connect());
    } catch (DataException e) {
      throw new DataException(
          "The Connect schema of a record of topic "
              + key.topic()
              + " has no Avro form: "
              + e.getMessage(),
          e);
    }
    String subject = strategy.subject(key.topic(), isKey, own);
    if (useLatestVersion) {
      SchemaRegistryClient.RegisteredSchema latest = registry.latest(subject);
      return new Plan(
          latest.id(),
          latest.schema(),
          new GenericDatumWriter<>(latest.schema(), GenericData.get()));
    }
    int id = autoRegister ? registry.register(subject, own) : registry.lookup(subject, own);
    return new Plan(id, own, new GenericDatumWriter<>(own, GenericData.get()));
  }
}
