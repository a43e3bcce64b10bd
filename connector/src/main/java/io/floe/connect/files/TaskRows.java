/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.files;

import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Opens the rows of a file scan task's data file, as Iceberg's generic readers read them: the
 * columns of a projection, partition values and metadata columns filled in, the table's name
 * mapping applied to files written without field ids. Deletes are not applied here: a {@code
 * GenericDeleteFilter} over the task does that.
 */
public final class TaskRows {
  private final FileIO io;
  private final NameMapping nameMapping;

  public TaskRows(Table table) {
    this.io = table.io();
    String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    this.nameMapping = mapping == null ? null : NameMappingParser.fromJson(mapping);
  }

  /**
   * The rows of the task's part of its file, in {@code projection}.
   *
   * @param wholeFile whether to read every row, rather than only those the task's residual filter
   *     may keep
   * @param reuse whether the reader may hand out the same record object for each row
   */
  public CloseableIterable<Record> open(
      FileScanTask task, Schema projection, boolean wholeFile, boolean reuse) {
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    ReadBuilder<Record, ?> builder =
        FormatModelRegistry.readBuilder(
            task.file().format(), Record.class, io.newInputFile(task.file()));
    builder = builder.project(projection).idToConstant(constants);
    if (reuse) {
      builder = builder.reuseContainers();
    }
    builder = builder.split(task.start(), task.length());
    if (!wholeFile) {
      builder = builder.filter(task.residual());
    }
    if (nameMapping != null) {
      builder = builder.withNameMapping(nameMapping);
    }
    return builder.build();
  }
}
