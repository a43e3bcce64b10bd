/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The keys of the Iceberg catalog: its name, its type or class, and the pass-through {@code
 * iceberg.catalog.*} properties.
 *
 * @param name the catalog's name, as Iceberg sees it
 * @param type the bundled catalog type, if set
 * @param impl the custom catalog class, if set
 * @param properties the {@code iceberg.catalog.*} properties with the prefix removed
 * @param hadoopConfDir the directory of Hadoop configuration files, if set
 * @param hadoopProperties the {@code iceberg.hadoop.*} properties with the prefix removed
 */
public record CatalogKeys(
    String name,
    Optional<CatalogType> type,
    Optional<String> impl,
    Map<String, String> properties,
    Optional<String> hadoopConfDir,
    Map<String, String> hadoopProperties) {
  public static final String GROUP = "Catalog";

  public static final String CATALOG_NAME = "iceberg.catalog";
  public static final String CATALOG_NAME_DOC = "Name of the Iceberg catalog, as Iceberg sees it.";
  public static final String CATALOG_NAME_DEFAULT = "iceberg";

  /** Every {@code iceberg.catalog.*} property is handed to the catalog with the prefix removed. */
  public static final String CATALOG_PREFIX = "iceberg.catalog.";

  public static final String CATALOG_TYPE = CATALOG_PREFIX + "type";
  public static final String CATALOG_TYPE_DOC =
      "Catalog type: one of "
          + CatalogType.names()
          + ". Set this or iceberg.catalog.catalog-impl; all other iceberg.catalog.* properties"
          + " (uri, warehouse, io-impl, credentials, ...) are passed to the catalog unchanged.";

  public static final String CATALOG_IMPL = CATALOG_PREFIX + "catalog-impl";
  public static final String CATALOG_IMPL_DOC =
      "Class name of a custom org.apache.iceberg.catalog.Catalog, instead of"
          + " iceberg.catalog.type.";

  /** Every {@code iceberg.hadoop.*} property is set on the Hadoop configuration, prefix removed. */
  public static final String HADOOP_PREFIX = "iceberg.hadoop.";

  public static final String HADOOP_CONF_DIR = "iceberg.hadoop-conf-dir";
  public static final String HADOOP_CONF_DIR_DOC =
      "A directory on every worker whose core-site.xml, hdfs-site.xml and hive-site.xml (those"
          + " present) are loaded into the Hadoop configuration that catalogs and FileIOs taking"
          + " one (Hadoop catalog, HadoopFileIO, Hive) receive; iceberg.hadoop.* properties (prefix"
          + " removed, such as iceberg.hadoop.fs.s3a.endpoint) are then set on it. A directory that"
          + " does not exist fails the task.";

  static CatalogKeys parse(AbstractConfig config) {
    String type = config.getString(CATALOG_TYPE);
    return new CatalogKeys(
        config.getString(CATALOG_NAME),
        type == null ? Optional.empty() : Optional.of(CatalogType.parse(type)),
        Optional.ofNullable(config.getString(CATALOG_IMPL)),
        PrefixedKeys.strip(config.originals(), CATALOG_PREFIX),
        Optional.ofNullable(config.getString(HADOOP_CONF_DIR))
            .map(String::trim)
            .filter(dir -> !dir.isEmpty()),
        PrefixedKeys.strip(config.originals(), HADOOP_PREFIX));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        CATALOG_NAME,
        Type.STRING,
        CATALOG_NAME_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.LOW,
        CATALOG_NAME_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Catalog name");
    def.define(
        CATALOG_TYPE,
        Type.STRING,
        null,
        new CatalogType.Validator(),
        Importance.HIGH,
        CATALOG_TYPE_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Catalog type");
    def.define(
        CATALOG_IMPL,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        CATALOG_IMPL_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Catalog class");
    def.define(
        HADOOP_CONF_DIR,
        Type.STRING,
        null,
        Importance.LOW,
        HADOOP_CONF_DIR_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Hadoop configuration directory");
  }

  /** The header a REST client asks for storage credentials with, and what it may ask for. */
  static final String ACCESS_DELEGATION_HEADER = "X-Iceberg-Access-Delegation";

  private static final Set<String> ACCESS_DELEGATION_MODES =
      Set.of("vended-credentials", "remote-signing");

  /** Keys only Iceberg's REST client reads: its OAuth2 login and the headers it sends. */
  private static final List<String> REST_ONLY_KEYS =
      List.of("credential", "oauth2-server-uri", "scope", "header.");

  /**
   * Exactly one of the catalog type and the catalog class; the REST client's OAuth2 keys and access
   * delegation header well formed, and set only for a REST catalog.
   */
  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    checkTypeOrImpl(values);
    Optional<String> type =
        ConfigValidation.valid(values, CATALOG_TYPE)
            ? Optional.ofNullable((String) values.get(CATALOG_TYPE).value())
            : Optional.empty();
    for (Map.Entry<String, String> entry : new TreeMap<>(props).entrySet()) {
      String key = entry.getKey();
      if (!key.startsWith(CATALOG_PREFIX)) {
        continue;
      }
      String property = key.substring(CATALOG_PREFIX.length());
      boolean restOnly =
          REST_ONLY_KEYS.stream()
              .anyMatch(
                  name -> name.endsWith(".") ? property.startsWith(name) : property.equals(name));
      if (restOnly
          && type.isPresent()
          && !CatalogType.REST.icebergName().equalsIgnoreCase(type.get().trim())) {
        ConfigValidation.error(
            values,
            key,
            "Only a REST catalog uses "
                + key
                + ", and "
                + CATALOG_TYPE
                + " is "
                + type.get().trim()
                + ": remove it, or set "
                + CATALOG_TYPE
                + "=rest.");
      } else if (property.equalsIgnoreCase("header." + ACCESS_DELEGATION_HEADER)) {
        checkAccessDelegation(values, key, entry.getValue());
      } else if (property.equals("oauth2-server-uri")) {
        checkUri(values, key, entry.getValue());
      }
    }
  }

  private static void checkAccessDelegation(
      Map<String, ConfigValue> values, String key, String value) {
    for (String mode : (value == null ? "" : value).split(",", -1)) {
      if (!ACCESS_DELEGATION_MODES.contains(mode.trim())) {
        ConfigValidation.error(
            values,
            key,
            "Unknown access delegation '"
                + mode.trim()
                + "': the REST catalog API defines vended-credentials and remote-signing"
                + " (a comma-separated list).");
        return;
      }
    }
  }

  private static void checkUri(Map<String, ConfigValue> values, String key, String value) {
    try {
      URI uri = new URI(value == null ? "" : value.trim());
      if (uri.toString().isEmpty()
          || (uri.isAbsolute() && !List.of("http", "https").contains(uri.getScheme()))) {
        throw new URISyntaxException(String.valueOf(value), "not an http(s) URL or a path");
      }
    } catch (URISyntaxException e) {
      ConfigValidation.error(
          values,
          key,
          "Not a token endpoint: '"
              + value
              + "'. Give the OAuth2 server's token URL, such as"
              + " https://idp.example.com/oauth2/token, or a path under the catalog's uri.");
    }
  }

  /** Exactly one of the catalog type and the catalog class. */
  private static void checkTypeOrImpl(Map<String, ConfigValue> values) {
    if (!ConfigValidation.valid(values, CATALOG_TYPE, CATALOG_IMPL)) {
      return;
    }
    Object type = values.get(CATALOG_TYPE).value();
    Object impl = values.get(CATALOG_IMPL).value();
    if (type == null && impl == null) {
      ConfigValidation.error(
          values,
          CATALOG_TYPE,
          "No catalog configured: set "
              + CATALOG_TYPE
              + " (one of "
              + CatalogType.names()
              + ") or "
              + CATALOG_IMPL
              + ".");
    } else if (type != null && impl != null) {
      ConfigValidation.error(
          values,
          CATALOG_IMPL,
          "Both " + CATALOG_TYPE + " and " + CATALOG_IMPL + " are set: keep only one.");
    }
  }
}
