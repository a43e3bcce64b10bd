/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.FloeSinkConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the Iceberg catalog (and through it the FileIO) from {@code iceberg.catalog.*}. */
public final class CatalogLoader {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogLoader.class);

  private CatalogLoader() {}

  public static Catalog load(FloeSinkConfig config) {
    Map<String, String> props = new HashMap<>(config.catalogProperties());
    config
        .catalogType()
        .ifPresent(type -> props.put(CatalogUtil.ICEBERG_CATALOG_TYPE, type.icebergName()));
    config.catalogImpl().ifPresent(impl -> props.put(CatalogProperties.CATALOG_IMPL, impl));
    String description =
        config.catalogImpl().orElseGet(() -> config.catalogType().map(Enum::name).orElse("?"));
    // Iceberg reads Hadoop's Configuration from the context class loader; inside a Connect plugin
    // that must be the plugin's loader, or the bundled Hadoop classes are not found.
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(CatalogLoader.class.getClassLoader());
    try {
      Catalog catalog =
          CatalogUtil.buildIcebergCatalog(config.catalogName(), props, new Configuration(false));
      LOG.info("Loaded Iceberg catalog '{}' ({})", config.catalogName(), description);
      return catalog;
    } catch (RuntimeException e) {
      throw new ConnectException(
          "Cannot load Iceberg catalog '"
              + config.catalogName()
              + "' ("
              + description
              + "): "
              + e.getMessage()
              + ". Check the iceberg.catalog.* properties.",
          e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}
