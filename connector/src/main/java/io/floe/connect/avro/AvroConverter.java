/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import io.floe.connect.version.FloeVersion;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.Converter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Converter for Avro in the Confluent wire format (magic byte 0, 4-byte big-endian schema id, Avro
 * binary), with schemas held in a registry that speaks the Confluent Schema Registry REST API
 * (Confluent's, Apicurio's ccompat API, Karapace, Redpanda). Keys users know from Confluent's
 * converter ({@code schema.registry.url}, {@code basic.auth.*}, {@code schema.registry.ssl.*},
 * {@code auto.register.schemas}, {@code use.latest.version}, {@code *.subject.name.strategy}) work
 * the same; see {@link AvroConverterConfig}.
 *
 * <p>Reading: a null payload is a tombstone ({@link SchemaAndValue#NULL}); otherwise the writer
 * schema is fetched once per id and mapped to a Connect schema that keeps docs, aliases, defaults,
 * enum symbols, decimal precision and the schema id as parameters ({@link AvroParameters}).
 * Writing: the Connect schema is mapped back to Avro and registered (or looked up) once per topic
 * and schema.
 *
 * <p>Errors. A record that cannot be converted (not the wire format, an unknown schema id, bytes
 * that don't decode, a value that doesn't fit) is a {@link
 * org.apache.kafka.connect.errors.DataException} and goes to Connect's error handling ({@code
 * errors.tolerance}, the dead-letter queue). A registry that cannot be used (unreachable or 5xx on
 * every URL after {@code schema.registry.retries} rounds with backoff, 401, 403, answers that are
 * not the registry API) is not the record's fault: it is thrown as {@link SchemaRegistryFailure},
 * an {@link Error}, because Connect tolerates every {@link Exception} a converter throws when
 * {@code errors.tolerance=all} and would skip or dead-letter the records of an outage; an Error
 * fails the task instead, and no record is lost. See {@link SchemaRegistryFailure} for the details.
 */
public class AvroConverter implements Converter, Versioned {
  private static final Logger LOG = LoggerFactory.getLogger(AvroConverter.class);

  public static final String SCHEMA_REGISTRY_URL = AvroConverterConfig.SCHEMA_REGISTRY_URL;
  public static final String SCHEMA_REGISTRY_URL_DOC = AvroConverterConfig.SCHEMA_REGISTRY_URL_DOC;

  public static final ConfigDef CONFIG_DEF = AvroConverterConfig.CONFIG_DEF;

  private final RegistryTransport.Sleeper sleeper;
  private RecordDecoder decoder;
  private RecordEncoder encoder;

  public AvroConverter() {
    this(duration -> Thread.sleep(duration.toMillis()));
  }

  /** With a sleeper for the waits between registry retries; for tests. */
  AvroConverter(RegistryTransport.Sleeper sleeper) {
    this.sleeper = sleeper;
  }

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public ConfigDef config() {
    return CONFIG_DEF;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    AvroConverterConfig config = new AvroConverterConfig(configs);
    SchemaRegistryClient registry = SchemaRegistryClient.create(config, sleeper);
    this.decoder = new RecordDecoder(registry, config.schemaCacheSize());
    this.encoder = new RecordEncoder(registry, config, isKey);
    LOG.info(
        "Avro converter for {} uses schema registry {} (subjects: {})",
        isKey ? "keys" : "values",
        config.endpoints(),
        config.subjectNameStrategy(isKey));
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    try {
      return configured(encoder).encode(topic, schema, value);
    } catch (SchemaRegistryException e) {
      throw new SchemaRegistryFailure(e);
    }
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    try {
      return configured(decoder).decode(topic, value);
    } catch (SchemaRegistryException e) {
      throw new SchemaRegistryFailure(e);
    }
  }

  /** Nothing to release: the JDK HTTP client frees its resources when unreachable. */
  public void close() {
    decoder = null;
    encoder = null;
  }

  private static <T> T configured(T part) {
    if (part == null) {
      throw new IllegalStateException(
          "The Avro converter is used before configure() or after close()");
    }
    return part;
  }
}
