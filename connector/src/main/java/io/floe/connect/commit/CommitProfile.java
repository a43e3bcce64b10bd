/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.connect.contract.Contract;
import io.floe.connect.contract.FieldRule;
import io.floe.connect.deletes.WrittenDeletes;
import io.floe.connect.metrics.ColumnCounts;
import io.floe.connect.metrics.TableMetrics;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.iceberg.util.JsonUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The distribution profile of what a commit adds to a table with a contract, from the column
 * metrics of its data files (the data is not read again): the rows, and per column the contract
 * names (at most {@link #MAX_COLUMNS}) its nulls and their fraction, its NaNs, and, for numbers,
 * dates, times and timestamps, its least and greatest value; the counts of every column go to the
 * table's metrics ({@link Profile}). Texts and bytes get no bounds: their values may be personal
 * data, and their bounds are truncated.
 *
 * <ul>
 *   <li>{@code floe.profile.rows}: the rows the commit appends; for an upsert commit, every new
 *       image it adds;
 *   <li>{@code floe.profile.columns}: {@code {"<column>": {"nulls": n, "null-fraction": f, "nans":
 *       n, "min": "…", "max": "…"}}}, a count or bound left out where a file lacks it;
 *   <li>upsert commits only: {@code floe.profile.superseded}, the new images a later change of the
 *       same commit superseded (the commit deletes them), and {@code floe.profile.deleted}, the
 *       rows of earlier commits it retires, so that the table's live rows change by rows -
 *       superseded - deleted.
 * </ul>
 *
 * Profiling never fails a commit: a profile that cannot be made is logged and left out.
 */
final class CommitProfile {
  static final String ROWS = "floe.profile.rows";
  static final String COLUMNS = "floe.profile.columns";

  /** Upsert commits: the rows of the commit's new images that a later change of it superseded. */
  static final String SUPERSEDED = "floe.profile.superseded";

  /** Upsert commits: the rows of earlier commits the commit retires (deleted or replaced). */
  static final String DELETED = "floe.profile.deleted";

  /** The most columns a summary profiles. */
  static final int MAX_COLUMNS = 16;

  private static final Logger LOG = LoggerFactory.getLogger(CommitProfile.class);

  private CommitProfile() {}

  /**
   * What a commit appended, for the table's metrics: its rows and every column's counts.
   *
   * @param rows the rows the commit appends
   * @param columns the counts of each column of primitive type (nested in structs too, at most
   *     {@link #MAX_METRIC_COLUMNS})
   */
  record Profile(long rows, List<ColumnCounts> columns) {}

  /** The most columns a table's metrics profile. */
  static final int MAX_METRIC_COLUMNS = 200;

  /**
   * Sets the profile of the data files {@code events} hand over on {@code update}, and returns it
   * for the table's metrics; tells and leaves it out when a manifest cannot be read.
   */
  static Optional<Profile> set(
      SnapshotUpdate<?> update, Table table, Contract contract, List<PendingEvent> events) {
    Accumulator files = new Accumulator(table);
    try {
      for (PendingEvent event : events) {
        UpsertEvents.readFiles(table, event.event(), files::add, keys -> {});
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Table {}: the commit carries no profile, as a manifest could not be read: {}",
          table.name(),
          e instanceof UncheckedIOException u ? u.getCause() : e.toString());
      return Optional.empty();
    }
    return Optional.of(files.set(update, contract));
  }

  /**
   * Sets the profile of an upsert commit on its row delta, and returns it for the table's metrics:
   * the rows and columns of the new images it adds (every image the workers wrote, from their data
   * files' metrics), how many of them a later change of the same commit superseded ({@value
   * #SUPERSEDED}), and how many rows of earlier commits it retires ({@value #DELETED}; left out of
   * a commit that empties the table first, which removes its files whole). Never throws: a profile
   * that cannot be made is told and left out, and the commit goes on.
   *
   * @param dataFiles the commit's new data files
   * @param supersededRows the rows of {@code dataFiles} the commit deletes
   * @param deletes the delete files of the attempt, which delete the retired rows and the
   *     superseded ones
   * @param truncates whether the commit empties the table before adding its images
   */
  static Optional<Profile> setUpsert(
      SnapshotUpdate<?> update,
      Table table,
      Contract contract,
      List<DataFile> dataFiles,
      long supersededRows,
      WrittenDeletes deletes,
      boolean truncates) {
    try {
      Accumulator files = new Accumulator(table);
      dataFiles.forEach(files::add);
      Profile profile = files.set(update, contract);
      update.set(SUPERSEDED, Long.toString(supersededRows));
      if (!truncates) {
        update.set(DELETED, Long.toString(deletes.rowsDeleted() - supersededRows));
      }
      return Optional.of(profile);
    } catch (RuntimeException e) {
      LOG.warn(
          "Table {}: the upsert commit carries no profile, as it could not be made: {}",
          table.name(),
          e.toString());
      return Optional.empty();
    }
  }

  /** The rows and columns of the data files seen so far. */
  private static final class Accumulator {
    private final Map<String, Column> columns = new LinkedHashMap<>();
    private long rows;

    Accumulator(Table table) {
      addColumns(table.schema().asStruct(), "", columns);
    }

    void add(DataFile file) {
      rows += file.recordCount();
      for (Column column : columns.values()) {
        column.add(file);
      }
    }

    /** Sets the rows and the contract's columns on {@code update}. */
    Profile set(SnapshotUpdate<?> update, Contract contract) {
      ObjectNode profile = JsonUtil.mapper().createObjectNode();
      for (FieldRule rule : contract.fields()) {
        Column column = columns.get(rule.path());
        if (column != null && profile.size() < MAX_COLUMNS) {
          profile.set(rule.path(), column.describe(rows));
        }
      }
      update.set(ROWS, Long.toString(rows));
      update.set(COLUMNS, profile.toString());
      List<ColumnCounts> counts = new ArrayList<>();
      columns.forEach((name, column) -> counts.add(column.counts(name)));
      return new Profile(rows, counts);
    }
  }

  /** The columns of primitive type under {@code struct}, by full name, to the metrics' limit. */
  private static void addColumns(Types.StructType struct, String prefix, Map<String, Column> out) {
    for (Types.NestedField field : struct.fields()) {
      if (out.size() >= MAX_METRIC_COLUMNS) {
        return;
      }
      String name = prefix + field.name();
      if (field.type().isPrimitiveType()) {
        out.put(name, new Column(field.fieldId(), field.type().asPrimitiveType()));
      } else if (field.type().isStructType()) {
        addColumns(field.type().asStructType(), name + ".", out);
      }
    }
  }

  /** One column's counts and bounds over the files seen so far. */
  private static final class Column {
    private final int id;
    private final Type.PrimitiveType type;
    private final Comparator<Object> order;
    private Optional<Long> nulls = Optional.of(0L);
    private Optional<Long> nans;
    private Object min;
    private Object max;
    private boolean boundsKnown;
    private boolean first = true;

    Column(int id, Type.PrimitiveType type) {
      this.id = id;
      this.type = type;
      this.order = Comparators.forType(type);
      this.nans =
          type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE
              ? Optional.of(0L)
              : Optional.empty();
      this.boundsKnown = bounded(type);
    }

    void add(DataFile file) {
      nulls = sum(nulls, file.nullValueCounts());
      nans = sum(nans, file.nanValueCounts());
      if (!boundsKnown) {
        return;
      }
      ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(id);
      ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(id);
      long values = file.recordCount() - nulls(file);
      if (values == 0) {
        return; // all nulls (or NaNs): no bounds to take
      }
      if (lower == null || upper == null) {
        boundsKnown = false;
        return;
      }
      Object low = Conversions.fromByteBuffer(type, lower);
      Object high = Conversions.fromByteBuffer(type, upper);
      if (first || order.compare(low, min) < 0) {
        min = low;
      }
      if (first || order.compare(high, max) > 0) {
        max = high;
      }
      first = false;
    }

    private long nulls(DataFile file) {
      Long count = file.nullValueCounts() == null ? null : file.nullValueCounts().get(id);
      Long nanCount = file.nanValueCounts() == null ? null : file.nanValueCounts().get(id);
      return (count == null ? 0 : count) + (nanCount == null ? 0 : nanCount);
    }

    private Optional<Long> sum(Optional<Long> total, Map<Integer, Long> counts) {
      if (total.isEmpty() || counts == null || counts.get(id) == null) {
        return Optional.empty();
      }
      return Optional.of(total.get() + counts.get(id));
    }

    ColumnCounts counts(String name) {
      return new ColumnCounts(
          name, nulls.orElse(TableMetrics.UNKNOWN_COUNT), nans.orElse(TableMetrics.UNKNOWN_COUNT));
    }

    ObjectNode describe(long rows) {
      ObjectNode node = JsonUtil.mapper().createObjectNode();
      nulls.ifPresent(
          n -> {
            node.put("nulls", n);
            node.put("null-fraction", rows == 0 ? 0.0 : (double) n / rows);
          });
      nans.ifPresent(n -> node.put("nans", n));
      if (boundsKnown && !first) {
        node.put("min", text(min));
        node.put("max", text(max));
      }
      return node;
    }

    private String text(Object value) {
      return switch (type.typeId()) {
        case DATE -> DateTimeUtil.dateFromDays((Integer) value).toString();
        case TIME -> DateTimeUtil.timeFromMicros((Long) value).toString();
        case TIMESTAMP ->
            ((Types.TimestampType) type).shouldAdjustToUTC()
                ? DateTimeUtil.microsToIsoTimestamptz((Long) value)
                : DateTimeUtil.microsToIsoTimestamp((Long) value);
        default -> value.toString();
      };
    }

    private static boolean bounded(Type.PrimitiveType type) {
      return switch (type.typeId()) {
        case INTEGER, LONG, FLOAT, DOUBLE, DECIMAL, DATE, TIME, TIMESTAMP -> true;
        default -> false;
      };
    }
  }
}
