/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import io.floe.connect.FloeVersion;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;

/**
 * Converter for Avro in the Confluent wire format (magic byte 0, 4-byte schema id, Avro binary),
 * with schemas held in a Confluent-API schema registry.
 *
 * <p>This build validates its configuration only; decoding and encoding arrive with the registry
 * client. Until then every conversion fails loudly rather than pass bytes through unconverted.
 */
public class AvroConverter implements Converter, Versioned {

  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Comma-separated URLs of the schema registry (Confluent REST API); the next URL is tried"
          + " when one cannot be reached.";

  public static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(
              SCHEMA_REGISTRY_URL,
              Type.LIST,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyStringWithoutControlChars(),
              Importance.HIGH,
              SCHEMA_REGISTRY_URL_DOC);

  private List<String> registryUrls = List.of();
  private boolean isKey;

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
    this.registryUrls = new AbstractConfig(CONFIG_DEF, configs, false).getList(SCHEMA_REGISTRY_URL);
    this.isKey = isKey;
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    throw notAvailable(topic);
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    throw notAvailable(topic);
  }

  private DataException notAvailable(String topic) {
    return new DataException(
        "Floe "
            + version()
            + " AvroConverter cannot convert "
            + (isKey ? "keys" : "values")
            + " of topic "
            + topic
            + " yet (registry "
            + registryUrls
            + "): Avro support is not in this build.");
  }
}
