/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Arrays;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The catalog types Floe bundles the client of, the values of {@code iceberg.catalog.type}. Iceberg
 * maps each to its catalog class ({@code hive} to {@code HiveCatalog}, whose Hive Metastore client
 * jars the plugin bundles).
 */
public enum CatalogType {
  REST,
  JDBC,
  GLUE,
  HIVE,
  HADOOP;

  static String names() {
    return String.join(
        ", ",
        Arrays.stream(values()).map(t -> t.name().toLowerCase(Locale.ROOT)).toArray(String[]::new));
  }

  public String icebergName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Strict: an unknown name is an error, never a silent default. */
  public static CatalogType parse(String name) {
    for (CatalogType type : values()) {
      if (type.icebergName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return type;
      }
    }
    throw new ConfigException(CatalogKeys.CATALOG_TYPE, name, "must be one of " + names());
  }

  static final class Validator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value != null) {
        parse((String) value);
      }
    }

    @Override
    public String toString() {
      return "[" + names() + "]";
    }
  }
}
