/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import io.floe.connect.FloeVersion;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
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
              new RegistryUrlsValidator(),
              Importance.HIGH,
              SCHEMA_REGISTRY_URL_DOC);

  /** Every entry must be an absolute http(s) URL, and there must be at least one. */
  static final class RegistryUrlsValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      List<?> urls = (List<?>) value;
      if (urls == null || urls.isEmpty()) {
        throw new ConfigException(name, value, "at least one schema registry URL is required");
      }
      for (Object url : urls) {
        String text = String.valueOf(url).trim();
        try {
          URI uri = new URI(text);
          if (uri.getHost() == null
              || !("http".equalsIgnoreCase(uri.getScheme())
                  || "https".equalsIgnoreCase(uri.getScheme()))) {
            throw new ConfigException(
                name,
                text,
                "must be an http:// or https:// URL with a host, e.g. http://registry:8081");
          }
        } catch (URISyntaxException e) {
          throw new ConfigException(name, text, "is not a valid URL: " + e.getReason());
        }
      }
    }

    @Override
    public String toString() {
      return "comma-separated http(s) URLs";
    }
  }

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
