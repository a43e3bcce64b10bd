/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The services one test class starts, closed in the reverse order of their start. Registered as a
 * field, {@code @RegisterExtension final Services services = Services.closedAfterAll();} (in a
 * {@code PER_CLASS} test class) or {@link #closedAfterEach()}, it closes them after the class or
 * after each test; it can also be used in a try-with-resources block.
 *
 * <p>Every service is closed even if an earlier one fails to close; the first failure is thrown (as
 * an {@link IllegalStateException}) with the later ones attached as suppressed.
 */
public final class Services implements AutoCloseable, AfterAllCallback, AfterEachCallback {
  private final boolean afterEach;
  private final Deque<AutoCloseable> owned = new ArrayDeque<>();

  private Services(boolean afterEach) {
    this.afterEach = afterEach;
  }

  /** Closes what it owns after all tests of the class ({@code PER_CLASS} lifecycle). */
  public static Services closedAfterAll() {
    return new Services(false);
  }

  /** Closes what it owns after each test. */
  public static Services closedAfterEach() {
    return new Services(true);
  }

  /** Owns {@code service}: it is closed before every service owned earlier. */
  public synchronized <T extends AutoCloseable> T own(T service) {
    owned.push(service);
    return service;
  }

  /** A catalog client built by Iceberg from {@code properties}, closed with the others. */
  public Catalog catalog(String name, Map<String, String> properties) {
    Catalog catalog = CatalogUtil.buildIcebergCatalog(name, properties, null);
    if (catalog instanceof AutoCloseable closeable) {
      own(closeable);
    }
    return catalog;
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (afterEach) {
      close();
    }
  }

  /** Closes every owned service, the last owned first. */
  @Override
  public void close() {
    IllegalStateException failure = null;
    for (AutoCloseable service = next(); service != null; service = next()) {
      try {
        service.close();
      } catch (Exception e) {
        IllegalStateException described =
            new IllegalStateException("Stopping " + service + " failed", e);
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        if (failure == null) {
          failure = described;
        } else {
          failure.addSuppressed(described);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private synchronized AutoCloseable next() {
    return owned.poll();
  }
}
