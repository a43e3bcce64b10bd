/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import io.floe.connect.avro.AvroConverter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.Converter;

/**
 * How the benchmark's records are written to Kafka, and the {@code value.converter} settings every
 * contender reads them with: Avro in the Confluent wire format through Floe's converter and the
 * schema registry, or JSON with the schema in every record, read by Connect's JSON converter or by
 * Floe's (the same wire format, so both read one load).
 */
enum Encoding {
  AVRO("avro"),
  JSON("json"),
  JSON_FLOE("json-floe");

  private final String label;

  Encoding(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /** The encoding whose load this one reads: the same bytes on the topic. */
  Encoding wire() {
    return this == JSON_FLOE ? JSON : this;
  }

  /** How the label is written in {@code bench.encodings}. */
  static Encoding of(String label) {
    for (Encoding encoding : values()) {
      if (encoding.label.equals(label.trim())) {
        return encoding;
      }
    }
    throw new IllegalArgumentException("No encoding " + label);
  }

  /**
   * The connector settings of the value converter; the Avro one uses the registry at {@code url}.
   */
  Map<String, String> converterSettings(String registryUrl) {
    Map<String, String> settings = new LinkedHashMap<>();
    if (this == AVRO) {
      settings.put("value.converter", AvroConverter.class.getName());
      settings.put("value.converter.schema.registry.url", registryUrl);
    } else {
      settings.put(
          "value.converter",
          this == JSON_FLOE
              ? io.floe.connect.json.JsonConverter.class.getName()
              : JsonConverter.class.getName());
      settings.put("value.converter.schemas.enable", "true");
    }
    return settings;
  }

  /** A converter that writes what {@link #converterSettings} reads. */
  Converter producerConverter(String registryUrl) {
    if (this != wire()) {
      return wire().producerConverter(registryUrl);
    }
    Converter converter = this == AVRO ? new AvroConverter() : new JsonConverter();
    Map<String, String> settings = new LinkedHashMap<>();
    converterSettings(registryUrl)
        .forEach(
            (key, value) -> {
              if (key.startsWith("value.converter.")) {
                settings.put(key.substring("value.converter.".length()), value);
              }
            });
    if (this == JSON) {
      settings.put("converter.type", "value");
    }
    converter.configure(settings, false);
    return converter;
  }
}
