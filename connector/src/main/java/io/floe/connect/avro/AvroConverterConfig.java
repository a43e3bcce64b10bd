/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The converter's configuration: the one {@link ConfigDef} and typed getters. Keys users know from
 * Confluent's Avro converter keep their names; Floe's own keys carry their unit.
 */
public final class AvroConverterConfig extends AbstractConfig {
  public static final String GROUP_REGISTRY = "Schema registry";
  public static final String GROUP_SERIALIZATION = "Serialization";

  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Comma-separated URLs of the schema registry (Confluent REST API); the next URL is tried"
          + " when one cannot be reached or answers 5xx.";

  public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout-ms";
  public static final String REQUEST_TIMEOUT_MS_DOC =
      "How long, in milliseconds, to wait for the registry to connect and answer one request.";
  public static final long REQUEST_TIMEOUT_MS_DEFAULT = 10_000L;

  public static final String RETRIES = "schema.registry.retries";
  public static final String RETRIES_DOC =
      "How many more rounds over all registry URLs to try when none answers, before the task is"
          + " stopped (records are never skipped because the registry is down).";
  public static final int RETRIES_DEFAULT = 8;

  public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff-ms";
  public static final String RETRY_BACKOFF_MS_DOC =
      "Wait in milliseconds before the first retry round; it doubles each round.";
  public static final long RETRY_BACKOFF_MS_DEFAULT = 500L;

  public static final String RETRY_MAX_BACKOFF_MS = "schema.registry.retry.max-backoff-ms";
  public static final String RETRY_MAX_BACKOFF_MS_DOC =
      "The longest wait in milliseconds between retry rounds.";
  public static final long RETRY_MAX_BACKOFF_MS_DEFAULT = 30_000L;

  public static final String SCHEMA_CACHE_SIZE = "schema.cache.size";
  public static final String SCHEMA_CACHE_SIZE_DOC =
      "How many schemas each cache holds (writer schemas by id, and Connect schemas to encode);"
          + " the least recently used are dropped beyond it.";
  public static final int SCHEMA_CACHE_SIZE_DEFAULT = 1000;

  public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
  public static final String AUTO_REGISTER_SCHEMAS_DOC =
      "When converting Connect data to Avro: register the schema under its subject. When false,"
          + " the schema must already be registered there (or use.latest.version be set).";
  public static final boolean AUTO_REGISTER_SCHEMAS_DEFAULT = true;

  public static final String USE_LATEST_VERSION = "use.latest.version";
  public static final String USE_LATEST_VERSION_DOC =
      "When converting Connect data to Avro: write with the subject's latest schema instead of"
          + " the record's own. Needs auto.register.schemas=false.";
  public static final boolean USE_LATEST_VERSION_DEFAULT = false;

  public static final String KEY_SUBJECT_NAME_STRATEGY = "key.subject.name.strategy";
  public static final String VALUE_SUBJECT_NAME_STRATEGY = "value.subject.name.strategy";
  public static final String SUBJECT_NAME_STRATEGY_DOC =
      "How subjects are named: "
          + SubjectNameStrategy.shortNames()
          + ", or Confluent's class name for one of them (e.g. "
          + SubjectNameStrategy.CONFLUENT_PACKAGE
          + "TopicNameStrategy).";
  public static final String SUBJECT_NAME_STRATEGY_DEFAULT =
      SubjectNameStrategy.TOPIC_NAME.shortName();

  public static final ConfigDef CONFIG_DEF = newConfigDef();

  private final List<RegistryEndpoint> endpoints;
  private final Optional<SSLContext> sslContext;

  /**
   * Parses and checks the converter's settings (Connect passes them without the {@code
   * key.converter.}/{@code value.converter.} prefix).
   *
   * @throws ConfigException naming the key at fault, never a secret
   */
  public AvroConverterConfig(Map<String, ?> props) {
    super(CONFIG_DEF, props, false);
    if (useLatestVersion() && autoRegisterSchemas()) {
      throw new ConfigException(
          USE_LATEST_VERSION + "=true needs " + AUTO_REGISTER_SCHEMAS + "=false");
    }
    if (getLong(RETRY_MAX_BACKOFF_MS) < getLong(RETRY_BACKOFF_MS)) {
      throw new ConfigException(RETRY_MAX_BACKOFF_MS + " must not be below " + RETRY_BACKOFF_MS);
    }
    this.endpoints = RegistrySecurityConfig.endpoints(this, getList(SCHEMA_REGISTRY_URL));
    this.sslContext = RegistrySecurityConfig.sslContext(this);
  }

