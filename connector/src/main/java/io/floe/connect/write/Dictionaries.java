/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The columns of one table whose Parquet dictionary its writers stop trying, learned from the files
 * they wrote.
 *
 * <p>Parquet starts every column of every file with a dictionary: each value is looked up in a hash
 * map (a hash of its bytes and a comparison per probe) until the dictionary outgrows {@code
 * write.parquet.dict-size-bytes} or does not pay on the first page, and the column falls back to
 * plain encoding for the rest of the row group. On a column of values that rarely repeat (ids,
 * UUIDs, free text) the lookups are spent for nothing, file after file: in the benchmark's rows
 * they were a quarter of the writer's CPU. A file's footer says which columns fell back (their data
 * pages are not dictionary-encoded), so once a file of the table shows a column fell back, the
 * files opened after it write that column without a dictionary, as {@code
 * write.parquet.dict-encoding-enabled.column.<name>=false} would. The files' bytes barely change:
 * the fallen-back column was plain-encoded anyway.
 *
 * <p>A column the table or the connector sets a dictionary property for is left as set. What is
 * learned lasts as long as the table's writer: a new schema, a restart or a rebalance learns again.
 * Learning never fails a write: a footer that cannot be read teaches nothing.
 */
final class Dictionaries {
  private static final Logger LOG = LoggerFactory.getLogger(Dictionaries.class);
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /**
   * The fewest values (not nulls) a column chunk must hold for its fallback to count: a dictionary
   * over a few values does not pay for its own size whatever their cardinality, and Parquet gives
   * it up; over 4,096 values it gives up only when most of them are distinct.
   */
  static final long MIN_VALUES = 4_096;

  private final String table;
  private final Schema schema;
  private final Map<String, String> configured;
  private final Set<String> plain = new TreeSet<>();
  private int version;

  /**
   * Creates the learning of one table's writer.
   *
   * @param table the table's name, for the log
   * @param schema the schema the files are written with
   * @param properties the table's properties with the connector's write properties over them
   */
  Dictionaries(String table, Schema schema, Map<String, String> properties) {
    this.table = table;
    this.schema = schema;
    Map<String, String> set = new HashMap<>();
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX)) {
            set.put(
                key.substring(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX.length()),
                value);
          }
        });
    this.configured = Map.copyOf(set);
  }

  /** Grows by one each time a column is learned; the writers are rebuilt when it moved. */
  synchronized int version() {
    return version;
  }

  /** The columns written without a dictionary from now on, by full name. */
  synchronized Set<String> plainColumns() {
    return Set.copyOf(plain);
  }

  /** {@code base} with the learned columns' dictionaries turned off. */
  synchronized Map<String, String> writerProperties(Map<String, String> base) {
    if (plain.isEmpty()) {
      return base;
    }
    Map<String, String> properties = new HashMap<>(base);
    for (String column : plain) {
      properties.put(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + column, "false");
    }
    return properties;
  }

  /**
   * Reads the footer at the end of {@code tail} (the last bytes of a Parquet file just closed) and
   * learns the columns whose dictionary was abandoned. Never throws.
   *
   * @param location the file's location, for the log
   */
  void learn(String location, byte[] tail) {
    List<String> learned;
    try {
      learned = newlyAbandoned(abandonedFieldIds(tail));
    } catch (Exception | LinkageError e) {
      LOG.debug("Table {}: could not read the footer of {}; nothing learned", table, location, e);
      return;
    }
    if (!learned.isEmpty()) {
      LOG.info(
          "Table {}: the next files write column(s) {} without a Parquet dictionary: {} abandoned"
              + " theirs (values that rarely repeat), and trying one costs CPU on every value",
          table,
          learned,
          location);
    }
  }

  private synchronized List<String> newlyAbandoned(Set<Integer> fieldIds) {
    List<String> learned = new ArrayList<>();
    for (int id : fieldIds) {
      String name = schema.findColumnName(id);
      if (name != null && !configured.containsKey(name) && plain.add(name)) {
        learned.add(name);
      }
    }
    if (!learned.isEmpty()) {
      version++;
    }
    return learned;
  }

  /**
   * The field ids of the columns whose data pages, in any row group of the file, are not all
   * dictionary-encoded although the column's type can have a dictionary and the chunk holds at
   * least {@link #MIN_VALUES} values: the dictionary was tried and given up for their cardinality.
   * Empty when {@code tail} does not end with a whole footer.
   */
  static Set<Integer> abandonedFieldIds(byte[] tail) throws java.io.IOException {
    int length = tail.length;
    if (length < 12 || !endsWithMagic(tail)) {
      return Set.of();
    }
    int footerLength = ByteBuffer.wrap(tail, length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (footerLength <= 0 || footerLength > length - 8) {
      return Set.of();
    }
    FileMetaData footer =
        Util.readFileMetaData(
            new ByteArrayInputStream(tail, length - 8 - footerLength, footerLength));
    List<SchemaElement> leaves = new ArrayList<>();
    List<SchemaElement> elements = footer.getSchema();
    for (int i = 1; i < elements.size(); i++) {
      SchemaElement element = elements.get(i);
      if (!element.isSetNum_children() || element.getNum_children() == 0) {
        leaves.add(element);
      }
    }
    Set<Integer> abandoned = new TreeSet<>();
    for (RowGroup group : footer.getRow_groups()) {
      List<ColumnChunk> chunks = group.getColumns();
      for (int i = 0; i < chunks.size() && i < leaves.size(); i++) {
        SchemaElement leaf = leaves.get(i);
        ColumnMetaData column = chunks.get(i).getMeta_data();
        if (leaf.isSetField_id()
            && column != null
            && column.getType() != Type.BOOLEAN
            && values(column) >= MIN_VALUES
            && fellBack(column)) {
          abandoned.add(leaf.getField_id());
        }
      }
    }
    return abandoned;
  }

  /** The chunk's values that are not null (all of them when its statistics have no null count). */
  private static long values(ColumnMetaData column) {
    long nulls =
        column.isSetStatistics() && column.getStatistics().isSetNull_count()
            ? column.getStatistics().getNull_count()
            : 0;
    return column.getNum_values() - nulls;
  }

  private static boolean endsWithMagic(byte[] tail) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (tail[tail.length - MAGIC.length + i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean fellBack(ColumnMetaData column) {
    if (!column.isSetEncoding_stats()) {
      return false;
    }
    for (PageEncodingStats stats : column.getEncoding_stats()) {
      PageType page = stats.getPage_type();
      boolean data = page == PageType.DATA_PAGE || page == PageType.DATA_PAGE_V2;
      Encoding encoding = stats.getEncoding();
      if (data
          && stats.getCount() > 0
          && encoding != Encoding.PLAIN_DICTIONARY
          && encoding != Encoding.RLE_DICTIONARY) {
        return true;
      }
    }
    return false;
  }
}
