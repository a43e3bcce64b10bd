/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.ChangeSource;
import io.floe.connect.control.DataWritten;
import io.floe.connect.control.EventManifest;
import io.floe.connect.deletes.LocatedRows;
import io.floe.connect.deletes.RetiredKeys;
import io.floe.connect.deletes.SupersededRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upsert table's pending events, read: the data files of the workers' data manifests (the final
 * images of upserted keys) and the keys of their key files (every key deleted or upserted).
 *
 * <p>In upsert mode a worker's manifest with content {@code DELETES} is a transport, never part of
 * the table: it lists key files as equality-delete entries of spec 0 (unpartitioned), each a
 * Parquet file of the table's key columns. The coordinator reads the keys, writes deletion vectors
 * or position deletes for the rows that hold them, and deletes the key files and every manifest of
 * the cycle once its commit is in.
 *
 * <p>A hand-over that read a truncate (its key manifest's {@link DataWritten#changeSources()} say
 * so) empties the table: the commit removes every file committed before, and drops every earlier
 * hand-over of the commit that holds changes of a source partition the truncating one holds too
 * (changes its task, or the task before it, read before the truncate), and in turn every earlier
 * one sharing a partition with a dropped one; their data files are deleted with the transport
 * files. Hand-overs of other source partitions are kept, and so are later ones.
 */
final class UpsertEvents {
  private static final Logger LOG = LoggerFactory.getLogger(UpsertEvents.class);

  /** The spec key manifests are written in: their entries have no partition. */
  private static final Map<Integer, PartitionSpec> KEY_SPECS =
      Map.of(0, PartitionSpec.unpartitioned());

  /**
   * Manifests a worker wrote have no snapshot id yet (the commit assigns it when a manifest goes in
   * as it is); Iceberg reads a manifest only with one, which the entries then inherit. Files are
   * rebuilt from what was read, so this placeholder ends up nowhere.
   */
  private static final long READ_SNAPSHOT_ID = 0L;

  /**
   * The names {@code write.Manifests} gives a hand-over's manifests: {@code
   * <prefix>-s<spec>-m.avro} for data, {@code <prefix>-k-m.avro} for keys. Read only for events
   * without a hand-over id.
   */
  private static final Pattern MANIFEST_NAME = Pattern.compile("(.*)-(?:s\\d+|k)-m\\.avro");

  private final List<DataFile> dataFiles;
  private final RetiredKeys keys;
  private final List<LocatedRows.FileRows> superseded;
  private final List<String> transportFiles;
  private final List<ChangeSource> truncates;
  private final int droppedHandOvers;
  private final long records;
  private final long bytes;

  private UpsertEvents(
      List<DataFile> dataFiles,
      RetiredKeys keys,
      List<LocatedRows.FileRows> superseded,
      List<String> transportFiles,
      List<ChangeSource> truncates,
      int droppedHandOvers,
      long records,
      long bytes) {
    this.dataFiles = dataFiles;
    this.keys = keys;
    this.superseded = superseded;
    this.transportFiles = transportFiles;
    this.truncates = truncates;
    this.droppedHandOvers = droppedHandOvers;
    this.records = records;
    this.bytes = bytes;
  }

  /**
   * Every file that {@code events} of {@code table} name: their manifests, and the data files and
   * key files those list (append and upsert hand-overs alike).
   */
  static Set<String> fileLocations(Table table, List<PendingEvent> events) {
    Set<String> locations = new HashSet<>();
    for (PendingEvent pending : events) {
      locations.add(pending.event().manifestLocation());
      readFiles(
          table,
          pending.event(),
          file -> locations.add(file.location()),
          file -> locations.add(file.location()));
    }
    return locations;
  }

  /**
   * Reads the files an event's manifest lists: data files for a data manifest, key files for a key
   * manifest.
   */
  static void readFiles(
      Table table, DataWritten event, Consumer<DataFile> dataFiles, Consumer<DeleteFile> keyFiles) {
    ManifestFile manifest = new Readable(new EventManifest(event));
    if (event.content() == ManifestContent.DATA) {
      try (ManifestReader<DataFile> reader =
          ManifestFiles.read(manifest, table.io(), table.specs())) {
        reader.forEach(dataFiles);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
      }
    } else {
      try (var reader = ManifestFiles.readDeleteManifest(manifest, table.io(), KEY_SPECS)) {
        reader.forEach(keyFiles);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read key manifest " + manifest.path(), e);
      }
    }
  }