  private static ConfigDef newConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        SCHEMA_REGISTRY_URL,
        Type.LIST,
        ConfigDef.NO_DEFAULT_VALUE,
        new RegistryUrlsValidator(),
        Importance.HIGH,
        SCHEMA_REGISTRY_URL_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.LONG,
        "Schema registry URLs");
    def.define(
        REQUEST_TIMEOUT_MS,
        Type.LONG,
        REQUEST_TIMEOUT_MS_DEFAULT,
        Range.atLeast(1),
        Importance.LOW,
        REQUEST_TIMEOUT_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Request timeout (ms)");
    def.define(
        RETRIES,
        Type.INT,
        RETRIES_DEFAULT,
        Range.atLeast(0),
        Importance.LOW,
        RETRIES_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Retries");
    def.define(
        RETRY_BACKOFF_MS,
        Type.LONG,
        RETRY_BACKOFF_MS_DEFAULT,
        Range.atLeast(0),
        Importance.LOW,
        RETRY_BACKOFF_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Retry backoff (ms)");
    def.define(
        RETRY_MAX_BACKOFF_MS,
        Type.LONG,
        RETRY_MAX_BACKOFF_MS_DEFAULT,
        Range.atLeast(0),
        Importance.LOW,
        RETRY_MAX_BACKOFF_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Retry max backoff (ms)");
    def.define(
        SCHEMA_CACHE_SIZE,
        Type.INT,
        SCHEMA_CACHE_SIZE_DEFAULT,
        Range.atLeast(1),
        Importance.LOW,
        SCHEMA_CACHE_SIZE_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Schema cache size");
    RegistrySecurityConfig.define(def);

    order = 0;
    def.define(
        AUTO_REGISTER_SCHEMAS,
        Type.BOOLEAN,
        AUTO_REGISTER_SCHEMAS_DEFAULT,
        Importance.MEDIUM,
        AUTO_REGISTER_SCHEMAS_DOC,
        GROUP_SERIALIZATION,
        ++order,
        Width.SHORT,
        "Auto-register schemas");
    def.define(
        USE_LATEST_VERSION,
        Type.BOOLEAN,
        USE_LATEST_VERSION_DEFAULT,
        Importance.LOW,
        USE_LATEST_VERSION_DOC,
        GROUP_SERIALIZATION,
        ++order,
        Width.SHORT,
        "Use latest version");
    for (String key : List.of(KEY_SUBJECT_NAME_STRATEGY, VALUE_SUBJECT_NAME_STRATEGY)) {
      def.define(
          key,
          Type.STRING,
          SUBJECT_NAME_STRATEGY_DEFAULT,
          new StrategyValidator(),
          Importance.LOW,
          SUBJECT_NAME_STRATEGY_DOC,
          GROUP_SERIALIZATION,
          ++order,
          Width.LONG,
          key.startsWith("key") ? "Key subject strategy" : "Value subject strategy");
    }
    return def;
  }

  /** The registry URLs with their authentication, in the configured order. */
  List<RegistryEndpoint> endpoints() {
    return endpoints;
  }

  /** The TLS context for the registry, when trust or key stores are configured. */
  Optional<SSLContext> sslContext() {
    return sslContext;
  }

  public Duration requestTimeout() {
    return Duration.ofMillis(getLong(REQUEST_TIMEOUT_MS));
  }

  RetryPolicy retryPolicy() {
    return new RetryPolicy(
        getInt(RETRIES),
        Duration.ofMillis(getLong(RETRY_BACKOFF_MS)),
        Duration.ofMillis(getLong(RETRY_MAX_BACKOFF_MS)));
  }

  public int schemaCacheSize() {
    return getInt(SCHEMA_CACHE_SIZE);
  }

  public boolean autoRegisterSchemas() {
    return getBoolean(AUTO_REGISTER_SCHEMAS);
  }

  public boolean useLatestVersion() {
    return getBoolean(USE_LATEST_VERSION);
  }

  /** The subject name strategy for keys or for values. */
  public SubjectNameStrategy subjectNameStrategy(boolean isKey) {
    String key = isKey ? KEY_SUBJECT_NAME_STRATEGY : VALUE_SUBJECT_NAME_STRATEGY;
    return SubjectNameStrategy.forName(getString(key)).orElseThrow();
  }

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
                redacted(uri),
                "must be an http:// or https:// URL with a host, e.g. http://registry:8081");
          }
        } catch (URISyntaxException e) {
          throw new ConfigException(name, "(hidden)", "is not a valid URL: " + e.getReason());
        }
      }
    }

    /** The URL without user info, which may hold a password. */
    private static String redacted(URI uri) {
      if (uri.getRawUserInfo() == null) {
        return uri.toString();
      }
      return uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
    }

    @Override
    public String toString() {
      return "comma-separated http(s) URLs";
    }
  }

  /** A subject name strategy, by short name or Confluent class name; nothing else. */
  static final class StrategyValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (SubjectNameStrategy.forName((String) value).isEmpty()) {
        throw new ConfigException(
            name,
            value,
            "is not a subject name strategy; use one of "
                + SubjectNameStrategy.shortNames()
                + " or Confluent's class name for it");
      }
    }

    @Override
    public String toString() {
      return SubjectNameStrategy.shortNames()
          + " or "
          + SubjectNameStrategy.CONFLUENT_PACKAGE
          + "*";
    }
  }
}
