/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's key indexes, one per upsert table that asks for one ({@link TableKeyIndex}).
 * Each is built at the table's first upsert commit after the coordinator starts and kept current
 * from then on; none outlives the coordinator.
 */
public final class KeyIndexes {
  private static final Logger LOG = LoggerFactory.getLogger(KeyIndexes.class);

  private final KeyIndexSettings settings;
  private final ExecutorService readers;
  private final Map<String, TableKeyIndex> tables = new HashMap<>();

  /**
   * Indexes reading files on {@code readers}.
   *
   * @param readers the threads reading data files, null to read them on the calling thread
   */
  public KeyIndexes(KeyIndexSettings settings, ExecutorService readers) {
    this.settings = settings;
    this.readers = readers;
  }

  /** The index of {@code table} (by its configured name); one that is off if it has none. */
  public TableKeyIndex forTable(String table) {
    return tables.computeIfAbsent(table, this::create);
  }

  private TableKeyIndex create(String table) {
    boolean enabled;
    try {
      enabled = settings.enabledFor().test(table);
    } catch (RuntimeException e) {
      LOG.warn("Table {}: could not tell whether it has a key index ({}); it has none", table, e);
      enabled = false;
    }
    return enabled
        ? new TableKeyIndex(table, settings.maxBytes(), settings.budgetSetting(), readers)
        : TableKeyIndex.off(table);
  }
}
