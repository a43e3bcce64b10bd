/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Map;
import java.util.Optional;
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

  /** Exactly one of the catalog type and the catalog class. */
  static void check(Map<String, ConfigValue> values) {
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