  static UpsertEvents read(Table table, List<PendingEvent> events) {
    // hand-overs in the order they reached the control topic: for one source partition (and so
    // for one key) that is the order of their records
    List<PendingEvent> ordered = new ArrayList<>(events);
    ordered.sort(
        Comparator.comparingInt(PendingEvent::controlPartition)
            .thenComparingLong(PendingEvent::controlOffset));
    Map<HandOverKey, HandOver> handOvers = new LinkedHashMap<>();
    List<String> transport = new ArrayList<>();
    for (PendingEvent pending : ordered) {
      DataWritten event = pending.event();
      HandOver handOver = handOvers.computeIfAbsent(handOverOf(event), k -> new HandOver());
      transport.add(event.manifestLocation());
      if (event.content() == ManifestContent.DATA) {
        handOver.records += event.recordCount();
        handOver.bytes += event.totalFileSizeBytes();
      } else if (event.changeSources() != null) {
        handOver.sources.addAll(event.changeSources());
      }
      readFiles(
          table,
          event,
          file ->
              handOver.dataFiles.add(
                  DataFiles.builder(table.specs().get(file.specId())).copy(file).build()),
          file -> {
            if (file.content() == FileContent.POSITION_DELETES) {
              handOver.supersededFiles.add(file.copy());
            } else {
              handOver.keyFiles.add(file.copy());
            }
            if (file.recordCount() > 0) {
              transport.add(file.location()); // without keys, Iceberg's writer left no file
            }
          });
    }
    // a truncate removes what was read before it: the hand-overs before it of the same source
    // partitions, and, as what they hold was read before it too, the hand-overs before those of
    // their partitions, and so on
    List<HandOver> all = new ArrayList<>(handOvers.values());
    List<ChangeSource> truncates = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      HandOver truncating = all.get(i);
      if (truncating.truncates()) {
        truncating.sources.stream().filter(ChangeSource::truncated).forEach(truncates::add);
        List<HandOver> before = new ArrayList<>(List.of(truncating));
        for (int j = i - 1; j >= 0; j--) {
          HandOver earlier = all.get(j);
          if (before.stream().anyMatch(earlier::shares)) {
            earlier.dropped = true;
            before.add(earlier);
          }
        }
      }
    }
    List<HandOver> kept = new ArrayList<>();
    for (HandOver handOver : all) {
      if (handOver.dropped) {
        handOver.dataFiles.forEach(file -> transport.add(file.location()));
      } else {
        kept.add(handOver);
      }
    }
    Set<Integer> keyIds = keyIds(table, all);
    List<DataFile> dataFiles = new ArrayList<>();
    RetiredKeys.Builder keys = RetiredKeys.builder(table.schema(), keyIds);
    // per key, the last kept hand-over that retires it: the one whose image, if any, is the key's
    // last
    int[] lastHandOver = new int[1024];
    long records = 0;
    long bytes = 0;
    for (int h = 0; h < kept.size(); h++) {
      HandOver handOver = kept.get(h);
      dataFiles.addAll(handOver.dataFiles);
      lastHandOver = readKeys(table, keys, handOver.keyFiles, lastHandOver, h);
      records += handOver.records;
      bytes += handOver.bytes;
    }
    RetiredKeys retired = keys.build();
    // an image of an earlier hand-over whose key a later one retires is not the key's last, nor
    // is one a later change of its own hand-over superseded
    Map<String, SupersededFile> superseded = new LinkedHashMap<>();
    int[] last = lastHandOver;
    for (int h = 0; h < kept.size(); h++) {
      int handOver = h;
      HandOver those = kept.get(h);
      readSuperseded(table, those, superseded);
      if (h < kept.size() - 1) {
        SupersededRows.locate(table, those.dataFiles, retired, key -> last[key] > handOver)
            .forEach(rows -> supersede(superseded, rows.file(), rows.positions()));
      }
    }
    return new UpsertEvents(
        dataFiles,
        retired,
        superseded.values().stream().map(SupersededFile::rows).toList(),
        transport,
        truncates,
        all.size() - kept.size(),
        records,
        bytes);
  }

  /**
   * The hand-over a worker's manifest belongs to: the hand-over id its event carries, under the
   * name the manifest's table was routed to (a hand-over holds one fold of changes per route name,
   * and two names of one table, {@code db.Orders} and {@code db.orders}, are committed together).
   *
   * <p>An event without an id comes from a Floe older than {@code DataWritten} version 3, still
   * read from the control topic after an upgrade: its hand-over is its manifest's name without the
   * part that tells the manifests of one hand-over of a table apart, as {@link #MANIFEST_NAME}
   * reads it. Only for those events; the fallback can go once no such Floe may have events left on
   * the control topic.
   */
  static HandOverKey handOverOf(DataWritten event) {
    if (event.handOverId() != null) {
      return new HandOverKey(event.table(), event.handOverId(), null);
    }
    Matcher matcher = MANIFEST_NAME.matcher(event.manifestLocation());
    return new HandOverKey(
        event.table(), null, matcher.matches() ? matcher.group(1) : event.manifestLocation());
  }

  /**
   * What tells a hand-over apart among a table's events: its route name and either its id or, for
   * an event without one, its manifests' name prefix.
   */
  record HandOverKey(String table, UUID id, String namePrefix) {}

  /** One hand-over's files and the source partitions of its changes. */
  private static final class HandOver {
    private final List<DataFile> dataFiles = new ArrayList<>();
    private final List<DeleteFile> keyFiles = new ArrayList<>();
    private final List<DeleteFile> supersededFiles = new ArrayList<>();
    private final List<ChangeSource> sources = new ArrayList<>();
    private long records;
    private long bytes;
    private boolean dropped;

    boolean truncates() {
      return sources.stream().anyMatch(ChangeSource::truncated);
    }

    /** Whether this hand-over holds changes of a source partition {@code other} holds too. */
    boolean shares(HandOver other) {
      return sources.stream()
          .anyMatch(mine -> other.sources.stream().anyMatch(mine::samePartition));
    }
  }

  /** The superseded rows of one of the commit's new data files, from every part that names them. */
  private record SupersededFile(DataFile file, java.util.BitSet positions) {
    LocatedRows.FileRows rows() {
      return new LocatedRows.FileRows(file, positions.stream().asLongStream().toArray(), null);
    }
  }

  /** Adds superseded rows of {@code file}, and returns the file's set of them. */
  private static java.util.BitSet supersede(
      Map<String, SupersededFile> superseded, DataFile file, long[] positions) {
    SupersededFile rows =
        superseded.computeIfAbsent(
            file.location(), l -> new SupersededFile(file, new java.util.BitSet()));
    for (long position : positions) {
      rows.positions().set(Math.toIntExact(position));
    }
    return rows.positions();
  }

  /**
   * Reads the rows of a hand-over's data files that later changes of the same hand-over superseded
   * (its files of superseded rows, {@code write.KeyFiles}).
   *
   * @throws IllegalStateException if one names a file the hand-over did not write
   */
  private static void readSuperseded(
      Table table, HandOver handOver, Map<String, SupersededFile> superseded) {
    if (handOver.supersededFiles.isEmpty()) {
      return;
    }
    Map<String, DataFile> written = new LinkedHashMap<>();
    handOver.dataFiles.forEach(file -> written.put(file.location(), file));
    Schema pathAndPosition =
        new Schema(MetadataColumns.DELETE_FILE_PATH, MetadataColumns.DELETE_FILE_POS);
    for (DeleteFile file : handOver.supersededFiles) {
      try (CloseableIterable<Record> rows =
          FormatModelRegistry.readBuilder(
                  file.format(), Record.class, table.io().newInputFile(file.location()))
              .project(pathAndPosition)
              .build()) {
        String lastPath = null;
        java.util.BitSet positions = null;
        for (Record row : rows) {
          String path = row.get(0, CharSequence.class).toString();
          if (!path.equals(lastPath)) {
            DataFile dataFile = written.get(path);
            if (dataFile == null) {
              throw new IllegalStateException(
                  "File of superseded rows "
                      + file.location()
                      + " names "
                      + path
                      + ", not a data file of its hand-over");
            }
            positions = supersede(superseded, dataFile, new long[0]);
            lastPath = path;
          }
          positions.set(Math.toIntExact(row.get(1, Long.class)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read file of superseded rows " + file.location(), e);
      }
    }
  }

  private static Set<Integer> keyIds(Table table, Collection<HandOver> handOvers) {
    Set<Integer> keyIds = new TreeSet<>();
    for (HandOver handOver : handOvers) {
      for (DeleteFile file : handOver.keyFiles) {
        Set<Integer> ids = new TreeSet<>(file.equalityFieldIds());
        if (!keyIds.isEmpty() && !keyIds.equals(ids)) {
          throw new IllegalStateException(
              "Key files of table "
                  + table.name()
                  + " name different key columns: "
                  + keyIds
                  + " and "
                  + ids);
        }
        keyIds = ids;
      }
    }
    if (keyIds.isEmpty()) {
      keyIds = table.schema().identifierFieldIds();
    }
    if (keyIds.isEmpty()) {
      throw new IllegalStateException(
          "Table "
              + table.name()
              + " has no identifier fields: upsert mode needs them to find the rows it replaces"
              + " (set iceberg.table.<table>.id-columns)");
    }
    return keyIds;
  }

  /**
   * Adds every key of a hand-over's key files to {@code keys}, noting the hand-over as the last to
   * retire each.
   *
   * @return {@code lastHandOver}, or a larger copy of it when the keys outgrew it
   */
  private static int[] readKeys(
      Table table,
      RetiredKeys.Builder keys,
      List<DeleteFile> keyFiles,
      int[] lastHandOver,
      int handOver) {
    int[] last = lastHandOver;
    for (DeleteFile file : keyFiles) {
      if (file.recordCount() == 0) {
        continue; // a truncated hand-over's without keys: Iceberg's writer left no file
      }
      if (file.format() != FileFormat.PARQUET) {
        throw new IllegalStateException("Key file " + file.location() + " is not Parquet");
      }
      Schema keySchema = keys.keySchema();
      InternalRecordWrapper internal = new InternalRecordWrapper(keySchema.asStruct());
      try (CloseableIterable<Record> rows =
          FormatModelRegistry.readBuilder(
                  FileFormat.PARQUET, Record.class, table.io().newInputFile(file.location()))
              .project(keySchema)
              .reuseContainers()
              .build()) {
        for (Record row : rows) {
          int key = keys.add(internal.wrap(row));
          if (key >= last.length) {
            last = Arrays.copyOf(last, last.length * 2);
          }
          last[key] = handOver;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read key file " + file.location(), e);
      }
    }
    return last;
  }

  List<DataFile> dataFiles() {
    return dataFiles;
  }

  RetiredKeys keys() {
    return keys;
  }

  /** Rows of the data files that a later hand-over of the same commit replaces or deletes. */
  List<LocatedRows.FileRows> superseded() {
    return superseded;
  }

  /** How many rows {@link #superseded()} names. */
  long supersededRows() {
    return superseded.stream().mapToLong(rows -> rows.positions().length).sum();
  }

  /**
   * Whether the commit empties the table before it adds the kept hand-overs' files: a hand-over
   * read a truncate.
   */
  boolean truncated() {
    return !truncates.isEmpty();
  }

  /** The truncates read, each as the source partition and offset it was read at. */
  List<ChangeSource> truncates() {
    return truncates;
  }

  /**
   * How many hand-overs of the commit a later truncate dropped: they held changes read before it
   * from the same source partitions, and their data files are not committed.
   */
  int droppedHandOvers() {
    return droppedHandOvers;
  }

  long records() {
    return records;
  }

  long bytes() {
    return bytes;
  }

  /**
   * Deletes the key files and the workers' manifests, after the commit that used them: the commit
   * added the data files one by one, so no snapshot refers to any of them. A file that cannot be
   * deleted is an orphan, not an error.
   */
  void deleteTransportFiles(Table table) {
    for (String location : transportFiles) {
      try {
        table.io().deleteFile(location);
      } catch (RuntimeException e) {
        LOG.warn(
            "Could not delete {} of table {}; it is an orphan now: {}",
            location,
            table.name(),
            e.toString());
      }
    }
  }

  /** A worker's manifest as Iceberg reads it: with a snapshot id for its entries to inherit. */
  private record Readable(ManifestFile manifest) implements ManifestFile {
    @Override
    public String path() {
      return manifest.path();
    }

    @Override
    public long length() {
      return manifest.length();
    }

    @Override
    public int partitionSpecId() {
      return manifest.partitionSpecId();
    }

    @Override
    public ManifestContent content() {
      return manifest.content();
    }

    @Override
    public long sequenceNumber() {
      return manifest.sequenceNumber();
    }

    @Override
    public long minSequenceNumber() {
      return manifest.minSequenceNumber();
    }

    @Override
    public Long snapshotId() {
      return READ_SNAPSHOT_ID;
    }

    @Override
    public Integer addedFilesCount() {
      return manifest.addedFilesCount();
    }

    @Override
    public Long addedRowsCount() {
      return manifest.addedRowsCount();
    }

    @Override
    public Integer existingFilesCount() {
      return manifest.existingFilesCount();
    }

    @Override
    public Long existingRowsCount() {
      return manifest.existingRowsCount();
    }

    @Override
    public Integer deletedFilesCount() {
      return manifest.deletedFilesCount();
    }

    @Override
    public Long deletedRowsCount() {
      return manifest.deletedRowsCount();
    }

    @Override
    public List<PartitionFieldSummary> partitions() {
      return manifest.partitions();
    }

    @Override
    public ManifestFile copy() {
      return new Readable(manifest.copy());
    }
  }
}
