/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The keys of a task's data file writers: how much they may hold open, and how rows are laid out in
 * files. Listed in the {@link TableKeys} group, after its keys.
 *
 * @param memoryBudgetBytes memory a task may hold in open data files
 * @param maxOpenFiles most data files a task keeps open at once
 * @param filePerSourcePartition whether each data file holds the rows of one source partition
 * @param writeProperties writer properties laid over every table's own
 */
public record WriterKeys(
    long memoryBudgetBytes,
    int maxOpenFiles,
    boolean filePerSourcePartition,
    Map<String, String> writeProperties) {

  /** {@code iceberg.tables.write-props.*}: writer properties laid over every table's own. */
  public static final String WRITE_PROPS_PREFIX = "iceberg.tables.write-props.";

  public static final String WRITER_MEMORY_BUDGET_BYTES =
      "iceberg.tables.writer.memory-budget-bytes";
  public static final String WRITER_MEMORY_BUDGET_BYTES_DOC =
      "Memory a task may hold in open data files, over all tables; when exceeded, the least"
          + " recently written files are closed early (their data is committed in the next cycle).";
  public static final long WRITER_MEMORY_BUDGET_BYTES_DEFAULT = 128L * 1024 * 1024;

  public static final String WRITER_MAX_OPEN_FILES = "iceberg.tables.writer.max-open-files";
  public static final String WRITER_MAX_OPEN_FILES_DOC =
      "Most data files a task keeps open at once, over all tables and partitions.";
  public static final int WRITER_MAX_OPEN_FILES_DEFAULT = 64;

  public static final String WRITER_FILE_PER_SOURCE_PARTITION =
      "iceberg.tables.writer.file-per-source-partition";
  public static final String WRITER_FILE_PER_SOURCE_PARTITION_DOC =
      "Whether each data file holds the rows of one source partition only. Off (the default), the"
          + " rows of all of a task's source partitions share one file per table partition: fewer,"
          + " larger files and higher throughput; a partition taken away by a cooperative"
          + " rebalance then also drops the uncommitted rows of the task's other partitions, which"
          + " are read again (eager rebalancing, Connect's default, takes every partition at once"
          + " anyway). On, a revoked partition drops only its own rows, at the price of a file per"
          + " source partition and table partition in every commit.";
  public static final boolean WRITER_FILE_PER_SOURCE_PARTITION_DEFAULT = false;

  static WriterKeys parse(AbstractConfig config) {
    return new WriterKeys(
        config.getLong(WRITER_MEMORY_BUDGET_BYTES),
        config.getInt(WRITER_MAX_OPEN_FILES),
        config.getBoolean(WRITER_FILE_PER_SOURCE_PARTITION),
        PrefixedKeys.strip(config.originals(), WRITE_PROPS_PREFIX));
  }

  /** Defines the keys in the {@link TableKeys#GROUP}, after {@code order}. */
  static void define(ConfigDef def, int order) {
    def.define(
        WRITER_MEMORY_BUDGET_BYTES,
        Type.LONG,
        WRITER_MEMORY_BUDGET_BYTES_DEFAULT,
        ConfigDef.Range.atLeast(1024 * 1024),
        Importance.LOW,
        WRITER_MEMORY_BUDGET_BYTES_DOC,
        TableKeys.GROUP,
        ++order,
        Width.SHORT,
        "Writer memory budget (bytes)");
    def.define(
        WRITER_MAX_OPEN_FILES,
        Type.INT,
        WRITER_MAX_OPEN_FILES_DEFAULT,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        WRITER_MAX_OPEN_FILES_DOC,
        TableKeys.GROUP,
        ++order,
        Width.SHORT,
        "Writer max open files");
    def.define(
        WRITER_FILE_PER_SOURCE_PARTITION,
        Type.BOOLEAN,
        WRITER_FILE_PER_SOURCE_PARTITION_DEFAULT,
        Importance.LOW,
        WRITER_FILE_PER_SOURCE_PARTITION_DOC,
        TableKeys.GROUP,
        ++order,
        Width.SHORT,
        "Writer file per source partition");
  }
}
