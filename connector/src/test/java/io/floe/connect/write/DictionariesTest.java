/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static io.floe.connect.write.WriteTestTables.commitAndRead;
import static io.floe.connect.write.WriteTestTables.id;
import static io.floe.connect.write.WriteTestTables.ids;
import static io.floe.connect.write.WriteTestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DictionariesTest {
  private static final TopicPartition P0 = new TopicPartition("events", 0);
  private static final long T0 = 1_772_359_200_000L;

  /** Small pages, so that a column of unique values gives its dictionary up on its first page. */
  private static final Map<String, String> SMALL_PAGES =
      Map.of(TableProperties.PARQUET_PAGE_ROW_LIMIT, "100");

  @TempDir Path dir;
  private WriteTestTables tables;
  private WriterPool pool;

  @BeforeEach
  void setUp() {
    tables = WriteTestTables.onDisk(dir);
    pool = new WriterPool(WriterPoolOptions.defaults(), Map.of(), 0);
  }

  @AfterEach
  void tearDown() throws Exception {
    pool.close();
    tables.close();
  }

  @Test
  void theStreamKeepsExactlyTheLastBytesWrittenWhateverTheWrites() throws IOException {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      List<byte[]> tails = new ArrayList<>();
      TailKeepingFile.TailStream stream = new TailKeepingFile.TailStream(sink(all), tails::add);
      int writes = random.nextInt(40);
      for (int i = 0; i < writes; i++) {
        if (random.nextInt(4) == 0) {
          stream.write(random.nextInt(256));
        } else {
          int size = random.nextInt(random.nextBoolean() ? 100 : 3 * TailKeepingFile.TAIL_BYTES);
          byte[] bytes = new byte[size + 10];
          random.nextBytes(bytes);
          stream.write(bytes, 5, size);
        }
      }
      stream.close();
      stream.close();

      byte[] expected = all.toByteArray();
      byte[] last =
          Arrays.copyOfRange(
              expected, Math.max(0, expected.length - TailKeepingFile.TAIL_BYTES), expected.length);
      assertThat(tails).hasSize(1);
      assertThat(tails.get(0)).isEqualTo(last);
    }
  }

  @Test
  void aFooterNotWhollyInTheTailTeachesNothing() throws IOException {
    assertThat(Dictionaries.abandonedFieldIds(new byte[0])).isEmpty();
    assertThat(Dictionaries.abandonedFieldIds("not parquet at all".getBytes())).isEmpty();
    byte[] truncated = new byte[16];
    ByteBuffer.wrap(truncated, 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(1_000_000);
    System.arraycopy("PAR1".getBytes(), 0, truncated, 12, 4);
    assertThat(Dictionaries.abandonedFieldIds(truncated)).isEmpty();

    Dictionaries dictionaries = new Dictionaries("t", WriteTestTables.SCHEMA, Map.of());
    dictionaries.learn("somewhere", truncated);
    assertThat(dictionaries.version()).isZero();
  }

  @Test
  void columnsWhoseDictionaryWasAbandonedAreWrittenPlainFromTheNextFileOn() throws IOException {
    Table table = tables.create("t", PartitionSpec.unpartitioned(), SMALL_PAGES);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);

    // unique ids, names and timestamps; 7 categories
    write(writer, 0, 5_000, true);
    List<DataFile> first = writer.complete().dataFiles();
    assertThat(first).hasSize(1);
    assertThat(Dictionaries.abandonedFieldIds(tail(first.get(0))))
        .as("field ids of the columns that fell back")
        .containsExactlyInAnyOrder(1, 3, 4);
    assertThat(dictionaryPages(first.get(0)))
        .as("a column that falls back on its first page keeps no dictionary page")
        .containsEntry("name", false)
        .containsEntry("category", true);

    // now 3 names only: a dictionary would hold them, but the writer no longer tries one
    write(writer, 5_000, 10_000, false);
    List<DataFile> second = writer.complete().dataFiles();
    assertThat(dictionaryPages(second.get(0)))
        .containsEntry("id", false)
        .containsEntry("name", false)
        .containsEntry("ts", false)
        .containsEntry("category", true);

    List<DataFile> all = new ArrayList<>(first);
    all.addAll(second);
    assertThat(ids(commitAndRead(table, all)))
        .containsExactlyElementsOf(LongStream.range(0, 10_000).boxed().toList());
  }

  @Test
  void withoutLearningTheSameRowsKeepTheirDictionary() throws IOException {
    // the control of the test above: a fresh writer tries the dictionary of the 3 names
    Table table = tables.create("t", PartitionSpec.unpartitioned(), SMALL_PAGES);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);
    write(writer, 5_000, 10_000, false);
    assertThat(dictionaryPages(writer.complete().dataFiles().get(0))).containsEntry("name", true);
  }

  @Test
  void aFileOfFewRowsTeachesNothingThoughItsDictionariesFellBack() throws IOException {
    // a dictionary over a few values does not pay for itself, whatever their cardinality
    Table table = tables.create("t", PartitionSpec.unpartitioned(), SMALL_PAGES);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);
    write(writer, 0, 3, false);
    DataFile small = writer.complete().dataFiles().get(0);
    assertThat(dictionaryPages(small)).containsEntry("category", false);
    assertThat(Dictionaries.abandonedFieldIds(tail(small))).isEmpty();

    write(writer, 5_000, 10_000, false);
    assertThat(dictionaryPages(writer.complete().dataFiles().get(0)))
        .containsEntry("category", true)
        .containsEntry("name", true);
  }

  @Test
  void aColumnTheTableSetsADictionaryForIsLeftAsSet() throws IOException {
    Map<String, String> properties = new HashMap<>(SMALL_PAGES);
    properties.put(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + "name", "true");
    Table table = tables.create("t", PartitionSpec.unpartitioned(), properties);
    TableWriter writer = pool.writerFor(id(table), tableId -> table);

    write(writer, 0, 5_000, true);
    writer.complete();
    write(writer, 5_000, 10_000, false);
    List<DataFile> second = writer.complete().dataFiles();

    assertThat(dictionaryPages(second.get(0)))
        .containsEntry("name", true)
        .containsEntry("category", true);
    assertThat(Dictionaries.abandonedFieldIds(tail(second.get(0))))
        .as("id and ts written plain: learned")
        .containsExactlyInAnyOrder(1, 4);
  }

  @Test
  void learningDoesNotRepeatAndCountsOnce() {
    Dictionaries dictionaries =
        new Dictionaries(
            "t",
            WriteTestTables.SCHEMA,
            Map.of(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + "id", "true"));
    assertThat(dictionaries.writerProperties(Map.of("a", "b"))).isEqualTo(Map.of("a", "b"));
    assertThat(dictionaries.version()).isZero();
    assertThat(dictionaries.plainColumns()).isEmpty();
  }

  private static void write(TableWriter writer, long from, long to, boolean uniqueNames) {
    for (long i = from; i < to; i++) {
      String name = uniqueNames ? UUID.randomUUID().toString() : "name-" + (i % 3);
      writer.write(P0, i, T0 + i, row(i, (int) (i % 7), name, T0 + i * 1_000));
    }
  }

  /** Per top-level column, whether the file holds a dictionary page for it. */
  private static Map<String, Boolean> dictionaryPages(DataFile file) throws IOException {
    byte[] tail = tail(file);
    int length = ByteBuffer.wrap(tail, tail.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    FileMetaData footer =
        Util.readFileMetaData(new ByteArrayInputStream(tail, tail.length - 8 - length, length));
    Map<String, Boolean> pages = new HashMap<>();
    for (ColumnChunk chunk : footer.getRow_groups().get(0).getColumns()) {
      boolean dictionary = false;
      for (PageEncodingStats stats : chunk.getMeta_data().getEncoding_stats()) {
        dictionary |= stats.getPage_type() == PageType.DICTIONARY_PAGE;
      }
      pages.put(chunk.getMeta_data().getPath_in_schema().get(0), dictionary);
    }
    return pages;
  }

  private static byte[] tail(DataFile file) throws IOException {
    String location = file.location();
    Path path =
        location.startsWith("file:") ? Path.of(java.net.URI.create(location)) : Path.of(location);
    try (InputStream in = java.nio.file.Files.newInputStream(path)) {
      return in.readAllBytes();
    }
  }

  private static PositionOutputStream sink(ByteArrayOutputStream all) {
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return all.size();
      }

      @Override
      public void write(int b) {
        all.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        all.write(b, off, len);
      }
    };
  }
}
