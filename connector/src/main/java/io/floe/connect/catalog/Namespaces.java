/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.FloeSinkConfig;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the namespaces of the tables Floe creates, one creation at a time per namespace in a
 * worker: two overlapping creations of one namespace are what a Hive Metastore (2.3 at least) does
 * not survive, since the creation that loses deletes the namespace's folder, with the metadata of
 * the table the winner has just created in it. The connector creates the namespaces of its listed
 * tables when it starts, before any task runs ({@link #createMissing}); a task creates one only
 * when it meets a table of a namespace still missing (a dynamically routed table, or a catalog the
 * connector could not reach), and the tasks of one worker take turns. A namespace created meanwhile
 * by someone else (Iceberg's {@code AlreadyExistsException}, or a catalog's own failure on its
 * unique key) is what was wanted.
 */
public final class Namespaces {
  private static final Logger LOG = LoggerFactory.getLogger(Namespaces.class);

  /** One lock per catalog name and namespace, shared by every task of this worker. */
  private static final Map<String, Object> CREATING = new ConcurrentHashMap<>();

  private Namespaces() {}

  /**
   * Creates the missing namespaces of the tables {@code iceberg.tables} lists, when auto-create is
   * on: the connector does so when it starts, before Connect starts its tasks. A catalog that
   * cannot be loaded or answer is told in a WARN and left to the tasks, which wait for it and
   * create what is missing as they meet it.
   */
  public static void createListed(FloeSinkConfig config) {
    if (!config.autoCreateEnabled()) {
      return;
    }
    Set<Namespace> listed = new LinkedHashSet<>();
    for (String table : config.tables()) {
      listed.add(TableIdentifier.parse(table).namespace());
    }
    listed.remove(Namespace.empty());
    if (listed.isEmpty()) {
      return;
    }
    Catalog catalog = null;
    try {
      catalog =
          new CatalogLoader(
                  new CatalogLoader.RetryPolicy(1, Duration.ZERO, Duration.ZERO), duration -> {})
              .load(config);
      for (Namespace namespace : listed) {
        createMissing(catalog, namespace);
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not create the namespaces of the listed tables {} before the tasks start: {}."
              + " The tasks create the missing ones as they meet them.",
          listed,
          config.secrets().describe(e));
    } finally {
      if (catalog != null) {
        CatalogLoader.close(catalog, config.secrets());
      }
    }
  }

  /**
   * Creates {@code namespace} in {@code catalog} when it is missing; nothing for the root
   * namespace, or a catalog without namespaces.
   */
  public static void createMissing(Catalog catalog, Namespace namespace) {
    if (namespace.isEmpty() || !(catalog instanceof SupportsNamespaces namespaces)) {
      return;
    }
    if (namespaces.namespaceExists(namespace)) {
      return;
    }
    Object lock = CREATING.computeIfAbsent(catalog.name() + "\u0000" + namespace, key -> key);
    synchronized (lock) {
      if (namespaces.namespaceExists(namespace)) {
        return;
      }
      try {
        namespaces.createNamespace(namespace);
        LOG.info("Created namespace {} in catalog '{}'", namespace, catalog.name());
      } catch (RuntimeException e) {
        if (!(e instanceof AlreadyExistsException) && !namespaces.namespaceExists(namespace)) {
          throw e;
        }
        LOG.info("Namespace {} was created concurrently", namespace);
      }
    }
  }
}
