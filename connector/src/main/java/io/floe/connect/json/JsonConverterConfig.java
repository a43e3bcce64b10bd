/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.connect.storage.ConverterConfig;

/**
 * The JSON converter's configuration: the keys of Connect's own JSON converter, with the same
 * names, types and defaults, so a worker or connector configured for one works with the other.
 */
public final class JsonConverterConfig extends ConverterConfig {
  public static final String SCHEMAS_ENABLE = "schemas.enable";
  public static final String SCHEMAS_ENABLE_DOC =
      "Each message is an envelope {\"schema\": ..., \"payload\": ...}; when false, a message is"
          + " the value alone and is read without a schema.";

  public static final String SCHEMAS_CACHE_SIZE = "schemas.cache.size";
  public static final String SCHEMAS_CACHE_SIZE_DOC =
      "How many schemas each cache holds (schemas read, by their JSON text, and schemas written);"
          + " the least recently used are dropped beyond it.";
  public static final int SCHEMAS_CACHE_SIZE_DEFAULT = 1000;

  public static final String SCHEMA_CONTENT = "schema.content";
  public static final String SCHEMA_CONTENT_DOC =
      "A schema in the envelope's JSON form for every message read: each message is then the"
          + " payload alone. Applies only with schemas.enable=true, and only to reading.";

  public static final String DECIMAL_FORMAT = "decimal.format";
  public static final String DECIMAL_FORMAT_DOC =
      "How decimals are written: BASE64 (the unscaled value's bytes) or NUMERIC (a JSON number)."
          + " Both are read whatever this says. Not case-sensitive.";

  public static final String REPLACE_NULL_WITH_DEFAULT = "replace.null.with.default";
  public static final String REPLACE_NULL_WITH_DEFAULT_DOC =
      "A null for a field whose schema has a default becomes the default, reading and writing;"
          + " when false, it stays null.";

  /** The two ways a decimal is written. */
  public enum DecimalFormat {
    BASE64,
    NUMERIC
  }

  public static final ConfigDef CONFIG_DEF = jsonConfigDef();

  private final boolean schemasEnabled;
  private final int schemasCacheSize;
  private final DecimalFormat decimalFormat;
  private final boolean replaceNullWithDefault;
  private final Optional<byte[]> schemaContent;

  public JsonConverterConfig(Map<String, ?> props) {
    super(CONFIG_DEF, props);
    this.schemasEnabled = getBoolean(SCHEMAS_ENABLE);
    this.schemasCacheSize = getInt(SCHEMAS_CACHE_SIZE);
    this.decimalFormat =
        DecimalFormat.valueOf(getString(DECIMAL_FORMAT).trim().toUpperCase(Locale.ROOT));
    this.replaceNullWithDefault = getBoolean(REPLACE_NULL_WITH_DEFAULT);
    String content = getString(SCHEMA_CONTENT);
    this.schemaContent =
        content == null || content.isBlank()
            ? Optional.empty()
            : Optional.of(content.getBytes(StandardCharsets.UTF_8));
  }

  private static ConfigDef jsonConfigDef() {
    ConfigDef def = ConverterConfig.newConfigDef();
    String group = "Schemas";
    int order = 0;
    def.define(
        SCHEMAS_ENABLE,
        Type.BOOLEAN,
        true,
        Importance.HIGH,
        SCHEMAS_ENABLE_DOC,
        group,
        ++order,
        Width.MEDIUM,
        "Enable schemas");
    def.define(
        SCHEMAS_CACHE_SIZE,
        Type.INT,
        SCHEMAS_CACHE_SIZE_DEFAULT,
        Range.atLeast(1),
        Importance.HIGH,
        SCHEMAS_CACHE_SIZE_DOC,
        group,
        ++order,
        Width.MEDIUM,
        "Schema cache size");
    def.define(
        SCHEMA_CONTENT,
        Type.STRING,
        null,
        Importance.HIGH,
        SCHEMA_CONTENT_DOC,
        group,
        ++order,
        Width.MEDIUM,
        "Schema content");
    group = "Serialization";
    order = 0;
    def.define(
        DECIMAL_FORMAT,
        Type.STRING,
        DecimalFormat.BASE64.name(),
        ConfigDef.CaseInsensitiveValidString.in(
            DecimalFormat.BASE64.name(), DecimalFormat.NUMERIC.name()),
        Importance.LOW,
        DECIMAL_FORMAT_DOC,
        group,
        ++order,
        Width.MEDIUM,
        "Decimal format");
    def.define(
        REPLACE_NULL_WITH_DEFAULT,
        Type.BOOLEAN,
        true,
        Importance.LOW,
        REPLACE_NULL_WITH_DEFAULT_DOC,
        group,
        ++order,
        Width.MEDIUM,
        "Replace null with default");
    return def;
  }

  public boolean schemasEnabled() {
    return schemasEnabled;
  }

  public int schemasCacheSize() {
    return schemasCacheSize;
  }

  public DecimalFormat decimalFormat() {
    return decimalFormat;
  }

  public boolean replaceNullWithDefault() {
    return replaceNullWithDefault;
  }

  /** The configured schema's JSON, read once at configure time. */
  public Optional<byte[]> schemaContent() {
    return schemaContent;
  }
}
